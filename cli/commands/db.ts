import type { Command } from "commander";
import { migrateLatest } from "../../src/db/knex.js";
import { seedAll } from "../../seeds/index.js";
import { withContainer } from "../context.js";

export function registerDb(program: Command) {
  const db = program.command("db").description("Database schema and seed data");

  db.command("migrate")
    .description("Apply every pending migration")
    .action(() =>
      withContainer(async ({ db }) => {
        const applied = await migrateLatest(db);
        console.log(applied.length ? `Applied ${applied.length} migration(s):\n  ${applied.join("\n  ")}` : "Already up to date.");
      }),
    );

  db.command("rollback")
    .description("Undo the last batch of migrations")
    .option("--all", "undo every migration")
    .action((options: { all?: boolean }) =>
      withContainer(async ({ db }) => {
        const [, undone] = (await db.migrate.rollback(undefined, Boolean(options.all))) as [number, string[]];
        console.log(undone.length ? `Rolled back ${undone.length} migration(s):\n  ${undone.join("\n  ")}` : "Nothing to roll back.");
      }),
    );

  db.command("seed")
    .description("Load plans and the demo staff user (safe to repeat)")
    .action(() =>
      withContainer(async (container) => {
        const result = await seedAll(container);
        console.log(`Plans added: ${result.plansAdded}. Demo staff user ${result.demoUserCreated ? "created" : "already present"}.`);
      }),
    );

  db.command("reset")
    .description("Drop every table, migrate again and seed (destroys all data)")
    .requiredOption("--yes", "confirm that all data will be destroyed")
    .action(() =>
      withContainer(async (container) => {
        await container.db.migrate.rollback(undefined, true);
        await migrateLatest(container.db);
        await seedAll(container);
        console.log("Database reset: migrated and seeded.");
      }),
    );
}
