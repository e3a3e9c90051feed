import type { TestProject } from "vitest/node";
import { type ProvisionedServer, provisionServer } from "./provision.js";

declare module "vitest" {
  export interface ProvidedContext {
    testDb: { adminUrl: string; template: string };
  }
}

let server: ProvisionedServer | null = null;

/** One Postgres for the run and one migrated template; each worker clones its own database. */
export async function setup(project: TestProject) {
  server = await provisionServer();
  project.provide("testDb", { adminUrl: server.adminUrl, template: server.template });
}

export async function teardown() {
  await server?.stop();
}
