import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("staff_users", (t) => {
    t.increments("id").primary();
    t.text("email").notNullable();
    t.text("first_name").notNullable();
    t.text("last_name").notNullable();
    t.text("password_hash").notNullable();
    t.text("role").notNullable().defaultTo("admin");
    t.timestamp("last_login_at", { useTz: true });
    t.timestamps(true, true);
  });
  // E-mail is unique whatever its case.
  await knex.raw("create unique index staff_users_email_unique on staff_users (lower(email))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("staff_users");
}
