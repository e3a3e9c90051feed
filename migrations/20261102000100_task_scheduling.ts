import type { Knex } from "knex";

// a task is assigned to a staff user. `assigned_to` was free text that nothing wrote;
// it becomes the staff user's id (null when unassigned, and again when that user is deleted). The list
// view reads tasks in date order with the undated last: an index serves that order.
export async function up(knex: Knex): Promise<void> {
  // Keep any value that already names a staff user; anything else could never have been shown as one.
  await knex.raw(
    `update maintenance_tasks set assigned_to = null
      where assigned_to is not null
        and (assigned_to !~ '^[1-9][0-9]{0,8}$' or not exists (select 1 from staff_users s where s.id::text = assigned_to))`,
  );
  await knex.raw("alter table maintenance_tasks alter column assigned_to type integer using assigned_to::integer");
  await knex.schema.alterTable("maintenance_tasks", (t) => {
    t.foreign("assigned_to").references("staff_users.id").onDelete("SET NULL");
    t.index(["assigned_to"]);
  });
  await knex.raw(
    "create index maintenance_tasks_date_order_idx on maintenance_tasks (scheduled_date asc nulls last, id)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists maintenance_tasks_date_order_idx");
  await knex.schema.alterTable("maintenance_tasks", (t) => {
    t.dropForeign(["assigned_to"]);
    t.dropIndex(["assigned_to"]);
  });
  await knex.raw("alter table maintenance_tasks alter column assigned_to type text using assigned_to::text");
}
