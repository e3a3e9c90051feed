import type { TestProject } from "vitest/node";
import { rmSync } from "node:fs";
import { buildBundles, bundlesFolder } from "./node-bundle.js";
import { type ProvisionedServer, provisionServer } from "./provision.js";

declare module "vitest" {
  export interface ProvidedContext {
    testDb: { adminUrl: string; template: string };
    /** The folder of the Haven processes' bundles (node-bundle.ts). */
    processBundles: string;
  }
}

let server: ProvisionedServer | null = null;
const bundles = bundlesFolder(process.pid);
/** Once for the run, whichever of its projects set up first. */
let bundlesBuilt: Promise<void> | null = null;

/**
 * One Postgres for the run and one migrated template; each worker clones its own database. And the bundles of the
 * Haven processes the tests start (node-bundle.ts).
 */
export async function setup(project: TestProject) {
  bundlesBuilt ??= buildBundles(bundles);
  [server] = await Promise.all([provisionServer(), bundlesBuilt]);
  project.provide("testDb", { adminUrl: server.adminUrl, template: server.template });
  project.provide("processBundles", bundles);
}

export async function teardown() {
  await server?.stop();
  rmSync(bundles, { recursive: true, force: true });
}
