// The production stack's files, read as text (no Docker engine here): docker-compose.yml must not fill in a
// production value (a stack started with only SESSION_SECRET came up healthy, then lost every e-mail and answered
// every login with 403), mailpit is for the dev profile only, logs are capped, and the Caddyfile keeps /metrics
// out in every spelling Express answers.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { until } from "../support/processes.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

type Service = {
  environment?: Record<string, string>;
  volumes?: string[];
  image?: string;
  command?: string[];
  profiles?: string[];
  logging?: { driver?: string; options?: Record<string, string> };
};
const composeText = read("docker-compose.yml");
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service> };
const services = compose.services;

/** What production must set itself (docs/operations.md, "Variables that must be set"). */
const PRODUCTION = ["SESSION_SECRET", "PUBLIC_URL", "POSTGRES_PASSWORD", "SMTP_URL", "METRICS_TOKEN"];

describe("docker-compose.yml", () => {
  it("fills in no production value: each is required (VAR:?message) wherever it is used", () => {
    for (const name of PRODUCTION) {
      const uses = [...composeText.matchAll(new RegExp(`\\$\\{${name}([^A-Z_][^}]*)?\\}`, "g"))].map((m) => m[0]);
      expect(uses.length, name).toBeGreaterThan(0);
      for (const use of uses) expect(use, name).toMatch(new RegExp(`^\\$\\{${name}:\\?\\S.*\\}$`));
    }
    // Where they reach the processes.
    for (const service of ["migrate", "web", "worker"]) {
      for (const name of ["SESSION_SECRET", "PUBLIC_URL", "SMTP_URL", "METRICS_TOKEN"])
        expect(services[service]!.environment![name], `${service} ${name}`).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
      expect(services[service]!.environment!.DATABASE_URL).toContain("${POSTGRES_PASSWORD:?");
    }
    expect(services.postgres!.environment!.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
  });

  it("runs mailpit only under the dev profile, and nothing else points at it", () => {
    expect(services.mailpit!.profiles).toEqual(["dev"]);
    for (const [name, service] of Object.entries(services)) {
      if (name !== "mailpit") expect(JSON.stringify(service), name).not.toMatch(/mailpit/i);
    }
  });

  it("backs the database up daily with a pg_dump of the server's own version, kept where web's doctor reads its age", () => {
    const backup = services.backup!;
    expect(backup.image).toBe(services.postgres!.image);
    expect(backup.volumes).toContain("backups:/backups");
    expect(backup.command!.join("\n")).toMatch(/pg_dump --format=custom[\s\S]*pg_restore --list[\s\S]*sleep 86400/);
    expect(services.web!.environment!.BACKUP_DIR).toBe("/backups");
    expect(services.web!.volumes).toContain("backups:/backups:ro");
    // The worker has no pg_dump 17: its own daily job would only fail.
    expect(services.worker!.environment!.BACKUP_DIR).toBeUndefined();
  });

  it("caps every service's log (json-file, max-size and max-file)", () => {
    for (const [name, service] of Object.entries(services)) {
      expect(service.logging?.driver, name).toBe("json-file");
      expect(service.logging?.options?.["max-size"], name).toMatch(/^\d+[kmg]$/);
      expect(Number(service.logging?.options?.["max-file"]), name).toBeGreaterThan(0);
    }
  });
});

const caddyfile = read("Caddyfile");
/** The @metrics matcher's regular expression, as Caddy (Go RE2) reads it: `(?i)` is the `i` flag. */
function metricsMatcher(): RegExp {
  const line = /^\s*@metrics\s+path_regexp\s+(\S+)\s*$/m.exec(caddyfile);
  expect(line, "@metrics must be a path_regexp matcher").not.toBeNull();
  const pattern = line![1]!;
  expect(pattern.startsWith("(?i)"), "case-insensitive").toBe(true);
  return new RegExp(pattern.slice(4), "i");
}

describe("Caddyfile", () => {
  it("answers 404 for /metrics in every spelling Express routes to it, and only for those", () => {
    expect(caddyfile).toMatch(/^\s*respond @metrics 404\s*$/m);
    const matcher = metricsMatcher();
    for (const blocked of [
      "/metrics",
      "/METRICS",
      "/Metrics",
      "/metrics/",
      "/METRICS/",
      "//metrics",
      "/metrics/anything",
    ])
      expect(matcher.test(blocked), blocked).toBe(true);
    for (const open of ["/", "/api/plans", "/pricing", "/metricsx", "/admin/metrics", "/readyz"])
      expect(matcher.test(open), open).toBe(false);
  });

  it("retries another replica, or the one replacing it, for longer than a replica takes to start", () => {
    const proxy = caddyfile.slice(caddyfile.indexOf("reverse_proxy"));
    expect(proxy).toMatch(/dynamic a \{[\s\S]*name web/);
    const seconds = Number(/lb_try_duration (\d+)s/.exec(proxy)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(30);
    expect(proxy).toMatch(/dial_timeout \d+s/);
  });

  // With Caddy installed (Debian: apt-get install caddy), the real thing: its own reading of the file.
  const caddy = spawnSync("caddy", ["version"], { encoding: "utf8" }).status === 0;
  let running: ReturnType<typeof spawn> | null = null;
  afterAll(() => {
    running?.kill("SIGKILL");
  });
  it.skipIf(!caddy)("Caddy itself answers 404 for each spelling", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    running = spawn("caddy", ["run", "--config", path.join(ROOT, "Caddyfile"), "--adapter", "caddyfile"], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        XDG_DATA_HOME: "/tmp/haven-caddy-test",
        XDG_CONFIG_HOME: "/tmp/haven-caddy-test",
        SITE_ADDRESS: `:${port}`,
      },
      stdio: "ignore",
    });
    const get = async (urlPath: string) => (await fetch(`http://127.0.0.1:${port}${urlPath}`)).status;
    await until("Caddy to listen", async () => (await get("/metrics")) > 0, 10_000, 50);
    for (const blocked of ["/metrics", "/METRICS", "/metrics/", "/Metrics/x", "//metrics", "/metrics?x=1"])
      expect(await get(blocked), blocked).toBe(404);
  });
});
