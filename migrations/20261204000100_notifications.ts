import type { Knex } from "knex";

// The staff bell's notifications (src/modules/notifications/README.md). Expand only: new tables an older image
// never reads.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("notifications", (t) => {
    t.bigIncrements("id").primary();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text("kind").notNullable();
    t.text("record_type").notNullable();
    t.text("record_id").notNullable();
    t.text("link").notNullable();
    t.text("text").notNullable();
    // Set for a notification raised at most once (the nightly "paid but never booked": one per customer).
    t.text("once_key").unique();
    t.index(["created_at"]);
    t.index(["kind", "created_at"]);
  });
  // One row per staff user who read a notification (no foreign key to staff: marks go with their notification).
  await knex.schema.createTable("notification_reads", (t) => {
    t.bigInteger("notification_id").notNullable().references("notifications.id").onDelete("CASCADE");
    t.integer("staff_user_id").notNullable();
    t.timestamp("read_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["staff_user_id", "notification_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("notification_reads");
  await knex.schema.dropTableIfExists("notifications");
}
