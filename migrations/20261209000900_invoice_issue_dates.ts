import type { Knex } from "knex";

// An invoice's date is its issue date, set once when its number is taken, and numbers follow the order of issue
// (docs/decisions.md#54). Expand only: an older image writes none of these and reads none of them; a numbered row
// it writes without `issued_at` reads as it showed it (src/modules/subscriptions/invoice-rows.ts).
// - invoices.issued_at: when the invoice was issued (Stripe: finalized; the demo provider: its period's start; a
//   quote: the yes); null until it is numbered.
// - invoices.recorded_late_at: when Haven numbered an invoice after invoices of its year issued on a later day
//   (a missed invoice that reconciliation found); the exception to the order, printed on the invoice.
// - invoice_number_counters.last_issued_at: the latest issue numbered in the year, read under the counter's lock.
// Rows already numbered take the moment their number's year came from: the period's start when the number is of
// that year (a renewal is issued as its period starts), else the payment, else when the row was written.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("invoices", (t) => {
    t.timestamp("issued_at", { useTz: true }).nullable();
    t.timestamp("recorded_late_at", { useTz: true }).nullable();
  });
  await knex.schema.alterTable("invoice_number_counters", (t) => {
    t.timestamp("last_issued_at", { useTz: true }).nullable();
  });
  const zone = await businessZone(knex);
  await knex.raw(
    `update invoices set issued_at = case
        when quote_request_id is not null then period_start
        when split_part(number, '-', 2) = to_char(period_start at time zone ?, 'YYYY') then period_start
        when split_part(number, '-', 2) = to_char(paid_at at time zone ?, 'YYYY') then paid_at
        else coalesce(paid_at, created_at) end
      where number is not null and issued_at is null`,
    [zone, zone],
  );
  // History as an auditor reads it: a row numbered after one of its year issued on a later day is marked, on the
  // day its row was written.
  await knex.raw(
    `with ordered as (
       select id, (issued_at at time zone ?)::date as day,
              max((issued_at at time zone ?)::date) over (
                partition by split_part(number, '-', 2) order by split_part(number, '-', 3)::int
                rows between unbounded preceding and 1 preceding) as latest_before
         from invoices where number ~ '^HAV-[0-9]{4}-[0-9]+$' and issued_at is not null)
     update invoices i set recorded_late_at = i.created_at
       from ordered o where o.id = i.id and o.day < o.latest_before`,
    [zone, zone],
  );
  await knex.raw(
    `update invoice_number_counters c set last_issued_at = m.latest
       from (select split_part(number, '-', 2)::int as year, max(issued_at) as latest
               from invoices where number ~ '^HAV-[0-9]{4}-[0-9]+$' group by 1) m
      where m.year = c.year`,
  );
}

/** The business zone (BUSINESS_TZ) when Postgres knows it, else Haven's default. */
async function businessZone(knex: Knex): Promise<string> {
  const named = process.env.BUSINESS_TZ || "America/Toronto";
  const known = await knex.raw("select 1 from pg_timezone_names where name = ?", [named]);
  return known.rows.length ? named : "America/Toronto";
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("invoice_number_counters", (t) => {
    t.dropColumn("last_issued_at");
  });
  await knex.schema.alterTable("invoices", (t) => {
    t.dropColumn("recorded_late_at");
    t.dropColumn("issued_at");
  });
}
