import type { Knex } from "knex";

// The dashboard's Total Properties and Total Revenue as exact rollups (docs/decisions.md#83): triggers append each
// write's change (+1/-1, or the revenue's cents) to rollup_deltas in the writer's own transaction, so every writer
// (the app, the CLI, a seed, an import, the bench's bulk fill) keeps them true without knowing of them, and a
// snapshot's sum of the deltas is exact for that snapshot. Rows only ever get appended: concurrent writers never
// wait on one another, as they would on one counter row. src/modules/dashboard/dashboard.repository.ts reads the sums
// and compacts the rows now and then (one statement: delete ... returning, then insert their sum).
//
// Revenue is what the dashboard's revenue SQL summed: succeeded one-time payments and paid invoices before tax, net
// of the pre-tax part of their refunds and lost disputes. That net is kept on the invoice itself
// (invoices.revenue_returned_cents) by the refunds' and disputes' triggers, so an invoice's share of revenue reads
// its own row only, and a refund racing a change of its invoice's status meets that row's lock.
// Statement-level triggers with transition tables: a bulk insert adds one delta row, not one per row.

/** A trigger function that appends, per statement, the change in sum(contribution) over the rows written. */
function deltaFunction(name: string, figure: string, contribution: string): string {
  return `create function ${name}() returns trigger language plpgsql as $$
    declare d bigint;
    begin
      if tg_op = 'INSERT' then
        select sum(${contribution}) into d from new_rows r;
      elsif tg_op = 'UPDATE' then
        select (select coalesce(sum(${contribution}), 0) from new_rows r)
             - (select coalesce(sum(${contribution}), 0) from old_rows r) into d;
      else
        select -sum(${contribution}) into d from old_rows r;
      end if;
      if d <> 0 then
        insert into rollup_deltas (figure, delta) values ('${figure}', d);
      end if;
      return null;
    end $$`;
}

/** A trigger function that moves the pre-tax amount given back (`given`) onto each invoice it belongs to. */
function returnedFunction(name: string, given: string): string {
  return `create function ${name}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update invoices i set revenue_returned_cents = i.revenue_returned_cents + c.n
          from (select r.invoice_id, sum(${given}) as n from new_rows r group by r.invoice_id) c
         where i.id = c.invoice_id and c.n <> 0;
      elsif tg_op = 'UPDATE' then
        update invoices i set revenue_returned_cents = i.revenue_returned_cents + c.n
          from (select invoice_id, sum(n) as n
                  from (select r.invoice_id, ${given} as n from new_rows r
                        union all select r.invoice_id, -(${given}) from old_rows r) moved
                 group by invoice_id) c
         where i.id = c.invoice_id and c.n <> 0;
      else
        update invoices i set revenue_returned_cents = i.revenue_returned_cents - c.n
          from (select r.invoice_id, sum(${given}) as n from old_rows r group by r.invoice_id) c
         where i.id = c.invoice_id and c.n <> 0;
      end if;
      return null;
    end $$`;
}

const PAYMENT =
  "case when r.status = 'succeeded' and r.subscription_id is null then coalesce(r.subtotal_cents, r.amount_cents) else 0 end";
const INVOICE =
  "case when r.status = 'paid' then coalesce(r.subtotal_cents, r.amount_cents) - r.revenue_returned_cents else 0 end";
const REFUND = "r.amount_cents - r.tax_cents";
const DISPUTE = "case when r.lost_at is not null then r.lost_cents - r.lost_tax_cents else 0 end";

/** Triggers for insert, update and delete (a trigger with transition tables names one event). */
function triggers(table: string, fn: string, events: ("insert" | "update" | "delete")[]): string[] {
  const referencing = {
    insert: "new table as new_rows",
    update: "old table as old_rows new table as new_rows",
    delete: "old table as old_rows",
  };
  return events.map(
    (event) =>
      `create trigger ${table}_rollup_${event} after ${event} on ${table} referencing ${referencing[event]}
         for each statement execute function ${fn}()`,
  );
}

const TABLES = ["properties", "payments", "invoices", "refunds", "disputes"];

export async function up(knex: Knex): Promise<void> {
  // No writer changes a counted table until this transaction commits: the figures built below are exact.
  await knex.raw(`lock table ${TABLES.join(", ")} in share row exclusive mode`);
  await knex.raw("create table rollup_deltas (figure text not null, delta bigint not null)");
  await knex.raw("alter table invoices add column revenue_returned_cents bigint not null default 0");
  await knex.raw(
    `update invoices i set revenue_returned_cents = c.n
       from (select invoice_id, sum(n) as n
               from (select invoice_id, amount_cents - tax_cents as n from refunds
                     union all select invoice_id, lost_cents - lost_tax_cents from disputes where lost_at is not null) given
              where invoice_id is not null
              group by invoice_id) c
      where i.id = c.invoice_id and c.n <> 0`,
  );
  await knex.raw(deltaFunction("rollup_properties", "properties", "1"));
  await knex.raw(deltaFunction("rollup_payments", "revenue", PAYMENT));
  await knex.raw(deltaFunction("rollup_invoices", "revenue", INVOICE));
  await knex.raw(returnedFunction("rollup_refunds", REFUND));
  await knex.raw(returnedFunction("rollup_disputes", DISPUTE));
  // Every figure counted again from the rows: the build below, and after a TRUNCATE (which has no transition
  // table). Its one statement sees the deltas it deletes and the rows it counts in one snapshot; the table lock
  // keeps a compaction's new row (which that snapshot would not see) from landing meanwhile.
  await knex.raw(
    `create function rollup_recount() returns void language plpgsql as $$
     begin
       update invoices i set revenue_returned_cents = coalesce(c.n, 0)
         from invoices i2
         left join (select invoice_id, sum(n) as n
                      from (select invoice_id, amount_cents - tax_cents as n from refunds
                            union all select invoice_id, lost_cents - lost_tax_cents from disputes where lost_at is not null) given
                     group by invoice_id) c on c.invoice_id = i2.id
        where i.id = i2.id and i.revenue_returned_cents <> coalesce(c.n, 0);
       lock table rollup_deltas in share row exclusive mode;
       with gone as (delete from rollup_deltas)
       insert into rollup_deltas (figure, delta)
       values ('properties', (select count(*) from properties)),
              ('revenue', (select coalesce(sum(${PAYMENT}), 0) from payments r)
                        + (select coalesce(sum(${INVOICE}), 0) from invoices r));
     end $$`,
  );
  await knex.raw(
    `create function rollup_truncated() returns trigger language plpgsql as $$
     begin
       perform rollup_recount();
       return null;
     end $$`,
  );
  const statements = [
    ...triggers("properties", "rollup_properties", ["insert", "delete"]),
    ...triggers("payments", "rollup_payments", ["insert", "update", "delete"]),
    ...triggers("invoices", "rollup_invoices", ["insert", "update", "delete"]),
    ...triggers("refunds", "rollup_refunds", ["insert", "update", "delete"]),
    ...triggers("disputes", "rollup_disputes", ["insert", "update", "delete"]),
    ...TABLES.map(
      (table) =>
        `create trigger ${table}_rollup_truncate after truncate on ${table} for each statement execute function rollup_truncated()`,
    ),
  ];
  for (const statement of statements) await knex.raw(statement);
  await knex.raw("select rollup_recount()");
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES)
    for (const event of ["insert", "update", "delete", "truncate"])
      await knex.raw(`drop trigger if exists ${table}_rollup_${event} on ${table}`);
  for (const fn of [
    "rollup_truncated",
    "rollup_recount",
    "rollup_disputes",
    "rollup_refunds",
    "rollup_invoices",
    "rollup_payments",
    "rollup_properties",
  ])
    await knex.raw(`drop function if exists ${fn}()`);
  await knex.raw("alter table invoices drop column if exists revenue_returned_cents");
  await knex.raw("drop table if exists rollup_deltas");
}
