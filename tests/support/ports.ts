// Ports for what a test starts itself and binds later (a Haven process, a Postgres cluster): taken below Linux's
// ephemeral range (32768–60999), from which the kernel hands out `listen(0)`'s ports. A port asked of the kernel
// and closed again can be handed to another test's `listen(0)` before the child binds it, and the child then finds
// it taken ("Port … is already in use"): the API tests and the processes tests run at once (scripts/test.mjs).
import net from "node:net";

const FIRST = 20_000;
const COUNT = 12_000;
// Each test process starts at a place of its own and walks on from there.
let next = (process.pid * 7919) % COUNT;

const canBind = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/** A free port below the ephemeral range, for a process the test starts. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < COUNT; tries++) {
    const port = FIRST + (next++ % COUNT);
    if (await canBind(port)) return port;
  }
  throw new Error(`No free port in ${FIRST}–${FIRST + COUNT - 1}`);
}
