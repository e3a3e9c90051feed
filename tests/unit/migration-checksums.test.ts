// Landed migrations are history (migrations/README.md, docs/decisions.md#47): scripts/check-migrations.mjs, run by
// `npm run lint`, holds each recorded migration to its name and SHA-256. Here the real script runs on the repo's
// folder, then on copies of it with one migration edited, renamed, deleted or added.
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MIGRATIONS = path.join(ROOT, "migrations");
const SCRIPT = path.join(ROOT, "scripts/check-migrations.mjs");
const FIRST = "20260101000100_plans.ts";

const check = (dir?: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [SCRIPT, ...(dir ? ["--dir", dir] : []), ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

const copies: string[] = [];
const copy = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "haven-migrations-"));
  copies.push(dir);
  cpSync(MIGRATIONS, dir, { recursive: true });
  return dir;
};
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("landed migrations keep their name and content", () => {
  it("every migration in migrations/ is recorded with its current SHA-256", () => {
    const r = check();
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const recorded = readFileSync(path.join(MIGRATIONS, "checksums.sha256"), "utf8").trim().split("\n");
    expect(recorded.map((l) => l.split("  ")[1])).toContain(FIRST);
  });

  it("fails when a recorded migration's content changes, and says to put the change in a new one", () => {
    const dir = copy();
    appendFileSync(path.join(dir, FIRST), "\n// an edit after it landed\n");
    const r = check(dir);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${FIRST} changed after it landed`);
    expect(r.err).toContain("put the change in a new migration");
  });

  it("fails when a recorded migration is renamed or deleted", () => {
    const dir = copy();
    renameSync(path.join(dir, FIRST), path.join(dir, "20260101000100_plans_v2.ts"));
    const renamed = check(dir);
    expect(renamed.code).toBe(1);
    expect(renamed.err).toContain(`${FIRST} is recorded as landed but is gone`);

    unlinkSync(path.join(dir, "20260101000100_plans_v2.ts"));
    const deleted = check(dir);
    expect(deleted.code).toBe(1);
    expect(deleted.err).toContain(`${FIRST} is recorded as landed but is gone`);
  });

  it("a new migration fails until recorded; --record adds it and never rewrites a recorded line", () => {
    const dir = copy();
    const added = "20991231000100_new_table.ts";
    writeFileSync(path.join(dir, added), "export async function up() {}\n");
    const unrecorded = check(dir);
    expect(unrecorded.code).toBe(1);
    expect(unrecorded.err).toContain(
      `${added} is new and not recorded yet: run node scripts/check-migrations.mjs --record`,
    );

    appendFileSync(path.join(dir, FIRST), "\n// edited\n");
    const recorded = check(dir, "--record");
    // The new one is recorded; the edited one still fails: --record never blesses a change.
    expect(recorded.out).toContain(`recorded ${added}`);
    expect(recorded.code).toBe(1);
    expect(recorded.err).toContain(`${FIRST} changed after it landed`);
    expect(readFileSync(path.join(dir, "checksums.sha256"), "utf8")).toMatch(
      new RegExp(`^[0-9a-f]{64} {2}${added}$`, "m"),
    );
    expect(check(dir).err).not.toContain(added);
  });
});
