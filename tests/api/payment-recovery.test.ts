// A failed payment the office can act on (docs/decisions.md#62), with the demo provider and with Stripe (the real SDK
// against the stand-in): "Retry the payment now" pays the open invoice as a webhook would store it, or answers the
// card's decline (402) and changes nothing but an audit event; a double click is one charge; a plan not past due is a
// 409. "Send a card-update link" e-mails the billing link once per click.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { queuedMails } from "../support/jobs.js";
import { signBillingToken } from "../../src/modules/subscriptions/index.js";
import { translator } from "../../src/i18n/index.js";
import type { StripeStandIn } from "../support/stripe-stand-in.js";
import {
  closeStripeSite,
  demoPurchase,
  openStripeSite,
  postStripeEvent,
  stripeSubscription,
} from "../support/subscriptions.js";

type Obj = Record<string, unknown>;
const t0 = new Date("2026-03-02T15:00:00Z");

const audits = (ctx: TestContext, id: number, action: string) =>
  ctx
    .db("audit_events")
    .where({ record_type: "subscription", record_id: String(id), action })
    .orderBy("id");
const mailsTo = async (ctx: TestContext, to: string) => (await queuedMails(ctx)).filter((m) => m.to === to);

describe("with the demo provider", () => {
  let ctx: TestContext;
  let agent: Awaited<ReturnType<typeof signInStaff>>["agent"];
  /** A /checkout Standard plan on card 0341: its first renewal declined, so past due with an open invoice. */
  const pastDue = async (email: string) => {
    const sub = await demoPurchase(ctx, email.split("@")[0]!, "K1N 5W8", t0.toISOString(), "4000000000000341");
    await ctx.container.subscriptions.renewDue(new Date(sub.currentPeriodEnd));
    expect((await ctx.container.subscriptions.get(sub.id)).status).toBe("past_due");
    return sub.id;
  };
  beforeAll(async () => {
    ctx = await createTestContext({});
    await ctx.container.plans.seed();
    ({ agent } = await signInStaff(ctx));
  });
  afterAll(() => ctx.close());

  it("a card that declines renewals declines the retry: 402 with its message, nothing changed but an audit event", async () => {
    const id = await pastDue("retry-declined@example.com");
    const before = await ctx.container.subscriptions.detail(id);
    const res = await agent.post(`/api/subscriptions/${id}/retry-payment`).expect(402);
    expect(res.body).toEqual({ message: "Your card was declined." });
    const after = await ctx.container.subscriptions.detail(id);
    expect(after.subscription).toEqual(before.subscription);
    expect(after.invoices).toEqual(before.invoices);
    expect(after.events).toEqual(before.events);
    expect((await audits(ctx, id, "subscription.retry_payment")).map((a) => a.after)).toEqual([
      { outcome: "declined", reason: "Your card was declined." },
    ]);
  });

  it("paid: the invoice is paid and the plan active, with the receipt; two clicks with one key are one charge", async () => {
    const id = await pastDue("retry-paid@example.com");
    // The bank's decline lifted: the same card now pays.
    await ctx.db("subscriptions").where({ id }).update({ card_fails_renewals: false });
    const [a, b] = await Promise.all(
      [1, 2].map(() => agent.post(`/api/subscriptions/${id}/retry-payment`).set("Idempotency-Key", "click-1")),
    );
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect(a!.body).toEqual(b!.body);
    expect(a!.body).toMatchObject({ id, status: "active", lastPaymentError: null });
    const { invoices, events } = await ctx.container.subscriptions.detail(id);
    expect(invoices.filter((inv) => inv.status === "open")).toEqual([]);
    expect(events.filter((e) => e.kind === "payment_recovered")).toHaveLength(1);
    const receipts = (await mailsTo(ctx, "retry-paid@example.com")).filter((m) => /receipt/i.test(m.subject));
    // The first invoice's receipt, and the retried renewal's.
    expect(receipts).toHaveLength(2);
    expect(await audits(ctx, id, "subscription.retry_payment")).toHaveLength(1);
    // The same click once more, after it paid: its first answer, not "not past due".
    const repeat = await agent.post(`/api/subscriptions/${id}/retry-payment`).set("Idempotency-Key", "click-1");
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(a!.body);
    // Now active: nothing to retry.
    const again = await agent.post(`/api/subscriptions/${id}/retry-payment`).expect(409);
    expect(again.body).toMatchObject({ message: expect.stringMatching(/not past due/), subscription: { id } });
  });

  it("the card-update link is e-mailed once per click, with the billing link, and audited", async () => {
    const id = await pastDue("card-link@example.com");
    const sent = await Promise.all(
      [1, 2].map(() => agent.post(`/api/subscriptions/${id}/card-update-link`).set("Idempotency-Key", "link-1")),
    );
    for (const res of sent)
      expect(res.status === 200 && res.body).toEqual({ message: "Sent to the customer's e-mail" });
    const mails = (await mailsTo(ctx, "card-link@example.com")).filter((m) => m.subject.startsWith("Update the card"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toMatch(/\$\d+\.\d\d CAD is owed now/);
    expect(mails[0]!.text).toMatch(/\/billing\/\d+\.\d+\.[\w-]{43}\/card/);
    expect(await audits(ctx, id, "subscription.card_update_link")).toHaveLength(1);
    await agent.post(`/api/subscriptions/${id}/card-update-link`).expect(200);
    expect(await audits(ctx, id, "subscription.card_update_link")).toHaveLength(2);
  });

  it("the staff page offers both buttons on a past-due plan, and says what happened", async () => {
    const id = await pastDue("page@example.com");
    const page = await agent.get(`/admin/subscriptions/${id}`).expect(200);
    expect(page.text).toContain("Retry the payment now");
    expect(page.text).toContain("Send a card-update link");
    const declined = await agent.post(`/admin/subscriptions/${id}/retry-payment`).set("HX-Request", "true").send({});
    expect(declined.status).toBe(200);
    expect(declined.text).toMatch(/Declined<\/strong>\s*<span>Your card was declined\.<\/span>/);
    const linked = await agent.post(`/admin/subscriptions/${id}/card-update-link`).set("HX-Request", "true").send({});
    expect(linked.text).toContain("Sent to the customer&#39;s e-mail.");
  });
});

describe("with Stripe (the real SDK against the stand-in)", () => {
  const site: { ctx?: TestContext; stripe?: StripeStandIn } = {};
  let agent: Awaited<ReturnType<typeof signInStaff>>["agent"];
  /** A renewal declined at Stripe and told to Haven by its webhooks: past due, the invoice open; its ids. */
  const pastDue = async (email: string) => {
    const { ctx, stripe } = site as { ctx: TestContext; stripe: StripeStandIn };
    const id = await stripeSubscription(ctx, stripe, email, "standard");
    const providerId = (await ctx.db("subscriptions").where({ id }).first()).provider_subscription_id as string;
    const invoice = stripe.failRenewal(providerId);
    await postStripeEvent(ctx, "invoice.payment_failed", invoice).expect(200);
    await postStripeEvent(ctx, "customer.subscription.updated", stripe.subscription(providerId)).expect(200);
    expect((await ctx.container.subscriptions.get(id)).status).toBe("past_due");
    const card = stripe.subscription(providerId).default_payment_method as string | null;
    const customer = stripe.customers.get(stripe.subscription(providerId).customer as string)!;
    return {
      id,
      invoice: invoice.id as string,
      card: card ?? ((customer.invoice_settings as Obj).default_payment_method as string),
    };
  };
  beforeAll(async () => {
    Object.assign(site, await openStripeSite());
    ({ agent } = await signInStaff(site.ctx!));
  });
  afterAll(() => closeStripeSite(site));

  it("insufficient funds: 402 with the card's message; nothing stored changes but an audit event", async () => {
    const { ctx, stripe } = site as { ctx: TestContext; stripe: StripeStandIn };
    const { id, card } = await pastDue("stripe-declined@example.com");
    stripe.cardDeclines.set(card, { declineCode: "insufficient_funds", message: "Your card has insufficient funds." });
    const before = await ctx.container.subscriptions.detail(id);
    const res = await agent.post(`/api/subscriptions/${id}/retry-payment`).expect(402);
    expect(res.body).toEqual({ message: "Your card has insufficient funds." });
    const after = await ctx.container.subscriptions.detail(id);
    expect(after.subscription).toEqual(before.subscription);
    expect(after.invoices).toEqual(before.invoices);
    expect((await audits(ctx, id, "subscription.retry_payment")).map((a) => a.after)).toEqual([
      { outcome: "declined", reason: "Your card has insufficient funds." },
    ]);
  });

  it("a French homeowner reads a decline by Stripe's code: insufficient funds in French on the billing page and in the e-mail", async () => {
    const { ctx, stripe } = site as { ctx: TestContext; stripe: StripeStandIn };
    const email = "fonds.insuffisants@example.com";
    const id = await stripeSubscription(ctx, stripe, email, "standard");
    const { customer, property } = await ctx.container.customers.createWithProperty(
      { email, name: "Camille Roy", phone: "613-555-0142", subscriptionPlan: "standard", locale: "fr-CA" },
      { address: "14 rue Principale", city: "Ottawa", province: "ON", postalCode: "K1S 2B4" },
    );
    await ctx.db("subscriptions").where({ id }).update({ customer_id: customer.id, property_id: property.id });
    const providerId = (await ctx.db("subscriptions").where({ id }).first()).provider_subscription_id as string;
    const stripeCustomer = stripe.customers.get(stripe.subscription(providerId).customer as string)!;
    const card = (stripeCustomer.invoice_settings as Obj).default_payment_method as string;
    // As Stripe declines its test card 4000 0000 0000 9995 (docs.stripe.com/declines/codes).
    stripe.cardDeclines.set(card, { declineCode: "insufficient_funds", message: "Your card has insufficient funds." });
    await postStripeEvent(ctx, "invoice.payment_failed", stripe.failRenewal(providerId)).expect(200);
    await postStripeEvent(ctx, "customer.subscription.updated", stripe.subscription(providerId)).expect(200);
    const stored = await ctx.db("subscriptions").where({ id }).first();
    expect(stored).toMatchObject({ status: "past_due", last_payment_error_code: "insufficient_funds" });
    const french = "Les fonds de votre carte sont insuffisants.";
    const page = await ctx
      .agent()
      .get(`/fr/billing/${signBillingToken(id, ctx.env.SESSION_SECRET)}`)
      .expect(200);
    expect(page.text).toContain(french);
    const failed = (await mailsTo(ctx, email)).filter(
      (m) => m.subject === translator("fr-CA")("mail.billing.failed.subject"),
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.text).toContain(french);
    expect(failed[0]!.text).not.toContain("insufficient");
  });

  it("paid: stored as the webhook would store it; a double click is one charge at Stripe", async () => {
    const { ctx, stripe } = site as { ctx: TestContext; stripe: StripeStandIn };
    const { id, invoice, card } = await pastDue("stripe-paid@example.com");
    stripe.failingCards.delete(card);
    const attempts = stripe.invoices.get(invoice)!.attempt_count as number;
    const [a, b] = await Promise.all(
      [1, 2].map(() => agent.post(`/api/subscriptions/${id}/retry-payment`).set("Idempotency-Key", "click-1")),
    );
    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect(a!.body).toMatchObject({ id, status: "active", lastPaymentError: null });
    expect(stripe.invoices.get(invoice)!).toMatchObject({ status: "paid", attempt_count: attempts + 1 });
    const pays = stripe.requests.filter((r) => r.path === `/v1/invoices/${invoice}/pay`);
    expect(new Set(pays.map((r) => r.idempotencyKey)).size).toBe(1);
    const stored = await ctx.db("invoices").where({ provider_invoice_id: invoice }).first();
    expect(stored.status).toBe("paid");
    const { events } = await ctx.container.subscriptions.detail(id);
    expect(events.filter((e) => e.kind === "payment_recovered")).toHaveLength(1);
    // Stripe's own invoice.paid afterwards changes nothing more.
    await postStripeEvent(ctx, "invoice.paid", stripe.invoices.get(invoice)!).expect(200);
    const receipts = (await mailsTo(ctx, "stripe-paid@example.com")).filter((m) => /receipt/i.test(m.subject));
    expect(receipts).toHaveLength(2);
  });
});
