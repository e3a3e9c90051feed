import type { Knex } from "knex";

// One-time report links, the client's responses, quote requests and quote report links
// (docs/decisions.md#7, #8 and #21). Tokens are never stored: only their SHA-256, in hex.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("report_shares", (t) => {
    t.increments("id").primary();
    t.integer("report_id").notNullable().references("reports.id").onDelete("CASCADE");
    t.text("token_hash").notNullable().unique();
    t.text("client_email").notNullable();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.boolean("revoked").notNullable().defaultTo(false);
    // The first view claims the link and binds it to that browser (the SHA-256 of a random cookie value).
    t.timestamp("claimed_at", { useTz: true });
    t.text("browser_binding");
    t.timestamp("responded_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["report_id"]);
  });
  await knex.raw("create index report_shares_created_idx on report_shares (created_at desc, id desc)");
  await knex.raw(
    "alter table report_shares add constraint report_shares_binding_check check ((claimed_at is null) = (browser_binding is null))",
  );

  await knex.schema.createTable("client_responses", (t) => {
    t.increments("id").primary();
    t.integer("share_id").notNullable().references("report_shares.id").onDelete("CASCADE");
    t.integer("maintenance_task_id").notNullable().references("maintenance_tasks.id").onDelete("CASCADE");
    t.text("action").notNullable();
    t.text("notes");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["share_id", "maintenance_task_id"]);
    t.index(["maintenance_task_id"]);
  });
  await knex.raw(
    "alter table client_responses add constraint client_responses_action_check check (action in ('request_quote','ignore'))",
  );
  await knex.raw(
    "alter table client_responses add constraint client_responses_notes_check check (action = 'request_quote' or notes is null)",
  );

  await knex.schema.createTable("quote_requests", (t) => {
    t.increments("id").primary();
    t.integer("property_id").notNullable().references("properties.id").onDelete("CASCADE");
    // One quote request per task: a second share of the same report never doubles it.
    t.integer("maintenance_task_id").notNullable().unique().references("maintenance_tasks.id").onDelete("CASCADE");
    t.integer("share_id").references("report_shares.id").onDelete("SET NULL");
    t.text("status").notNullable().defaultTo("pending");
    t.text("priority").notNullable().defaultTo("medium");
    // Free text as staff typed it; cents when it reads as a dollar figure (for totals).
    t.text("quoted_amount");
    t.bigInteger("quoted_cents");
    t.text("admin_notes");
    t.text("client_notes");
    t.timestamp("quoted_at", { useTz: true });
    t.timestamp("decided_at", { useTz: true });
    t.timestamps(true, true);
    t.index(["property_id", "status"]);
  });
  await knex.raw("create index quote_requests_created_idx on quote_requests (created_at desc, id desc)");
  await knex.raw(
    "alter table quote_requests add constraint quote_requests_status_check check (status in ('pending','quoted','accepted','declined','completed'))",
  );
  await knex.raw(
    "alter table quote_requests add constraint quote_requests_priority_check check (priority in ('immediate','high','medium','low'))",
  );
  await knex.raw(
    "alter table quote_requests add constraint quote_requests_quoted_check check (status in ('pending','declined') or quoted_amount is not null)",
  );

  await knex.schema.createTable("quote_report_links", (t) => {
    t.increments("id").primary();
    t.integer("property_id").notNullable().references("properties.id").onDelete("CASCADE");
    t.text("token_hash").notNullable().unique();
    t.text("client_email").notNullable();
    // The quoted items the report offered, in order, and their total when every amount parsed.
    t.specificType("quote_request_ids", "integer[]").notNullable();
    t.bigInteger("total_cents");
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.boolean("revoked").notNullable().defaultTo(false);
    t.timestamp("claimed_at", { useTz: true });
    t.text("browser_binding");
    // Every item answered: the link is spent.
    t.timestamp("completed_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["property_id"]);
  });
  await knex.raw(
    "alter table quote_report_links add constraint quote_report_links_binding_check check ((claimed_at is null) = (browser_binding is null))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("quote_report_links");
  await knex.schema.dropTableIfExists("quote_requests");
  await knex.schema.dropTableIfExists("client_responses");
  await knex.schema.dropTableIfExists("report_shares");
}
