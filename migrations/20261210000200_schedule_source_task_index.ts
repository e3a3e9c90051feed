import type { Knex } from "knex";

// Deleting a maintenance task (erasure, a property's cascade) checks maintenance_schedules.source_task_id, its
// foreign key with ON DELETE SET NULL; without an index each deleted task reads every schedule.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "create index if not exists maintenance_schedules_source_task_idx on maintenance_schedules (source_task_id) where source_task_id is not null",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists maintenance_schedules_source_task_idx");
}
