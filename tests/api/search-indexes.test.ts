// The staff subscription search reads indexes (subscription-filter.ts, migration 20261214000100): with 30,000
// subscriptions, EXPLAIN of a search shows the trigram indexes of homes, customers and payers, and no sequential
// scan of subscriptions; the rows found are exactly those the plain match finds over every row. The list's page and
// count (docs/decisions.md#77) are the plain match's, its count capped, and a common term's count stops at the cap.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_COUNT_CAP } from "../../src/db/property-search.js";
import { matchingIdsQuery, whereSubscriptionFilter } from "../../src/modules/subscriptions/subscription-filter.js";
import { SubscriptionsRepository } from "../../src/modules/subscriptions/subscriptions.repository.js";
import { type TestContext, createTestContext } from "../support/context.js";

const ROWS = 30_000;
/** Row g's e-mails hold the start of md5(g), so a search for one reads rare trigrams (as real addresses are). */
const hash = (g: number) => createHash("md5").update(String(g)).digest("hex").slice(0, 10);
const CUSTOMER = `s${hash(4242)}@`;
const PAYER = `p${hash(27171)}`;
/** Two thirds with a customer and a home (enough that reading a whole table costs more than its index). */
const WITH_HOME = 20_000;

describe("subscription search on indexes", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    // The others a payer only (a purchase not yet through intake).
    await ctx.db.raw(
      `insert into customers (email, name) select 's' || substr(md5(g::text), 1, 10) || '@example.ca', 'Searcher Nº' || g
         from generate_series(1, :homes::int) g`,
      { homes: WITH_HOME },
    );
    await ctx.db.raw(
      `insert into properties (customer_id, address, city, province, postal_code, square_footage, year_built, bedrooms,
                               bathrooms, client_name, client_email, client_phone, subscription_plan)
       select c.id, (c.id % 900 + 1) || ' ' || (array['Maple Avenue', 'Laurier Street'])[1 + c.id % 2], 'Ottawa', 'ON',
              'K1N 5W8', 1500, 1990, '3', '2', c.name, c.email, '613-555-0100', 'basic'
         from customers c where c.email like 's%@example.ca'`,
    );
    await ctx.db.raw(
      `insert into subscriptions (customer_id, property_id, plan_type, provider, provider_subscription_id, status,
                                  monthly_amount_cents, payer_email, payer_name, started_at, billing_anchor,
                                  current_period_start, current_period_end, minimum_term_ends_at)
       select c.id, p.id, 'basic', 'demo', 'demo_sub_find_' || g, 'active', 14900,
              'p' || substr(md5(g::text), 1, 10) || '@example.ca', 'Payer ' || g, now(), current_date, now(), now() + interval '1 month', now() + interval '3 months'
         from generate_series(1, :n::int) g
         left join customers c on g <= :homes::int and c.email = 's' || substr(md5(g::text), 1, 10) || '@example.ca'
         left join properties p on p.customer_id = c.id`,
      { n: ROWS, homes: WITH_HOME },
    );
    // Some in another state and plan, spread over the homes, for the filters beside a search.
    await ctx.db.raw(
      "update subscriptions set status = 'past_due', plan_type = 'premium' where id % 7 = 0 and customer_id is not null",
    );
    await ctx.db.raw("analyze subscriptions, customers, properties");
  });
  afterAll(() => ctx.close());

  const list = (q: string) =>
    whereSubscriptionFilter(
      ctx
        .db("subscriptions as s")
        .leftJoin("customers as c", "c.id", "s.customer_id")
        .leftJoin("properties as p", "p.id", "s.property_id"),
      { q },
    )
      .orderBy("s.id")
      .pluck("s.id");

  it("EXPLAIN of a search reads the trigram indexes, not every subscription", async () => {
    for (const q of [CUSTOMER, PAYER, `${hash(123)}@example`]) {
      const { sql, bindings } = list(q).toSQL();
      // At 20,000 homes Postgres still reads a whole small table, or walks its primary key, rather than a trigram
      // index (at 100,000, `npm run bench`, it takes the trigram indexes): both are priced out here, and each lookup
      // must then be an index the search's own words select by. The search as it was (an OR over joined tables) has
      // none: every subscription is read.
      const plan = await ctx.db.transaction(async (tx) => {
        await tx.raw("set local enable_seqscan = off");
        await tx.raw("set local enable_indexscan = off");
        const { rows } = await tx.raw(`explain ${sql}`, bindings as never[]);
        return rows.map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"]).join("\n");
      });
      expect(plan, plan).not.toMatch(/Seq Scan/);
      // The payer lookup reads subscriptions_payer_trgm_idx or, this small, the customer index's rows without one.
      for (const index of ["properties_search_trgm_idx", "customers_search_trgm_idx"])
        expect(plan, plan).toContain(index);
      expect(plan, plan).toMatch(/subscriptions_payer_trgm_idx|subscriptions_customer_idx/);
    }
  });

  it("finds exactly what the plain match over every row finds", async () => {
    for (const q of [CUSTOMER, PAYER.toUpperCase(), "laurier", "nº 42", "searcher nº4242", "nobody"]) {
      const pattern = `%${q.toLowerCase()}%`;
      const plain = (
        await ctx.db.raw(
          `select s.id from subscriptions s left join customers c on c.id = s.customer_id
             left join properties p on p.id = s.property_id
            where p.search_text like :pattern or lower(coalesce(c.email, s.payer_email, '')) like :pattern
               or lower(coalesce(c.name, s.payer_name, '')) like :pattern
            order by s.id`,
          { pattern },
        )
      ).rows.map((r: { id: number }) => r.id);
      expect(await list(q), q).toEqual(plain);
    }
    // Sanity: the cases above find rows through each path (home, customer, payer).
    expect(await list("laurier")).toHaveLength(WITH_HOME / 2);
    expect(await list(PAYER)).toHaveLength(1);
    expect(await list(CUSTOMER)).toHaveLength(1);
  });

  /** The plain match over every row (as the list was), newest first; `and` adds the status or plan test. */
  const plainMatch = async (q: string, and = "") =>
    (
      await ctx.db.raw(
        `select s.id from subscriptions s left join customers c on c.id = s.customer_id
           left join properties p on p.id = s.property_id
          where (p.search_text like :pattern or lower(coalesce(c.email, s.payer_email, '')) like :pattern
             or lower(coalesce(c.name, s.payer_name, '')) like :pattern) ${and}
          order by s.created_at desc, s.id desc`,
        { pattern: `%${q.toLowerCase()}%` },
      )
    ).rows.map((r: { id: number }) => r.id);

  it("the list's page and count are the plain match's; past the cap, the count says so and the pages go on", async () => {
    const repo = new SubscriptionsRepository(ctx.db);
    const cases: [string, { status?: string; plan?: "premium" }, string][] = [
      [CUSTOMER, {}, ""],
      [PAYER.toUpperCase(), {}, ""],
      ["searcher nº4242", {}, ""],
      ["nobody", {}, ""],
      ["laurier", {}, ""],
      ["maple", { status: "past_due" }, "and s.status = 'past_due'"],
      ["nº4", { plan: "premium", status: "past_due" }, "and s.plan_type = 'premium' and s.status = 'past_due'"],
    ];
    for (const [q, only, and] of cases) {
      const plain = await plainMatch(q, and);
      for (const offset of [0, 25, 1_100]) {
        const { rows, total, capped } = await repo.list({ q, ...only, limit: 25, offset });
        const label = `${q} ${JSON.stringify(only)} at ${offset}`;
        expect(
          rows.map((r) => r.id),
          label,
        ).toEqual(plain.slice(offset, offset + 25));
        expect({ total, capped }, label).toEqual(
          plain.length > SEARCH_COUNT_CAP
            ? { total: SEARCH_COUNT_CAP, capped: true }
            : { total: plain.length, capped: false },
        );
      }
    }
    // Sanity: both ways are taken, with and without filters (past the cap, and under it with pages).
    expect((await plainMatch("laurier")).length).toBeGreaterThan(SEARCH_COUNT_CAP);
    expect((await plainMatch("maple", "and s.status = 'past_due'")).length).toBeGreaterThan(SEARCH_COUNT_CAP);
    const filtered = await plainMatch("nº4", "and s.plan_type = 'premium' and s.status = 'past_due'");
    expect(filtered.length).toBeGreaterThan(25);
    expect(filtered.length).toBeLessThan(SEARCH_COUNT_CAP);
  });

  it("the count of a common term stops at the cap: it reads about as many homes, not all 10,000 matches", async () => {
    // What EXPLAIN ANALYZE says the lookups read: rows out of each scan of homes and of subscriptions.
    const { sql, bindings } = matchingIdsQuery(ctx.db, { q: "laurier" }, SEARCH_COUNT_CAP + 1).toSQL();
    const { rows } = await ctx.db.raw(`explain (analyze, format json) ${sql}`, bindings as never[]);
    const plan = rows[0]["QUERY PLAN"][0].Plan;
    type Node = { "Relation Name"?: string; "Actual Rows": number; "Actual Loops": number; Plans?: Node[] };
    const read = (node: Node, table: string): number =>
      (node["Relation Name"] === table ? node["Actual Rows"] * node["Actual Loops"] : 0) +
      (node.Plans ?? []).reduce((sum, child) => sum + read(child, table), 0);
    expect(plan["Actual Rows"]).toBe(SEARCH_COUNT_CAP + 1);
    expect(read(plan, "properties"), JSON.stringify(plan)).toBeLessThanOrEqual(SEARCH_COUNT_CAP + 1);
    expect(read(plan, "subscriptions"), JSON.stringify(plan)).toBeLessThanOrEqual(SEARCH_COUNT_CAP + 1);
  });
});
