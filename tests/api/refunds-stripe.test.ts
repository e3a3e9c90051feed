// Refunds, disputes and reconciliation with Stripe (docs/decisions.md#34): the real SDK against the local stand-in.
// A staff refund is a Stripe refund with a credit note, each under a key derived from the request; a refund made in
// Stripe's dashboard and a dispute reach Haven by webhook, once; and a missed webhook is repaired by reconciliation,
// which pages through Stripe's lists and reports what differed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proportionalTax } from "../../src/modules/tax/index.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { StripeStandIn } from "../support/stripe-stand-in.js";
import { moneyOf } from "../support/stripe-stand-in-money.js";
import { stripeCheckoutPurchase } from "../support/subscriptions.js";

type Obj = Record<string, unknown>;

let ctx: TestContext;
let stripe: StripeStandIn;
let staff: Awaited<ReturnType<typeof signInStaff>>;

const post = (type: string, object: Obj) => {
  const delivery = StripeStandIn.signedEvent(type, structuredClone(object));
  return ctx
    .agent()
    .post("/api/stripe/webhook")
    .set("Content-Type", "application/json")
    .set("Stripe-Signature", delivery.header)
    .send(delivery.payload);
};

/** /pricing's button, Stripe Checkout paid, and Stripe's checkout.session.completed. */
const buy = (planType: string, email: string) => stripeCheckoutPurchase(ctx, stripe, planType, email);

beforeAll(async () => {
  stripe = await StripeStandIn.start();
  ctx = await createTestContext(stripe.env());
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
});
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

describe("refunds with Stripe", () => {
  let bought: Awaited<ReturnType<typeof buy>>;
  const refundCalls = () => stripe.apiCalls("POST", "/v1/refunds");

  beforeAll(async () => {
    bought = await buy("standard", "riley.refund@example.com");
  });

  it("the paid invoice is numbered and its figures are Stripe's", async () => {
    expect(bought.invoice.number).toMatch(/^HAV-\d{4}-\d{6}$/);
    expect(bought.invoice.status).toBe("paid");
    const lines = bought.invoice.tax_lines as { amountCents: number }[];
    expect(bought.invoice.tax_cents).toBe(lines.reduce((s, l) => s + l.amountCents, 0));
    expect(bought.invoice.amount_cents).toBe(bought.invoice.subtotal_cents + bought.invoice.tax_cents);
  });

  it("Stripe unreachable: 503 and nothing written", async () => {
    stripe.failWith = 503;
    try {
      await staff.agent
        .post(`/api/invoices/${bought.invoice.id}/refund`)
        .send({ amountCents: 1000, reason: "Outage" })
        .expect(503);
    } finally {
      stripe.failWith = null;
    }
    expect(Number((await ctx.db("refunds").count({ n: "*" }).first())!.n)).toBe(0);
  });

  it("a partial refund: a Stripe refund and a credit note under keys from the request; a repeat is the same refund", async () => {
    const before = refundCalls().length;
    const send = () =>
      staff.agent
        .post(`/api/invoices/${bought.invoice.id}/refund`)
        .set("Idempotency-Key", "stripe-partial-1")
        .send({ amountCents: 10000, reason: "Visit missed" });
    const first = await send().expect(201);
    const again = await send().expect(200);
    expect(again.body.refund.id).toBe(first.body.refund.id);
    expect(refundCalls().length).toBe(before + 1);
    const call = refundCalls().at(-1)!;
    expect(call.form).toMatchObject({ amount: "10000", reason: "requested_by_customer" });
    expect(call.idempotencyKey).toMatch(/^refund:\d+:10000:/);
    const note = stripe.apiCalls("POST", "/v1/credit_notes").at(-1)!;
    expect(note.form).toMatchObject({
      invoice: bought.invoice.provider_invoice_id,
      "refunds[0][refund]": first.body.refund.providerRefundId,
    });
    expect(note.idempotencyKey).toBe(`${call.idempotencyKey}:credit-note`);
    expect(first.body.refund.providerRefundId).toMatch(/^re_/);
    expect(first.body.refund.creditNoteId).toMatch(/^cn_/);
    const expected = proportionalTax(bought.invoice.tax_lines, bought.invoice.amount_cents, 10000);
    expect(first.body.refund.taxLines).toEqual(expected);
  });

  it("charge.refunded: a refund made in Stripe's dashboard is recorded once; Haven's own is not recorded twice", async () => {
    const charge = moneyOf(stripe).refundInDashboard(bought.invoice.provider_invoice_id, 5000);
    await post("charge.refunded", charge).expect(200);
    await post("charge.refunded", charge).expect(200);
    const rows = await ctx.db("refunds").where({ invoice_id: bought.invoice.id }).orderBy("id");
    expect(rows.map((r) => [r.amount_cents, r.actor])).toEqual([
      [10000, expect.stringMatching(/^staff:/)],
      [5000, "stripe"],
    ]);
    const invoice = await ctx.db("invoices").where({ id: bought.invoice.id }).first();
    expect(invoice.refunded_cents).toBe(15000);
  });

  it("charge.dispute.created flags the subscription, records the dispute once and logs it", async () => {
    const dispute = moneyOf(stripe).dispute(bought.invoice.provider_invoice_id);
    await post("charge.dispute.created", dispute).expect(200);
    await post("charge.dispute.created", dispute).expect(200);
    const rows = await ctx.db("disputes");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      invoice_id: bought.invoice.id,
      subscription_id: bought.local.id,
      reason: "fraudulent",
    });
    const sub = await ctx.db("subscriptions").where({ id: bought.local.id }).first();
    expect(sub.disputed_at).not.toBeNull();
    const events = await ctx.db("subscription_events").where({ subscription_id: bought.local.id, kind: "disputed" });
    expect(events).toHaveLength(1);
    // The staff bell rings: the dispute is one notification, listed, linking to the subscription.
    expect(await ctx.db("notifications").where({ kind: "dispute", record_id: String(bought.local.id) })).toHaveLength(
      1,
    );
    const bell = (await staff.agent.get("/admin/notifications").expect(200)).text;
    expect(bell).toContain('data-notice="dispute" data-unread="true"');
    expect(bell).toContain(`/admin/subscriptions/${bought.local.id}`);
    // The subscription's page flags it.
    const page = (await staff.agent.get(`/admin/subscriptions/${bought.local.id}`).expect(200)).text;
    expect(page).toContain('data-testid="dispute-alert"');
  });
});

describe("reconciliation with Stripe", () => {
  it("repairs what missed webhooks left behind, page by page, and reports each difference", async () => {
    const a = await buy("basic", "amy.missed@example.com");
    const b = await buy("premium", "ben.missed@example.com");
    // Missed: a renewal of a (no invoice.paid delivered), a dashboard refund of b (no charge.refunded), and a
    // subscription created in Stripe whose checkout event never came.
    const renewal = stripe.advancePeriod(a.subscriptionId).invoice!;
    moneyOf(stripe).refundInDashboard(b.invoice.provider_invoice_id, 2500);
    const lost = await (async () => {
      const { body } = await ctx
        .agent()
        .post("/api/create-checkout-session")
        .send({ planType: "standard" })
        .expect(200);
      return stripe.pay(body.url.split("/pay/")[1] as string, { email: "lost@example.com", name: "Lou Lost" });
    })();
    const result = await ctx.container.invoiceSide.reconcile.run({ pageSize: 1 });
    expect(result.mode).toBe("stripe");
    const kinds = result.differences.map((d) => `${d.kind}:${d.id}`);
    expect(kinds).toContain(`subscription_changed:${a.subscriptionId}`);
    expect(kinds).toContain(`subscription_missing:${lost.subscription}`);
    expect(kinds).toContain(`refund_missing:${[...moneyOf(stripe).refunds.values()].at(-1)!.id}`);
    expect(result.differences.every((d) => d.kind === "subscription_only_in_haven" || d.repaired)).toBe(true);
    // Paged: one object per request.
    expect(
      stripe.apiCalls("GET", "/v1/subscriptions").filter((r) => r.path === "/v1/subscriptions").length,
    ).toBeGreaterThan(3);
    const stored = await ctx.db("invoices").where({ provider_invoice_id: renewal.id }).first();
    expect(stored).toMatchObject({ status: "paid" });
    expect(stored.number).toMatch(/^HAV-/);
    const refunded = await ctx.db("invoices").where({ id: b.invoice.id }).first();
    expect(refunded.refunded_cents).toBe(2500);
    // A second run finds nothing left to repair.
    const again = await ctx.container.invoiceSide.reconcile.run({ pageSize: 2 });
    expect(again.differences).toEqual([]);
    expect(again.message).toBe("Haven and Stripe agree");
  });
});

describe("the Standard subscriber in Ottawa who bought at /checkout, with Stripe", () => {
  it("the receipt shows $412.00 + HST $53.56 = $465.56, the invoice number and the GST/HST number", async () => {
    const OTTAWA = "K1S 2B4";
    const { body } = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({
        amount: 412,
        plan: "standard",
        postalCode: OTTAWA,
        email: "olive.stripe@example.com",
        name: "Olive Ottawa",
      })
      .expect(200);
    const intentId = String(body.clientSecret).split("_secret_")[0]!;
    stripe.succeedIntent(intentId, "olive.stripe@example.com");
    await ctx.agent().get(`/api/verify-payment?session_id=${intentId}`).expect(200);
    const sub = await ctx.db("subscriptions").where({ checkout_ref: intentId }).first();
    const invoice = await ctx.db("invoices").where({ subscription_id: sub.id }).first();
    expect(invoice).toMatchObject({ status: "paid", subtotal_cents: 41_200, tax_cents: 5_356, amount_cents: 46_556 });
    expect(invoice.number).toMatch(/^HAV-\d{4}-\d{6}$/);
    const mails = (
      await ctx.db.raw(
        "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
      )
    ).rows.map((r: { payload: { subject: string; to: string; text: string } }) => r.payload);
    const receipt = mails.find(
      (m: { to: string; subject: string }) =>
        m.to === "olive.stripe@example.com" && m.subject.startsWith("Your Haven receipt"),
    )!;
    expect(receipt.subject).toBe("Your Haven receipt: $465.56 CAD");
    for (const line of [
      `Invoice: ${invoice.number}`,
      "Subtotal: $412.00 CAD",
      "HST 13%: $53.56 CAD",
      "Total: $465.56 CAD",
      "GST/HST registration: 123456789 RT0001",
      `/my-home/plan/invoices/${invoice.id}/pdf`,
    ])
      expect(receipt.text).toContain(line);
  });
});
