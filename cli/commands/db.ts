import type { Command } from "commander";
import type { Knex } from "knex";
import {
  freeKnexMigrationLock,
  migrateLatest,
  refuseNewerSchema,
  unlockMigrations,
  withMigrationLock,
} from "../../src/db/knex.js";
import { seedAll } from "../../seeds/index.js";
import { withContainer } from "../context.js";

export function registerDb(program: Command) {
  const db = program.command("db").description("Database schema and seed data");

  db.command("migrate")
    .description("Apply every pending migration")
    .action(() =>
      withContainer(async ({ db }) => {
        const applied = await migrateLatest(db);
        console.log(
          applied.length ? `Applied ${applied.length} migration(s):\n  ${applied.join("\n  ")}` : "Already up to date.",
        );
      }),
    );

  db.command("rollback")
    .description("Undo the last batch of migrations")
    .option("--all", "undo every migration")
    .action((options: { all?: boolean }) =>
      withContainer(async ({ db }) => {
        const undone = await rollback(db, Boolean(options.all));
        console.log(
          undone.length
            ? `Rolled back ${undone.length} migration(s):\n  ${undone.join("\n  ")}`
            : "Nothing to roll back.",
        );
      }),
    );

  db.command("unlock")
    .description("Free the migration lock an older Haven's killed migrator left behind")
    .action(() =>
      withContainer(async ({ db }) => {
        const result = await unlockMigrations(db);
        if (result.status === "busy") {
          const who = result.pid ? ` (Postgres process ${result.pid})` : "";
          throw new Error(`a migration is running now${who}; its lock goes when it ends or its connection closes`);
        }
        console.log(result.status === "freed" ? "Migration lock freed." : "The migration lock was already free.");
      }),
    );

  db.command("seed")
    .description("Load plans and the demo staff user (safe to repeat)")
    .action(() =>
      withContainer(async (container) => {
        const result = await seedAll(container);
        console.log(
          `Plans added: ${result.plansAdded}. Demo staff user ${result.demoUserCreated ? "created" : "already present"}.`,
        );
      }),
    );

  db.command("reset")
    .description("Drop every table, migrate again and seed (destroys all data)")
    .requiredOption("--yes", "confirm that all data will be destroyed")
    .action(() =>
      withContainer(async (container) => {
        await rollback(container.db, true);
        await migrateLatest(container.db);
        await seedAll(container);
        console.log("Database reset: migrated and seeded.");
      }),
    );
}

/** Undoes migrations under the same lock as migrateLatest, so it never runs beside a migrator. */
function rollback(db: Knex, all: boolean): Promise<string[]> {
  return withMigrationLock(db, async () => {
    // Knex cannot undo migrations this code does not have, additive or not.
    await refuseNewerSchema(db, undefined, { strict: true });
    await freeKnexMigrationLock(db);
    const [, undone] = (await db.migrate.rollback(undefined, all)) as [number, string[]];
    return undone;
  });
}
