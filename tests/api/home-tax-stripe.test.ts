import { Logger, runOnce } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskList } from "../../src/jobs.js";
import { StripeTaxRates, createStripeClient } from "../../src/modules/payments/index.js";
import { HOME_MOVED_TASK, HOME_TAX_TASK, homeTaxRatesTask } from "../../src/modules/subscriptions/home-tax.tasks.js";
import { CUSTOMER_LOCALE_TASK } from "../../src/modules/subscriptions/stripe-locale.tasks.js";
import { type TestContext, signInStaff } from "../support/context.js";
import { queuedMails } from "../support/jobs.js";
import { STAND_IN_KEYS, type StripeStandIn } from "../support/stripe-stand-in.js";
import { moneyOf } from "../support/stripe-stand-in-money.js";
import { postStripeEvent, closeStripeSite, openStripeSite } from "../support/subscriptions.js";

// docs/decisions.md#57 with Stripe (the real SDK against the stand-in): the home entered at intake decides the tax of
// Stripe's next invoices (the subscription's Tax Rates, on its item for /pricing's Checkout, its defaults for
// /checkout), and the first invoice's difference is settled once: the tax charged too much refunded at Stripe with a
// credit note naming those lines, the tax owed charged with a PaymentIntent on an invoice of its own, both e-mailed.

type Obj = Record<string, unknown>;
const deliver = (ctx: TestContext, type: string, object: Obj) => postStripeEvent(ctx, type, object).expect(200);
const lines = (rows: { label: string; amountCents: number }[]) => rows.map((l) => `${l.label} ${l.amountCents}`);

const runHomeJobs = (ctx: TestContext) => {
  const tasks = taskList(ctx.container);
  return runOnce({
    connectionString: ctx.url,
    taskList: {
      [HOME_TAX_TASK]: tasks[HOME_TAX_TASK]!,
      [HOME_MOVED_TASK]: tasks[HOME_MOVED_TASK]!,
      [CUSTOMER_LOCALE_TASK]: tasks[CUSTOMER_LOCALE_TASK]!,
    },
    logger: new Logger(() => () => undefined),
  });
};

describe("the tax follows the home (Stripe)", () => {
  let ctx: TestContext;
  let stripe: StripeStandIn;
  beforeAll(async () => {
    ({ ctx, stripe } = await openStripeSite());
  });
  afterAll(() => closeStripeSite({ ctx, stripe }));

  /** A /pricing Standard purchase ($370) through Stripe Checkout for `postalCode`, and intake of the home. */
  async function boughtAt(
    postalCode: string,
    email: string,
    home: { city: string; province: string; postalCode: string },
  ) {
    const { body } = await ctx
      .agent()
      .post("/api/create-checkout-session")
      .send({ planType: "standard", postalCode })
      .expect(200);
    const session = stripe.pay(body.url.split("/pay/")[1] as string, { email, name: "Pat Payer" });
    await deliver(ctx, "checkout.session.completed", session);
    const created = await ctx
      .agent()
      .post("/api/customers")
      .send({
        stripeSessionId: session.id,
        planType: "standard",
        email,
        name: "Pat Payer",
        phone: "613-555-0100",
        property: {
          address: "12 Elm Street",
          ...home,
          state: home.province,
          zipCode: home.postalCode,
          squareFootage: 1800,
          yearBuilt: 1990,
        },
      })
      .expect(201);
    const providerId = session.subscription as string;
    const local = await ctx.db("subscriptions").where({ provider_subscription_id: providerId }).first();
    return { providerId, local, propertyId: created.body.propertyId as number };
  }

  const itemRates = (providerId: string) =>
    ((stripe.subscription(providerId).items as { data: Obj[] }).data[0]!.tax_rates as Obj[]).map(
      (r) => `${r.display_name} ${r.percentage} ${r.state}`,
    );

  it("an Ottawa home bought with an Alberta postal code: Stripe bills HST from the next invoice; the GST refunded, the HST charged, once", async () => {
    const email = "stripe-ottawa@example.com";
    const { providerId, local } = await boughtAt("T2P 1J9", email, {
      city: "Ottawa",
      province: "ON",
      postalCode: "K1S 2B4",
    });
    const first = await ctx.db("invoices").where({ subscription_id: local.id }).first();
    expect(first).toMatchObject({ tax_cents: 1850, amount_cents: 38_850 });
    expect(itemRates(providerId)).toEqual(["GST 5 AB"]);

    await runHomeJobs(ctx);
    expect(itemRates(providerId)).toEqual(["HST 13 ON"]);
    expect((await ctx.db("subscriptions").where({ id: local.id }).first()).tax_province).toBe("ON");
    // The GST charged for Alberta refunded at Stripe, on a credit note naming it.
    const refunds = await ctx.db("refunds").where({ invoice_id: first.id });
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ provider: "stripe", amount_cents: 1850, tax_cents: 1850 });
    expect(lines(refunds[0].tax_lines)).toEqual(["GST 5% 1850"]);
    expect([...moneyOf(stripe).refunds.values()].map((r) => r.amount)).toEqual([1850]);
    // Ontario's HST charged at Stripe on an invoice of its own, paid by the PaymentIntent stored on it.
    const charge = await ctx
      .db("invoices")
      .where({ subscription_id: local.id, billing_reason: "tax_adjustment" })
      .first();
    expect(charge).toMatchObject({
      status: "paid",
      subtotal_cents: 0,
      tax_cents: 4810,
      amount_cents: 4810,
      tax_province: "ON",
    });
    expect(charge.number).toMatch(/^HAV-\d{4}-\d{6}$/);
    expect(lines(charge.tax_lines)).toEqual(["HST 13% 4810"]);
    expect(stripe.intents.get(charge.payment_intent_id)).toMatchObject({ status: "succeeded", amount: 4810 });
    const mails = (await queuedMails(ctx)).filter((m) => m.to === email).map((m) => m.subject);
    expect(mails).toEqual(expect.arrayContaining(["Your Haven receipt: $48.10 CAD", "Your Haven refund: $18.50 CAD"]));

    // Safe to repeat: the same job again refunds and charges nothing more.
    await ctx.container.invoiceSide.homeTax.follow(local.id, { settle: true });
    expect(moneyOf(stripe).refunds.size).toBe(1);
    expect([...stripe.intents.values()].filter((i) => i.amount === 4810)).toHaveLength(1);
    expect(await ctx.db("invoices").where({ subscription_id: local.id })).toHaveLength(2);

    // Stripe's next invoice carries Ontario's HST, and Haven stores it so.
    const { subscription, invoice } = stripe.advancePeriod(providerId);
    await deliver(ctx, "invoice.paid", invoice!);
    await deliver(ctx, "customer.subscription.updated", subscription);
    const renewal = await ctx.db("invoices").where({ provider_invoice_id: invoice!.id }).first();
    expect(renewal).toMatchObject({ tax_province: "ON", tax_cents: 4810, amount_cents: 41_810 });
    expect(lines(renewal.tax_lines)).toEqual(["HST 13% 4810"]);
  });

  it("a declined card leaves the charge of the tax owed open, with the card's message, and rings the bell once", async () => {
    const { providerId, local } = await boughtAt("T2P 1J9", "stripe-declined@example.com", {
      city: "Ottawa",
      province: "ON",
      postalCode: "K1S 2B4",
    });
    stripe.failingCards.add(stripe.subscription(providerId).default_payment_method as string);
    await runHomeJobs(ctx);
    await ctx.container.invoiceSide.homeTax.follow(local.id, { settle: true });
    const charge = await ctx
      .db("invoices")
      .where({ subscription_id: local.id, billing_reason: "tax_adjustment" })
      .first();
    expect(charge).toMatchObject({
      status: "open",
      tax_cents: 4810,
      attempt_count: 1,
      failure_reason: "Your card was declined.",
    });
    expect(
      await ctx
        .db("notifications")
        .where({ record_id: String(local.id) })
        .whereLike("text", "%could not be charged%"),
    ).toHaveLength(1);
    // The subscription itself still follows the home.
    expect(itemRates(providerId)).toEqual(["HST 13 ON"]);
  });

  it("staff move a home to Gatineau and the customer to French: Stripe's next invoice carries GST and QST, nothing billed is settled, Stripe's customer and the receipt are French", async () => {
    const { providerId, local, propertyId } = await boughtAt("K1S 2B4", "stripe-moved@example.com", {
      city: "Ottawa",
      province: "ON",
      postalCode: "K1S 2B4",
    });
    await runHomeJobs(ctx);
    expect(itemRates(providerId)).toEqual(["HST 13 ON"]);
    const staff = (await signInStaff(ctx)).agent;
    await staff
      .patch(`/api/properties/${propertyId}`)
      .send({ city: "Gatineau", province: "QC", postalCode: "J8X 2K1", locale: "fr-CA" })
      .expect(200);
    // Made by Checkout, Stripe's customer has no language of its own yet.
    expect(stripe.customers.get(local.provider_customer_id)!.preferred_locales).toEqual([]);
    await runHomeJobs(ctx);
    expect(itemRates(providerId)).toEqual(["GST 5 QC", "QST 9.975 QC"]);
    // docs/decisions.md#65: Stripe's e-mails and pages to this customer follow their language.
    expect(stripe.customers.get(local.provider_customer_id)!.preferred_locales).toEqual(["fr-CA"]);
    expect(await ctx.db("invoices").where({ subscription_id: local.id })).toHaveLength(1);
    const { invoice } = stripe.advancePeriod(providerId);
    await deliver(ctx, "invoice.paid", invoice!);
    const renewal = await ctx.db("invoices").where({ provider_invoice_id: invoice!.id }).first();
    expect(renewal.tax_province).toBe("QC");
    expect(lines(renewal.tax_lines)).toEqual(["GST 5% 1850", "QST 9.975% 3691"]);
    // The Quebec receipt in French, with the TPS, the TVQ and both numbers (docs/decisions.md#68).
    const receipt = (await queuedMails(ctx)).find(
      (m) => m.to === "stripe-moved@example.com" && m.subject.startsWith("Votre reçu Haven"),
    );
    expect(receipt?.text.replace(/\u00a0/g, " ")).toContain("TVQ 9,975 % : 36,91 $ CA");
    expect(receipt?.text).toContain("/fr/billing/");
  });

  it("a rate that changes on its day reaches Stripe's next invoices: Nova Scotia's 15 % HST becomes 14 % on 1 April 2025", async () => {
    const { providerId } = await boughtAt("B3H 1A1", "stripe-halifax@example.com", {
      city: "Halifax",
      province: "NS",
      postalCode: "B3H 1A1",
    });
    await runHomeJobs(ctx);
    // As a plan bought before the change carries it: the 15 % rate of the day before.
    const client = createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, stripe.url);
    const [old] = await new StripeTaxRates(client).idsFor("NS", "2025-03-31");
    const item = (stripe.subscription(providerId).items as { data: Obj[] }).data[0]!;
    await client.subscriptions.update(providerId, { items: [{ id: item.id as string, tax_rates: [old!] }] });
    expect(itemRates(providerId)).toEqual(["HST 15 NS"]);
    const run = (at: string) =>
      homeTaxRatesTask(
        ctx.container.invoiceSide.homeTax,
        "America/Halifax",
        () => new Date(at),
      )({}, { logger: { info: () => undefined } } as never);
    // A day no rate changes: nothing is asked of Stripe.
    await run("2025-03-15T16:00:00Z");
    expect(itemRates(providerId)).toEqual(["HST 15 NS"]);
    await run("2025-04-01T16:00:00Z");
    expect(itemRates(providerId)).toEqual(["HST 14 NS"]);
  });
});
