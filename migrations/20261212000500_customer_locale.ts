import type { Knex } from "knex";

// The customer's language (docs/decisions.md#65): their e-mails, PDFs, invoices and Stripe's follow it. English unless
// the page they signed up on, My Home's setting or the office says French.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("customers", (t) => {
    t.text("locale").notNullable().defaultTo("en-CA");
  });
  await knex.raw("alter table customers add constraint customers_locale_check check (locale in ('en-CA', 'fr-CA'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("customers", (t) => {
    t.dropColumn("locale");
  });
}
