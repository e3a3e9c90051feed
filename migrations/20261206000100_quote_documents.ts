import type { Knex } from "knex";

// A quote is a document a homeowner can say yes to (docs/decisions.md#42). Expand only (docs/operations.md
// "Upgrade and rollback"): every column is nullable, so an older image still running ignores them. quoted_at,
// the day the validity counts from, is already there (20260204000100_sharing_quotes).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("quote_requests", (t) => {
    // What will be done, written for the homeowner; admin_notes stay internal.
    t.text("scope").nullable();
    // The last day the quote can be accepted (BUSINESS_TZ): the quoted day + 30 unless staff gave a date.
    t.date("valid_until").nullable();
    // The home's province when quoted (its postal code's, else BUSINESS_PROVINCE): the tax follows it (#32).
    t.text("tax_province").nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("quote_requests", (t) => {
    t.dropColumn("tax_province");
    t.dropColumn("valid_until");
    t.dropColumn("scope");
  });
}
