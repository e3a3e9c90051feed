// data kept only as long as needed (the daily purge), and given back when asked (`haven customers
// export` and `erase`). Two customers go through every flow that keeps their data; demo homes sit around them.
import { randomBytes } from "node:crypto";
import { parseCrontab } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../seeds/demo/index.js";
import { addDays, todayIn } from "../../src/shared/business-time.js";
import { PRIVACY_CRONTAB, PRIVACY_PURGE_TASK } from "../../src/modules/privacy/index.js";
import { runHavenHere } from "../support/cli.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { runJobs } from "./sharing-fixtures.js";
import { completedInspection, photo } from "./reports-fixtures.js";

let ctx: TestContext;
const NOW = new Date();
const ORIGIN = "https://haven.example";
// Each run of the real bin starts tsx: slow on a busy machine.
const CLI_TIMEOUT = 240_000;

interface Person {
  name: string;
  email: string;
  phone: string;
  address: string;
}

const tag = () => randomBytes(3).toString("hex");
const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join("");
const alice: Person = {
  name: "Zebulon Quaxley",
  email: `Zeb.Quaxley.${tag()}@Example.org`,
  phone: `819-${digits(3)}-${digits(4)}`,
  address: "4471 Marigold Crescent",
};
const bob: Person = {
  name: "Ottoline Brackenbury",
  email: `ottoline.${tag()}@example.net`,
  phone: `873-${digits(3)}-${digits(4)}`,
  address: "88 Juniper Hollow Lane",
};
const strings = (p: Person) => [p.name, p.email, p.phone, p.address];

/** One customer through every flow that keeps personal data: payment, intake, booking, inspection, report, share, answers, quote, schedule, reminders. */
async function customerJourney(p: Person) {
  const c = ctx.container;
  const today = todayIn(ctx.env.BUSINESS_TZ, NOW);
  const tomorrow = addDays(today, 1);
  await c.payments.importDemoPayments(
    [
      {
        providerId: `demo_pi_privacy_${tag()}`,
        planType: "standard",
        customerEmail: p.email,
        customerName: p.name,
        createdAt: NOW,
      },
    ],
    ctx.db,
  );
  const { customer, property } = await c.customers.createWithProperty(
    { email: p.email, name: p.name, phone: p.phone, subscriptionPlan: "standard" },
    { address: p.address, city: "Ottawa", province: "ON", postalCode: "K1N 5T5", notes: `Gate code for ${p.name}` },
  );
  // A monthly plan billed to them: the subscription keeps the payer's name and e-mail.
  const checkoutRef = `demo_pi_privacy_sub_${tag()}`;
  await c.subscriptions.startDemo(
    {
      checkoutRef,
      planType: "standard",
      amountCents: 37000,
      payerEmail: p.email,
      payerName: p.name,
      cardNumber: "4242424242424242",
    },
    NOW,
  );
  await c.transaction((tx) =>
    c.subscriptions.attachToProperty(checkoutRef, { customerId: customer.id, propertyId: property.id }, tx, NOW),
  );
  // "I never got the receipt": the office sent it again, to their e-mail.
  const [receipt] = await ctx
    .db("invoices as i")
    .join("subscriptions as s", "s.id", "i.subscription_id")
    .where("s.payer_email", p.email)
    .pluck("i.id");
  await c.invoiceSide.invoices.resendReceipt(receipt, { key: `privacy-${tag()}`, actor: "office@haven.test" });
  const photos = [await photo(c, Number.parseInt(tag(), 16) % 1000)];
  const { inspectionId } = await completedInspection(
    c,
    [
      {
        categoryName: "Plumbing",
        subcategoryName: "Hot Water System",
        score: 1,
        notes: `${p.name} says the tank leaks`,
        photoIds: photos,
      },
      { categoryName: "Roof", subcategoryName: "Gutters", score: 4, notes: "Gutters clogged" },
    ],
    { propertyId: property.id, inspectionDate: today },
  );
  const report = await c.reports.generate(inspectionId);
  const { reportLink } = await c.sharing.share(report.id, p.email, ORIGIN);
  const token = reportLink.split("/client-report/")[1]!;
  const taskIds = (report.reportData.recommendations as { id: number }[]).map((r) => r.id);
  const client = ctx.agent();
  await client.get(`/api/client-report/${token}`).expect(200);
  await client
    .post(`/api/client-report/${token}/responses`)
    .send({
      responses: taskIds.map((id) => ({
        maintenanceTaskId: id,
        action: "request_quote",
        notes: `Text me at ${p.phone}`,
      })),
    })
    .expect(201);
  const quote = await ctx.db("quote_requests").where({ property_id: property.id }).orderBy("id").first();
  await c.quotes.update(quote.id, { status: "quoted", quotedAmount: "$250" });
  await c.quotes.generateQuoteReport(property.id, ORIGIN);
  // Accepted on the customer's behalf: its invoice and the e-mail with its pay link (docs/decisions.md#43).
  await c.quotes.update(quote.id, { status: "accepted" });
  // Booked after the inspection (which would otherwise take the booking up): tomorrow's visit stays scheduled.
  await c.transaction((tx) =>
    c.bookings.book(
      tx,
      {
        propertyId: property.id,
        customerId: customer.id,
        scheduledDate: tomorrow,
        timeSlot: "morning",
        accessMethod: "lockbox",
        accessCode: "4821",
        accessInstructions: `Call ${p.phone} on arrival`,
        source: "booking-page",
      },
      { email: p.email, name: p.name },
    ),
  );
  await c.maintenance.createSchedule({ fromTaskId: taskIds[1]!, recurrenceType: "annually", startDate: tomorrow }, NOW);
  // Tomorrow's booking and task: their reminders are claimed (with the e-mail) and queued now.
  await c.maintenance.sendReminders(NOW);
  // A staff login tried with their address, and a remembered submission that answered with their data.
  await ctx.agent().post("/api/auth/login").send({ email: p.email, password: "not their password" }).expect(401);
  await c.idempotency.run(
    "privacy-test",
    { key: `privacy-${tag()}`, payload: { email: p.email }, viewer: null },
    async () => ({ customer: { name: p.name, email: p.email } }),
  );
  return { customerId: customer.id, propertyId: property.id, reportId: report.id };
}

/** Every place a string appears, case-blind: each text, JSON and array column of every table Haven and its queue use. */
async function tracesOf(needles: string[]): Promise<string[]> {
  const { rows: columns } = await ctx.db.raw(
    `select c.table_schema, c.table_name, c.column_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema in ('public', 'graphile_worker') and c.data_type in ('text', 'character varying', 'json', 'jsonb', 'ARRAY')`,
  );
  const hits: string[] = [];
  for (const { table_schema: schema, table_name: table, column_name: column } of columns as Record<string, string>[]) {
    for (const needle of needles) {
      const { rows } = await ctx.db.raw(
        `select count(*)::int as n from "${schema}"."${table}" where position(lower(?) in lower("${column}"::text)) > 0`,
        [needle],
      );
      if (rows[0].n > 0) hits.push(`${schema}.${table}.${column} holds ${needle}`);
    }
  }
  return hits;
}

const haven = (args: string[]) => runHavenHere(ctx.url, args);

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: ORIGIN });
  await seedDemo(ctx.container, { properties: 6, now: NOW });
  await customerJourney(alice);
  await customerJourney(bob);
}, 240_000);
afterAll(() => ctx?.close());

describe("haven customers export", () => {
  it(
    "prints every record of the customer, and nothing of another",
    async () => {
      const r = await haven(["customers", "export", "--email", alice.email.toUpperCase()]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const data = JSON.parse(r.stdout);
      expect(data.email).toBe(alice.email.toLowerCase());
      expect(data.customers).toHaveLength(1);
      expect(data.customers[0]).toMatchObject({ name: alice.name, email: alice.email, phone: alice.phone });
      expect(data.properties).toHaveLength(1);
      expect(data.properties[0]).toMatchObject({ address: alice.address, client_name: alice.name });
      expect(data.bookings).toHaveLength(1);
      expect(data.inspections).toHaveLength(1);
      expect(data.inspections[0].entries.length).toBeGreaterThanOrEqual(2);
      expect(data.inspections[0].photos).toHaveLength(1);
      expect(data.reports).toHaveLength(1);
      expect(data.reports[0].report_data.property.clientName).toBe(alice.name);
      expect(data.shares.reportShares).toHaveLength(1);
      expect(data.shares.clientResponses.length).toBeGreaterThanOrEqual(2);
      // The quote page of the quote-ready e-mail (docs/decisions.md#42) and the quote report.
      expect(data.shares.quoteReportLinks).toHaveLength(2);
      expect(data.quotes.length).toBeGreaterThanOrEqual(2);
      // The accepted quote's invoice, without its pay link's hash.
      const quoteInvoices = data.quotes.flatMap((q: { invoices: Record<string, unknown>[] }) => q.invoices);
      expect(quoteInvoices).toHaveLength(1);
      expect(quoteInvoices[0]).toMatchObject({ status: "open", amount_cents: 28250 });
      expect(quoteInvoices[0]).not.toHaveProperty("pay_token_hash");
      expect(data.tasks.tasks.length).toBeGreaterThanOrEqual(3);
      // Staff's own schedule, and the Standard plan's seven services.
      expect(
        data.tasks.schedules.filter((s: { subscription_id: number | null }) => s.subscription_id === null),
      ).toHaveLength(1);
      expect(
        data.tasks.schedules.filter((s: { subscription_id: number | null }) => s.subscription_id !== null),
      ).toHaveLength(7);
      expect(data.payments).toHaveLength(1);
      expect(data.payments[0]).toMatchObject({ customer_name: alice.name, status: "succeeded" });
      expect(data.subscriptions).toHaveLength(1);
      expect(data.subscriptions[0]).toMatchObject({ payer_name: alice.name, plan_type: "standard", status: "active" });
      expect(data.subscriptions[0].invoices).toHaveLength(1);
      // Tomorrow's booking and scheduled task: two reminders; the confirmation, link and reminder mails still queued.
      expect(data.emails.reminders).toHaveLength(2);
      expect(data.emails.queued.length).toBeGreaterThanOrEqual(4);

      // Nothing of the other customer, nor of any demo home.
      const text = r.stdout.toLowerCase();
      for (const s of strings(bob)) expect(text).not.toContain(s.toLowerCase());
      const demoEmails = (await ctx.db("customers").whereRaw("email like '%@example.com'").pluck("email")) as string[];
      expect(demoEmails.length).toBeGreaterThan(0);
      for (const email of demoEmails) expect(text).not.toContain(email.toLowerCase());
    },
    CLI_TIMEOUT,
  );

  it(
    "an unknown e-mail is an empty export; a malformed one is a one-line error",
    async () => {
      const empty = await haven(["customers", "export", "--email", "nobody@example.org"]);
      expect(empty.code).toBe(0);
      expect(JSON.parse(empty.stdout)).toMatchObject({ customers: [], properties: [], payments: [] });
      const bad = await haven(["customers", "export", "--email", "not-an-email"]);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain("--email");
    },
    CLI_TIMEOUT,
  );
});

describe("haven customers erase", () => {
  it(
    "refuses without --yes and changes nothing",
    async () => {
      const r = await haven(["customers", "erase", "--email", alice.email]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `haven: erasing ${alice.email.toLowerCase()} cannot be undone: add --yes to go ahead`,
      );
      expect(await ctx.db("customers").whereRaw("lower(email) = ?", [alice.email.toLowerCase()]).first()).toBeTruthy();
    },
    CLI_TIMEOUT,
  );

  it(
    "leaves no trace of the name, e-mail, phone or address in any table, and the revenue unchanged",
    async () => {
      expect((await tracesOf(strings(alice))).length).toBeGreaterThan(10);
      const revenueBefore = (await ctx.container.dashboard.stats()).totalRevenue;
      const paymentsBefore = await ctx
        .db("payments")
        .orderBy("id")
        .select("id", "amount_cents", "status", "created_at");
      const bobBefore = await ctx.container.privacy.exportCustomer(bob.email);

      const r = await haven(["customers", "erase", "--email", alice.email, "--yes"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Erased ${alice.email.toLowerCase()}`);
      for (const table of [
        "customers",
        "properties",
        "reports",
        "payments",
        "subscriptions",
        "report_shares",
        "maintenance_reminders",
      ])
        expect(r.stdout).toMatch(new RegExp(`${table}: \\d+ row`));

      expect(await tracesOf(strings(alice))).toEqual([]);
      expect((await ctx.container.dashboard.stats()).totalRevenue).toBe(revenueBefore);
      expect(await ctx.db("payments").orderBy("id").select("id", "amount_cents", "status", "created_at")).toEqual(
        paymentsBefore,
      );

      // The report stays for staff, without the name; the links stop working.
      const customer = await ctx.db("customers").whereRaw("name like 'Erased customer #%'").first();
      expect(customer).toMatchObject({ email: `erased-${customer.id}@invalid`, phone: null });
      const property = await ctx.db("properties").where({ customer_id: customer.id }).first();
      const report = await ctx.container.reports.get(
        (await ctx.db("reports").where({ property_id: property.id }).first()).id,
      );
      expect(report.reportData.property).toMatchObject({
        clientName: `Erased customer #${customer.id}`,
        address: "Erased",
      });
      expect(report.reportData.recommendations.length).toBeGreaterThan(0);
      expect(await ctx.db("report_shares").where({ report_id: report.id, revoked: false }).first()).toBeUndefined();

      // The other customer is untouched.
      const bobAfter = await ctx.container.privacy.exportCustomer(bob.email, new Date(bobBefore.exportedAt));
      expect(bobAfter).toEqual(bobBefore);
      expect((await tracesOf([bob.email])).length).toBeGreaterThan(5);

      // A second erase finds nothing left.
      const again = await haven(["customers", "erase", "--email", alice.email, "--yes"]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain("nothing changed");
    },
    CLI_TIMEOUT * 2,
  );
});

describe("the daily purge", () => {
  it("is on the worker's crontab", () => {
    const [item] = parseCrontab(PRIVACY_CRONTAB);
    expect(item).toMatchObject({ task: PRIVACY_PURGE_TASK });
  });

  it("removes expired idempotency keys, login counters, and expired or revoked sessions; nothing live", async () => {
    const user = await ctx.container.users.create({
      email: `purge-${tag()}@haven.test`,
      password: "correct horse battery",
      firstName: "Pat",
      lastName: "Purge",
    });
    const hoursAgo = (h: number) => ctx.db.raw(`now() - interval '${h} hours'`);
    await ctx.db("idempotency_keys").insert([
      { scope: "purge", key: "old", request_hash: "x", response: "{}", created_at: hoursAgo(25) },
      { scope: "purge", key: "fresh", request_hash: "x", response: "{}", created_at: hoursAgo(23) },
    ]);
    await ctx.db("login_attempts").insert([
      {
        key: "email:purge-old@example.org",
        window_started_at: ctx.db.raw("now() - interval '16 minutes'"),
        attempts: 3,
      },
      { key: "ip:203.0.113.9", window_started_at: ctx.db.raw("now() - interval '16 minutes'"), attempts: 3 },
      {
        key: "email:purge-fresh@example.org",
        window_started_at: ctx.db.raw("now() - interval '5 minutes'"),
        attempts: 3,
      },
    ]);
    await ctx.db("staff_sessions").insert([
      { token_hash: `purge-expired-${tag()}`, staff_user_id: user.id, expires_at: hoursAgo(1) },
      {
        token_hash: `purge-revoked-${tag()}`,
        staff_user_id: user.id,
        expires_at: ctx.db.raw("now() + interval '1 day'"),
        revoked_at: hoursAgo(1),
      },
      { token_hash: `purge-live-${tag()}`, staff_user_id: user.id, expires_at: ctx.db.raw("now() + interval '1 day'") },
    ]);

    await ctx.db("staff_login_addresses").insert([
      { staff_user_id: user.id, address: "198.51.100.7", last_success_at: ctx.db.raw("now() - interval '91 days'") },
      { staff_user_id: user.id, address: "198.51.100.8", last_success_at: ctx.db.raw("now() - interval '2 days'") },
    ]);

    // The worker's own task, run as the crontab would queue it.
    await ctx.db.raw("select graphile_worker.add_job(?)", [PRIVACY_PURGE_TASK]);
    await runJobs(ctx);
    expect(
      Number(
        (
          await ctx.db.raw("select count(*)::int as n from graphile_worker.jobs where task_identifier = ?", [
            PRIVACY_PURGE_TASK,
          ])
        ).rows[0].n,
      ),
    ).toBe(0);

    expect(await ctx.db("idempotency_keys").where({ scope: "purge" }).pluck("key")).toEqual(["fresh"]);
    expect(
      await ctx.db("idempotency_keys").where("created_at", "<", ctx.db.raw("now() - interval '24 hours'")).first(),
    ).toBeUndefined();
    expect(
      await ctx.db("login_attempts").whereLike("key", "%purge%").orWhere("key", "ip:203.0.113.9").pluck("key"),
    ).toEqual(["email:purge-fresh@example.org"]);
    expect(await ctx.db("staff_login_addresses").where({ staff_user_id: user.id }).pluck("address")).toEqual([
      "198.51.100.8",
    ]);
    const sessions = await ctx.db("staff_sessions").where({ staff_user_id: user.id }).pluck("token_hash");
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatch(/^purge-live-/);

    // Time is a parameter: a day later, the fresh key and the live session's neighbours age out too.
    const later = await ctx.container.privacy.purge(new Date(Date.now() + 2 * 86_400_000));
    expect(later.deleted.idempotency_keys).toBeGreaterThanOrEqual(1);
    expect(later.deleted.staff_sessions).toBeGreaterThanOrEqual(1);
    expect(await ctx.db("idempotency_keys").where({ scope: "purge" }).first()).toBeUndefined();
  });
});
