// Keep-alive between Caddy and Node (docs/operations.md): Node keeps an idle connection open longer than Caddy
// keeps its idle upstream connections, so Caddy always closes one first and never sends a request on a socket
// Node is closing (a 502, or a lost POST).
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import { describe, expect, it } from "vitest";
import { listen } from "../../src/boot.js";
import { ROOT_DIR } from "../../src/http/assets.js";

/** Caddy's reverse_proxy keeps idle upstream connections this long unless its transport says `keepalive` (Caddy's source: 2 minutes). */
const CADDY_DEFAULT_IDLE_S = 120;

/** A Go duration ("90s", "2m", "1m30s", "500ms") in seconds. */
function goDuration(text: string): number {
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join("") !== text) throw new Error(`not a duration: ${text}`);
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit!]!, 0);
}

/** How long Caddy, as the Caddyfile configures it, keeps an idle connection to a web replica. */
function caddyUpstreamIdleSeconds(): number {
  const caddyfile = readFileSync(path.join(ROOT_DIR, "Caddyfile"), "utf8").replace(/#.*$/gm, "");
  const keepalive = /^\s*keepalive\s+(\S+)\s*$/m.exec(caddyfile);
  if (!keepalive) return CADDY_DEFAULT_IDLE_S;
  return keepalive[1] === "off" ? 0 : goDuration(keepalive[1]!);
}

/** The `Keep-Alive: timeout=N` a kept-alive response announces, in seconds. */
function announcedTimeout(port: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
        res.resume();
        res.on("end", () => agent.destroy());
        const header = String(res.headers["keep-alive"] ?? "");
        resolve(Number(/timeout=(\d+)/.exec(header)?.[1] ?? Number.NaN));
      })
      .on("error", reject);
  });
}

describe("keep-alive between Caddy and Node", () => {
  it("reads the Caddyfile's upstream idle time", () => {
    expect(goDuration("1m30s")).toBe(90);
    expect(caddyUpstreamIdleSeconds()).toBeGreaterThan(0);
  });

  it("the served server keeps idle connections longer than Caddy, and waits for headers longer still", async () => {
    const app = express();
    app.get("/", (_req, res) => void res.send("ok"));
    const served = await listen(app, 0, "127.0.0.1");
    try {
      const timeout = await announcedTimeout((served.server.address() as AddressInfo).port);
      expect(timeout * 1000).toBe(served.server.keepAliveTimeout);
      expect(timeout).toBeGreaterThan(caddyUpstreamIdleSeconds());
      expect(served.server.headersTimeout).toBeGreaterThan(served.server.keepAliveTimeout);
    } finally {
      await served.drain(0);
    }
  });
});
