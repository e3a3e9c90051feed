// Haven's process entries as the processes tests start them: each bundled into one ES module by esbuild from the
// same sources, its packages left to node_modules. Under tsx every module a process loads (its packages' too) goes
// through tsx's loader thread: seconds of CPU a start, and the tests start over a hundred processes
// (docs/decisions.md#86). The runtime-image test still starts src/server.ts through tsx, as the image does.
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Plugin, build } from "esbuild";
import { inject } from "vitest";
import { ROOT_DIR } from "../../src/http/assets.js";

/** The entries the tests start, by the path they name them with. */
const ENTRIES = ["src/server.ts", "src/worker.ts", "cli/index.ts"];

/**
 * A module's own location stays its source file's: the files it reads beside itself (views, locales, migrations,
 * fonts) are found from there, wherever the bundle is written.
 */
const sourceLocation: Plugin = {
  name: "source-location",
  setup(onBuild) {
    onBuild.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
      if (file.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(file, "utf8");
      const contents = source
        .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(file)))
        .replaceAll("import.meta.filename", JSON.stringify(file))
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(file).href));
      return { contents, loader: "ts" };
    });
  },
};

/**
 * Builds the entries' bundles into a folder of their own, inside node_modules so that their packages resolve from
 * the project's (the run's global setup makes one per vitest run and removes it after).
 */
export async function buildBundles(outdir: string): Promise<void> {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: ENTRIES.map((entry) => ({ in: path.join(ROOT_DIR, entry), out: entry.replace(/\.ts$/, "") })),
    outdir,
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outExtension: { ".js": ".mjs" },
    plugins: [sourceLocation],
    // What a process imports later (the migrations, which are still TypeScript; pdfkit and sharp, loaded when first
    // used) goes through tsx's loaders, registered once before any of the bundle runs (both, as `--import tsx` does:
    // a migration outside a "type": "module" folder is CommonJS to tsx); its packages, imported statically, are
    // loaded before that.
    banner: {
      js: `import { register as registerTsxCjs } from "tsx/cjs/api";
import { register as registerTsxEsm } from "tsx/esm/api";
if (!globalThis.havenTsxRegistered) { globalThis.havenTsxRegistered = true; registerTsxCjs(); registerTsxEsm(); }`,
    },
    logLevel: "error",
  });
}

/** A vitest run's folder of bundles: one per run, so that two runs at once never write one file. */
export const bundlesFolder = (run: number) =>
  path.join(ROOT_DIR, "node_modules", ".cache", "haven-processes", String(run));

/**
 * How node starts an entry: its bundle, as the run's global setup built it, for Haven's own entries ("src/server.ts",
 * "cli/index.ts"); through tsx for a test's helper (a migrator of another folder's migrations).
 */
export function entryArguments(entry: string): string[] {
  if (!ENTRIES.includes(entry)) return ["--import", "tsx", path.join(ROOT_DIR, entry)];
  return [path.join(inject("processBundles"), entry.replace(/\.ts$/, ".mjs"))];
}
