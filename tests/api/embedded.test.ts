// the embedded Postgres starts from a private folder (as root, the container's usual case),
// keeps its data across restarts, and a server that dies is noticed and can be started again.
import { lstatSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type ExitInfo, startEmbeddedPostgres } from "../../src/db/embedded.js";
import { freePort } from "../support/ports.js";

const isRoot = process.getuid?.() === 0;
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("embedded Postgres in a private folder", () => {
  it("starts, keeps its data across a restart, and notices when the server dies", async () => {
    // mkdtemp makes a folder only its owner may enter, like a clone in /root.
    const home = mkdtempSync(path.join(os.tmpdir(), "haven-private-"));
    cleanup.push(home);
    expect(statSync(home).mode & 0o077).toBe(0);
    const dir = path.join(home, ".data", "postgres");
    const port = await freePort();
    const notices: string[] = [];
    const exits: ExitInfo[] = [];

    const first = await startEmbeddedPostgres({
      dir,
      port,
      database: "haven",
      onNotice: (l) => notices.push(l),
      onUnexpectedExit: (e) => exits.push(e),
    });
    if (isRoot) {
      // The postgres user cannot enter the folder: the cluster lives elsewhere, linked from where it was asked for.
      expect(first.dataDir).not.toBe(dir);
      expect(lstatSync(dir).isSymbolicLink()).toBe(true);
      expect(notices.join("\n")).toContain(`linked from ${dir}`);
      cleanup.push(first.dataDir);
    } else {
      expect(first.dataDir).toBe(dir);
    }
    await query(first.url, "create table kept (note text); insert into kept values ('café ’ ok')");

    // Killed under us: reported once, and it starts again on the same data.
    process.kill(first.pid()!, "SIGKILL");
    await expect.poll(() => exits.length, { timeout: 10_000 }).toBe(1);
    expect(exits[0]!.signal).toBe("SIGKILL");
    for (let attempt = 0; ; attempt++) {
      try {
        await first.restart();
        break;
      } catch (error) {
        if (attempt > 10) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
    expect(await query(first.url, "select note from kept")).toEqual([{ note: "café ’ ok" }]);
    await first.stop();
    expect(exits).toHaveLength(1);

    // A new start (the next `npm start`) finds the same cluster.
    const second = await startEmbeddedPostgres({ dir, port, database: "haven", onNotice: (l) => notices.push(l) });
    try {
      expect(second.dataDir).toBe(first.dataDir);
      expect(await query(second.url, "select note from kept")).toEqual([{ note: "café ’ ok" }]);
    } finally {
      await second.stop();
    }
  });
});
