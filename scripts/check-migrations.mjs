// Landed migrations are history (migrations/README.md, docs/decisions.md#47): each one's name and SHA-256 are
// recorded in migrations/checksums.sha256, as Flyway and knex-migrator keep theirs, and this check (part of
// `npm run lint`) fails when a recorded migration is renamed, edited or deleted, or when a new one is not
// recorded yet. Renaming or editing a migration a database has run strands that database: Knex finds a name it
// does not know, or never runs the change.
//   node scripts/check-migrations.mjs            check; exit 1 with one line per problem
//   node scripts/check-migrations.mjs --record   record the new migrations (never rewrites a recorded line)
//   --dir <folder>                               another migrations folder (the tests' copies)
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const dirArg = args.indexOf("--dir");
const dir =
  dirArg >= 0
    ? path.resolve(args[dirArg + 1] ?? ".")
    : path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../migrations");
const LIST = "checksums.sha256";
const listFile = path.join(dir, LIST);
const RECORD = "node scripts/check-migrations.mjs --record";
// The files Knex runs (src/db/migration-source.ts reads the same pattern).
const MIGRATION = /^\d{14}_[\w-]+\.ts$/;

const sha256 = (file) => createHash("sha256").update(readFileSync(path.join(dir, file))).digest("hex");

/** The recorded lines, in sha256sum's format: `<sha256>  <file>`. */
function recorded() {
  if (!existsSync(listFile)) return new Map();
  const entries = new Map();
  for (const [i, line] of readFileSync(listFile, "utf8").split("\n").entries()) {
    if (!line.trim()) continue;
    const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
    if (!match) {
      console.error(`check-migrations: ${LIST} line ${i + 1} is not "<sha256>  <file>": ${line}`);
      process.exit(1);
    }
    entries.set(match[2], match[1]);
  }
  return entries;
}

const listed = recorded();
const files = readdirSync(dir)
  .filter((f) => MIGRATION.test(f))
  .sort();

if (args.includes("--record")) {
  const added = files.filter((f) => !listed.has(f));
  for (const f of added) listed.set(f, sha256(f));
  const lines = [...listed.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([f, sum]) => `${sum}  ${f}`);
  writeFileSync(listFile, `${lines.join("\n")}\n`);
  console.log(
    added.length
      ? `check-migrations: recorded ${added.join(", ")} in migrations/${LIST}; commit it with the migration`
      : "check-migrations: nothing new to record",
  );
}

const problems = [];
for (const [file, sum] of listed) {
  if (!files.includes(file))
    problems.push(
      `${file} is recorded as landed but is gone (renamed or deleted): databases that ran it no longer match this code; bring it back as it was, and put any change in a new migration`,
    );
  else if (sha256(file) !== sum)
    problems.push(
      `${file} changed after it landed: databases that ran it will never run the change; restore it as it landed (git checkout main -- migrations/${file}) and put the change in a new migration`,
    );
}
const unrecorded = files.filter((f) => !listed.has(f));
for (const file of unrecorded)
  problems.push(`${file} is new and not recorded yet: run ${RECORD}, and commit migrations/${LIST} with it`);

if (problems.length) {
  for (const p of problems) console.error(`check-migrations: ${p}`);
  process.exit(1);
}
if (!args.includes("--record")) console.log(`check-migrations: ${files.length} migrations match migrations/${LIST}`);
