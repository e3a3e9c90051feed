// Runs Haven's migrator (migrateLatest) on DATABASE_URL with the migrations of MIGRATIONS_DIR instead of
// the project's: the migration tests use it for a slow migration to kill mid-way.
import { createKnex, migrateLatest } from "../../src/db/knex.js";
import { FolderMigrationSource } from "../../src/db/migration-source.js";

const url = process.env.DATABASE_URL;
const dir = process.env.MIGRATIONS_DIR;
if (!url || !dir) {
  console.error("migrate-folder: set DATABASE_URL and MIGRATIONS_DIR");
  process.exit(2);
}
const db = createKnex(url, { min: 0, max: 2 });
try {
  const applied = await migrateLatest(db, { migrationSource: new FolderMigrationSource(dir) });
  console.log(`applied: ${applied.join(", ") || "none"}`);
} finally {
  await db.destroy();
}
