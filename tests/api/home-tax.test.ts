import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { Logger, runOnce } from "graphile-worker";
import { taskList } from "../../src/jobs.js";
import { HOME_MOVED_TASK, HOME_TAX_TASK } from "../../src/modules/subscriptions/home-tax.tasks.js";
import { queuedMails } from "../support/jobs.js";

// docs/decisions.md#57: the tax follows the home. The home entered at intake decides the province from the next
// invoice, and the first invoice's difference is settled once (a charge of its own for the tax owed, a credit note for
// the tax charged too much), each e-mailed; a staff address change moves the next invoices' tax. Demo provider.

const intake = (sessionId: string, email: string, home: { city: string; province: string; postalCode: string }) => ({
  stripeSessionId: sessionId,
  planType: "standard",
  email,
  name: "Hana Home",
  phone: "613-555-0100",
  property: {
    address: "12 Elm Street",
    city: home.city,
    state: home.province,
    zipCode: home.postalCode,
    squareFootage: 1800,
    yearBuilt: 1990,
  },
});

/** A /checkout Standard purchase ($412) paid with the demo card, for `postalCode` (or none): its PaymentIntent id. */
async function checkout(ctx: TestContext, email: string, postalCode?: string, browser = ctx.agent()): Promise<string> {
  const { body } = await browser
    .post("/api/create-payment-intent")
    .send({ amount: 412, plan: "standard", email, name: "Hana Home", ...(postalCode ? { postalCode } : {}) })
    .expect(200);
  await browser
    .post("/api/demo/confirm-payment")
    .send({
      name: "Hana Home",
      email,
      cardNumber: "4242424242424242",
      expiry: "12 / 39",
      cvc: "123",
      clientSecret: body.clientSecret,
    })
    .expect(200);
  return String(body.clientSecret).split("_secret_")[0]!;
}

/** The jobs intake and a staff edit queue, run as the worker would; the e-mails they queue stay queued to be read. */
const runJobs = (ctx: TestContext) => {
  const tasks = taskList(ctx.container);
  return runOnce({
    connectionString: ctx.url,
    taskList: { [HOME_TAX_TASK]: tasks[HOME_TAX_TASK]!, [HOME_MOVED_TASK]: tasks[HOME_MOVED_TASK]! },
    logger: new Logger(() => () => undefined),
  });
};

const lines = (rows: { label: string; amountCents: number }[]) => rows.map((l) => `${l.label} ${l.amountCents}`);

describe("the tax follows the home (demo provider)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.container.plans.seed();
  });
  afterAll(() => ctx?.close());

  it("an Ottawa home bought with an Alberta postal code: HST from the next invoice, the first's GST credited and its HST charged, once", async () => {
    const email = "ottawa-alberta@example.com";
    const ref = await checkout(ctx, email, "T2P 1J9");
    const sub = await ctx.db("subscriptions").where({ checkout_ref: ref }).first();
    expect(sub).toMatchObject({ tax_province: "AB" });
    const [first] = await ctx.db("invoices").where({ subscription_id: sub.id });
    expect(first).toMatchObject({ tax_province: "AB", tax_cents: 2060, amount_cents: 43_260 });

    await ctx
      .agent()
      .post("/api/customers")
      .send(intake(ref, email, { city: "Ottawa", province: "ON", postalCode: "K1S 2B4" }))
      .expect(201);
    await runJobs(ctx);

    expect(await ctx.db("subscriptions").where({ id: sub.id }).first()).toMatchObject({
      tax_province: "ON",
      tax_postal_code: "K1S 2B4",
    });
    // The GST charged for Alberta goes back on a credit note of the first invoice…
    const refunds = await ctx.db("refunds").where({ invoice_id: first.id });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount_cents: 2060, tax_cents: 2060 });
    expect(refunds[0].number).toMatch(/^HAV-CN-\d{4}-\d{6}$/);
    expect(lines(refunds[0].tax_lines)).toEqual(["GST 5% 2060"]);
    // …and Ontario's HST is charged on an invoice of its own, numbered, paid, with its tax line.
    const charges = await ctx.db("invoices").where({ subscription_id: sub.id, billing_reason: "tax_adjustment" });
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      status: "paid",
      subtotal_cents: 0,
      tax_cents: 5356,
      amount_cents: 5356,
      tax_province: "ON",
    });
    expect(charges[0].number).toMatch(/^HAV-\d{4}-\d{6}$/);
    expect(lines(charges[0].tax_lines)).toEqual(["HST 13% 5356"]);
    // Both e-mailed to the customer.
    const mails = (await queuedMails(ctx)).filter((m) => m.to === email);
    expect(mails.find((m) => m.subject === "Your Haven receipt: $53.56 CAD")?.text).toContain("your home is in ON");
    expect(mails.some((m) => m.subject === "Your Haven refund: $20.60 CAD")).toBe(true);

    // Safe to repeat: following again settles nothing more.
    await ctx.container.invoiceSide.homeTax.follow(sub.id, { settle: true });
    expect(await ctx.db("refunds").where({ invoice_id: first.id })).toHaveLength(1);
    expect(await ctx.db("invoices").where({ subscription_id: sub.id })).toHaveLength(2);

    // The next month's renewal is taxed with Ontario's HST.
    await ctx.container.subscriptions.renewDue(new Date(new Date(first.period_end).getTime() + 3_600_000));
    const renewal = await ctx
      .db("invoices")
      .where({ subscription_id: sub.id, billing_reason: "subscription_cycle" })
      .first();
    expect(renewal).toMatchObject({ tax_province: "ON", tax_cents: 5356, amount_cents: 46_556 });
  });

  it("a Gatineau home bought with no postal code: GST and QST, never 'QC HST 13%', and the first's HST settled", async () => {
    const email = "gatineau@example.com";
    const ref = await checkout(ctx, email);
    const sub = await ctx.db("subscriptions").where({ checkout_ref: ref }).first();
    const [first] = await ctx.db("invoices").where({ subscription_id: sub.id });
    expect(first).toMatchObject({ tax_province: "ON", tax_cents: 5356 });
    await ctx
      .agent()
      .post("/api/customers")
      .send(intake(ref, email, { city: "Gatineau", province: "QC", postalCode: "J8X 2K1" }))
      .expect(201);
    await runJobs(ctx);
    expect(lines((await ctx.db("refunds").where({ invoice_id: first.id }).first()).tax_lines)).toEqual([
      "HST 13% 5356",
    ]);
    const charge = await ctx
      .db("invoices")
      .where({ subscription_id: sub.id, billing_reason: "tax_adjustment" })
      .first();
    expect(lines(charge.tax_lines)).toEqual(["GST 5% 2060", "QST 9.975% 4110"]);
    await ctx.container.subscriptions.renewDue(new Date(new Date(first.period_end).getTime() + 3_600_000));
    const renewal = await ctx
      .db("invoices")
      .where({ subscription_id: sub.id, billing_reason: "subscription_cycle" })
      .first();
    expect(renewal.tax_province).toBe("QC");
    expect(lines(renewal.tax_lines)).toEqual(["GST 5% 2060", "QST 9.975% 4110"]);
    // Wherever its plan is shown, a Quebec invoice carries no HST.
    const staff = (await signInStaff(ctx)).agent;
    const { body } = await staff.get(`/api/subscriptions/${sub.id}`).expect(200);
    const quebec = (body.invoices as { taxProvince: string; taxLines: { label: string }[] }[]).filter(
      (i) => i.taxProvince === "QC",
    );
    expect(quebec.length).toBe(2);
    expect(quebec.flatMap((i) => i.taxLines.map((l) => l.label)).some((l) => l.startsWith("HST"))).toBe(false);
  });

  it("staff move a home to Montreal: its next invoice is taxed there, and nothing already billed is settled", async () => {
    const email = "moved@example.com";
    const ref = await checkout(ctx, email, "K1S 2B4");
    const created = await ctx
      .agent()
      .post("/api/customers")
      .send(intake(ref, email, { city: "Ottawa", province: "ON", postalCode: "K1S 2B4" }))
      .expect(201);
    await runJobs(ctx);
    const sub = await ctx.db("subscriptions").where({ checkout_ref: ref }).first();
    expect(sub.tax_province).toBe("ON");
    const staff = (await signInStaff(ctx)).agent;
    await staff
      .patch(`/api/properties/${created.body.propertyId}`)
      .send({ city: "Montreal", province: "QC", postalCode: "H2X 1Y4" })
      .expect(200);
    await runJobs(ctx);
    expect((await ctx.db("subscriptions").where({ id: sub.id }).first()).tax_province).toBe("QC");
    expect(await ctx.db("invoices").where({ subscription_id: sub.id })).toHaveLength(1);
    expect(
      await ctx.db("refunds").whereIn("invoice_id", ctx.db("invoices").select("id").where({ subscription_id: sub.id })),
    ).toHaveLength(0);
    const first = await ctx.db("invoices").where({ subscription_id: sub.id }).first();
    await ctx.container.subscriptions.renewDue(new Date(new Date(first.period_end).getTime() + 3_600_000));
    const renewal = await ctx
      .db("invoices")
      .where({ subscription_id: sub.id, billing_reason: "subscription_cycle" })
      .first();
    expect(lines(renewal.tax_lines)).toEqual(["GST 5% 2060", "QST 9.975% 4110"]);
  });

  it("a Gatineau home at /checkout is quoted $412.00 + GST $20.60 + QST $41.10 = $473.70 before paying", async () => {
    const { body } = await ctx.agent().get("/api/checkout/quote?plan=standard&postalCode=J8X 2K1").expect(200);
    expect(body).toMatchObject({
      province: "QC",
      subtotalCents: 41_200,
      lines: [
        { label: "GST 5%", amountCents: 2060 },
        { label: "QST 9.975%", amountCents: 4110 },
      ],
      totalCents: 47_370,
    });
  });

  it("/checkout prefills the postal code of the home this browser already entered; another browser's is blank", async () => {
    const browser = ctx.agent();
    const email = "prefill@example.com";
    const ref = await checkout(ctx, email, undefined, browser);
    await browser
      .post("/api/customers")
      .send(intake(ref, email, { city: "Gatineau", province: "QC", postalCode: "J8X 2K1" }))
      .expect(201);
    expect((await browser.get("/checkout?plan=premium").expect(200)).text).toContain("J8X 2K1");
    expect((await ctx.agent().get("/checkout?plan=premium").expect(200)).text).not.toContain("J8X 2K1");
  });
});
