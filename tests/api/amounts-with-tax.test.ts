// What a homeowner is asked for or told of is said whole, with her home's tax (docs/decisions.md#63): the next
// charge on /my-home/plan and the billing link's page, the charges left before a cancellation, and an upgrade's
// prorated charge before she confirms it, which is the invoice then charged, with the demo provider and with Stripe
// (the real SDK against the stand-in, its invoice preview).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StripeTaxRates, createStripeClient } from "../../src/modules/payments/index.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { STAND_IN_KEYS, type StripeStandIn } from "../support/stripe-stand-in.js";
import { closeStripeSite, openStripeSite, postStripeEvent } from "../support/subscriptions.js";

const ON_STANDARD = "$418.10 CAD ($370.00 + HST $48.10)";
const upgradeInvoice = (ctx: TestContext, id: number) =>
  ctx.db("invoices").where({ subscription_id: id, billing_reason: "subscription_update" }).first();

describe("with the demo provider, an Ottawa home on Standard", () => {
  let ctx: TestContext;
  let id: number;
  const email = "ottawa.owner@example.com";
  beforeAll(async () => {
    ctx = await createTestContext({});
    await ctx.container.plans.seed();
    const owner = await ctx.container.customers.createWithProperty(
      { email, name: "Olive Owner", phone: "613-555-0101", subscriptionPlan: "free-score" },
      {
        address: "12 Elm Street",
        city: "Ottawa",
        province: "ON",
        postalCode: "K1S 2B4",
        squareFootage: 1800,
        yearBuilt: 1990,
      },
    );
    const sub = await ctx.container.subscriptions.startDemo({
      checkoutRef: "cs_ottawa",
      planType: "standard",
      amountCents: 37000,
      payerEmail: email,
      payerName: "Olive Owner",
      cardNumber: "4242424242424242",
    });
    await ctx.container.transaction((tx) =>
      ctx.container.subscriptions.attachToProperty(
        "cs_ottawa",
        { customerId: owner.customer.id, propertyId: owner.property.id },
        tx,
      ),
    );
    id = sub.id;
  });
  afterAll(() => ctx.close());

  it("the next charge, on My Home and on the billing link's page, and the charges left before a cancellation", async () => {
    const home = await signInHome(ctx, email);
    const plan = (await home.get("/my-home/plan").expect(200)).text;
    expect(/data-testid="plan-next-charge">([^<]*)/.exec(plan)![1]).toContain(`, ${ON_STANDARD}`);
    expect(/data-testid="plan-name">([^<]*)/.exec(plan)![1]).toBe(`Haven Standard, ${ON_STANDARD} a month`);
    expect(plan).toContain("$902.87 CAD ($799.00 + HST $103.87) a month");
    const token = ctx.container.subscriptions.billingLink(id).split("/billing/")[1]!;
    const billing = (await ctx.agent().get(`/billing/${token}`).expect(200)).text;
    expect(/data-testid="billing-next-charge">([^<]*)/.exec(billing)![1]).toContain(ON_STANDARD);
    const cancel = (await ctx.agent().get(`/billing/${token}/cancel`).expect(200)).text.replace(/\s+/g, " ");
    expect(cancel).toContain(`two more charges of ${ON_STANDARD} each`);
  });

  it("an upgrade prorated at an instant outside the current period is refused (400) and changes nothing", async () => {
    await expect(
      ctx.container.subscriptions.changePlan(id, {
        planType: "premium",
        actor: "customer",
        prorationDate: new Date("2001-01-01T00:00:00Z"),
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect((await ctx.container.subscriptions.get(id)).planType).toBe("standard");
    expect(await upgradeInvoice(ctx, id)).toBeUndefined();
  });

  it("an upgrade's prorated charge is shown with its tax before she confirms, and is the invoice then charged", async () => {
    const home = await signInHome(ctx, email);
    const page = (await home.get(`/my-home/plan/${id}/change?plan=premium`).expect(200)).text;
    const shown = /data-testid="upgrade-charge">Today you pay <strong>([^<]+)<\/strong>/.exec(page)![1]!;
    const [, total, subtotal, hst] = /^\$(\d+\.\d\d) CAD \(\$(\d+\.\d\d) \+ HST \$(\d+\.\d\d)\)$/.exec(shown)!;
    expect(Number(subtotal) + Number(hst)).toBeCloseTo(Number(total), 2);
    expect(page).toContain("Your next monthly charge");
    expect(page).toContain("$902.87 CAD ($799.00 + HST $103.87)");
    const prorationDate = /name="prorationDate" value="([^"]+)"/.exec(page)![1]!;
    await home.post(`/my-home/plan/${id}/change`).type("form").send({ planType: "premium", prorationDate }).expect(303);
    const charged = await upgradeInvoice(ctx, id);
    expect(charged).toMatchObject({ status: "paid", amount_cents: Math.round(Number(total) * 100) });
    expect(charged.subtotal_cents).toBe(Math.round(Number(subtotal) * 100));
  });
});

describe("with Stripe (the real SDK against the stand-in): an Ontario home bought at /checkout", () => {
  const site: { ctx?: TestContext; stripe?: StripeStandIn } = {};
  const t0 = new Date("2026-03-02T15:00:00Z");
  beforeAll(async () => {
    Object.assign(site, await openStripeSite());
  });
  afterAll(() => closeStripeSite(site));

  it("the invoice preview, at the instant the page showed it, is the upgrade invoice then charged", async () => {
    const { ctx, stripe } = site as { ctx: TestContext; stripe: StripeStandIn };
    stripe.clock = () => t0.getTime();
    const client = createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, stripe.url);
    const standard = await ctx.container.plans.get("standard");
    const price = await ctx.container.stripe!.billing.priceFor(standard, standard.checkoutPrice * 100);
    const customer = await client.customers.create({ email: "stripe.owner@example.com", name: "Pat Payer" });
    stripe.updateCustomerCard(customer.id);
    const created = await client.subscriptions.create({
      customer: customer.id,
      items: [{ price }],
      default_tax_rates: await new StripeTaxRates(client).idsFor("ON", "2026-03-02"),
      metadata: { plan: "standard", price_list: "checkout", postal_code: "K1N 5W8" },
    });
    await postStripeEvent(ctx, "customer.subscription.created", stripe.subscription(created.id)).expect(200);
    const id = (await ctx.db("subscriptions").where({ provider_subscription_id: created.id }).first()).id as number;

    const shownAt = new Date(t0.getTime() + 9 * 86_400_000 + 123_456);
    const preview = (await ctx.container.subscriptions.amounts.previewUpgrade(id, "premium", shownAt))!;
    expect(preview.taxLines.map((l) => l.label)).toEqual(["HST 13%"]);
    expect(preview.totalCents).toBe(preview.subtotalCents + preview.taxLines[0]!.amountCents);
    // She reads it for a minute and a half; Stripe prorates at the instant shown, not at her click.
    const confirmedAt = new Date(shownAt.getTime() + 90_000);
    stripe.clock = () => confirmedAt.getTime();
    await ctx.container.subscriptions.changePlan(
      id,
      { planType: "premium", actor: "customer", prorationDate: new Date(preview.prorationDate) },
      confirmedAt,
    );
    const update = stripe.requests.find((r) => r.path === `/v1/subscriptions/${created.id}` && r.form.proration_date);
    expect(Number(update!.form.proration_date)).toBe(Math.floor(shownAt.getTime() / 1000));
    const charged = await upgradeInvoice(ctx, id);
    expect(charged).toMatchObject({ status: "paid", amount_cents: preview.totalCents });
    expect(charged.subtotal_cents).toBe(preview.subtotalCents);
  });
});
