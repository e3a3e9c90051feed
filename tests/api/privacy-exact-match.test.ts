// Erasure matches exact values, never substrings (src/modules/privacy/README.md): three customers whose e-mails
// and street addresses contain each other (jo@ ⊂ bjo@ ⊂ maryjo@; 462 ⊂ 1462 Castlefrank Road). Erasing one, or
// an e-mail Haven does not know, leaves the others' rows, queued mail, login counters and submissions alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { completedInspection } from "./reports-fixtures.js";

let ctx: TestContext;
const NOW = new Date();
const JO = { email: "jo@example.com", name: "Jo Castle", address: "462 Castlefrank Road", phone: "613-555-0462" };
const BJO = { email: "bjo@example.com", name: "Bjo Castle", address: "1462 Castlefrank Road", phone: "613-555-1462" };
const MARYJO = {
  email: "maryjo@example.com",
  name: "Maryjo Castle",
  address: "2462 Castlefrank Road",
  phone: "613-555-2462",
};
type Person = typeof JO;
let day = 0;

/** A customer with what leaves traces keyed by e-mail or address: a booking's and a report's queued mail, a
 *  sign-in e-mail, staff and My Home login counters, and a remembered submission. */
async function customer(p: Person) {
  const c = ctx.container;
  const { customer, property } = await c.customers.createWithProperty(
    { email: p.email, name: p.name, phone: p.phone, subscriptionPlan: "basic" },
    { address: p.address, city: "Ottawa", province: "ON", postalCode: "K2L 1A1" },
  );
  const date = addDays(todayIn(ctx.env.BUSINESS_TZ, NOW), 2 + day++);
  await c.transaction((tx) =>
    c.bookings.book(
      tx,
      {
        propertyId: property.id,
        customerId: customer.id,
        scheduledDate: date,
        timeSlot: "morning",
        source: "booking-page",
      },
      { email: p.email, name: p.name },
    ),
  );
  const { inspectionId } = await completedInspection(
    c,
    [{ categoryName: "Roof", subcategoryName: "Gutters", score: 4, notes: "Clogged" }],
    { propertyId: property.id },
  );
  const report = await c.reports.generate(inspectionId);
  await c.sharing.share(report.id, p.email, "https://haven.example");
  await c.homeAuth.requestSignIn(p.email, "198.51.100.20");
  await ctx.agent().post("/api/auth/login").send({ email: p.email, password: "not their password" }).expect(401);
  await c.idempotency.run(
    "privacy-exact",
    { key: `exact-${p.email}`, payload: { email: p.email }, viewer: null },
    async () => ({
      customer: { id: customer.id, name: p.name, email: p.email },
      property: { address: p.address },
    }),
  );
}

/** Everything erase could wrongly touch, as Postgres holds it. */
async function snapshot() {
  const at = new Date("2030-01-01T00:00:00Z");
  return {
    jobs: (await ctx.db.raw("select id, payload from graphile_worker._private_jobs order by id")).rows,
    loginAttempts: await ctx.db("login_attempts").orderBy("key").select("key", "attempts"),
    idempotencyKeys: await ctx.db("idempotency_keys").orderBy("key").select("key", "response"),
    homeTokens: await ctx.db("home_sign_in_tokens").orderBy("id").select("id", "email", "used_at"),
    bjo: await ctx.container.privacy.exportCustomer(BJO.email, at),
    maryjo: await ctx.container.privacy.exportCustomer(MARYJO.email, at),
  };
}

const jobsMentioning = async (text: string) =>
  Number(
    (
      await ctx.db.raw(
        "select count(*)::int as n from graphile_worker._private_jobs where position(lower(?) in lower(payload::text)) > 0",
        [text],
      )
    ).rows[0].n,
  );

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
  await customer(BJO);
  await customer(MARYJO);
}, 120_000);
afterAll(() => ctx?.close());

describe("erasing by exact values", () => {
  it("an e-mail Haven does not know touches nothing, though others' e-mails end with it", async () => {
    const before = await snapshot();
    // bjo@ and maryjo@ have mail queued that contains "jo@example.com" as text.
    expect(await jobsMentioning(JO.email)).toBeGreaterThanOrEqual(6);
    const result = await ctx.container.privacy.eraseCustomer(JO.email);
    expect(result).toEqual({ email: JO.email, customerIds: [], changed: {} });
    expect(await snapshot()).toEqual(before);
  });

  it("erasing one customer leaves the two whose e-mail and address contain theirs untouched, queued mail included", async () => {
    await customer(JO);
    const exported = await ctx.container.privacy.exportCustomer(JO.email);
    // Their queued mail is theirs alone (no neighbour's message that merely contains the text).
    expect(exported.emails.queued.length).toBeGreaterThanOrEqual(3);
    for (const job of exported.emails.queued) expect((job.payload as { to: string }).to).toBe(JO.email);

    const before = await snapshot();
    const result = await ctx.container.privacy.eraseCustomer(JO.email);
    expect(result.customerIds).toHaveLength(1);
    expect(result.changed["graphile_worker.jobs (deleted)"]).toBe(exported.emails.queued.length);
    expect(result.changed["login_attempts (deleted)"]).toBeGreaterThanOrEqual(2);

    // Jo is gone from the queue, the counters and the remembered submissions…
    const payloads = (await ctx.db.raw("select payload from graphile_worker._private_jobs")).rows.map(
      (r: { payload: { to?: string } }) => r.payload,
    );
    expect(payloads.filter((p: { to?: string }) => p.to === JO.email)).toEqual([]);
    expect(await ctx.db("login_attempts").where("key", "like", `%:${JO.email}%`).pluck("key")).toEqual([]);
    expect(
      await ctx
        .db("idempotency_keys")
        .where({ key: `exact-${JO.email}` })
        .first(),
    ).toBeUndefined();
    // …and everything of Bjo and Maryjo is as it was.
    const after = await snapshot();
    expect(after.bjo).toEqual(before.bjo);
    expect(after.maryjo).toEqual(before.maryjo);
    const others = (rows: { payload: { to?: string } }[]) => rows.filter((r) => r.payload.to !== JO.email);
    expect(after.jobs).toEqual(others(before.jobs));
    expect(after.jobs.length).toBeGreaterThanOrEqual(6);
    const notJo = (key: string) => !key.includes(`:${JO.email}`);
    expect(after.loginAttempts).toEqual(before.loginAttempts.filter((r: { key: string }) => notJo(r.key)));
    expect(after.loginAttempts.filter((r: { key: string }) => r.key.includes(BJO.email)).length).toBeGreaterThanOrEqual(
      2,
    );
    expect(after.idempotencyKeys).toEqual(
      before.idempotencyKeys.filter((r: { key: string }) => r.key !== `exact-${JO.email}`),
    );
    expect(after.homeTokens.filter((t: { email: string }) => t.email !== JO.email)).toEqual(
      before.homeTokens.filter((t: { email: string }) => t.email !== JO.email),
    );
    expect(await ctx.db("properties").where({ address: BJO.address }).first()).toBeTruthy();
  });
});
