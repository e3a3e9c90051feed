// An invoice's figures as Stripe gives them (docs/decisions.md#50), the real SDK against the stand-in: reconciliation
// stores a missed invoice with its tax and corrects a paid one's figures with an audit event; a customer balance
// that pays part is stored and shown beside the total and what the card paid; and the tax report counts a renewal
// paid late on its own date.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIn } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { pdfText } from "../support/pdf.js";
import { StripeStandIn } from "../support/stripe-stand-in.js";
import { postStripeEvent } from "../support/subscriptions.js";

type Obj = Record<string, unknown>;
const TZ = "America/Toronto";

let ctx: TestContext;
let stripe: StripeStandIn;
let staff: Awaited<ReturnType<typeof signInStaff>>;

const happen = (type: string, object: Obj) => postStripeEvent(ctx, type, object).expect(200);

/** /pricing's Standard plan ($370 a month, Ontario's HST: no postal code), paid at Stripe Checkout. */
async function buy(email: string) {
  const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "standard" }).expect(200);
  const session = stripe.pay(body.url.split("/pay/")[1] as string, { email, name: "Pat Payer" });
  await happen("checkout.session.completed", session);
  const subscriptionId = session.subscription as string;
  const local = await ctx.db("subscriptions").where({ provider_subscription_id: subscriptionId }).first();
  return { subscriptionId, local };
}

const stored = (providerInvoiceId: string) =>
  ctx.db("invoices").where({ provider_invoice_id: providerInvoiceId }).first();
const report = async (day: string) => (await staff.agent.get(`/api/tax-report?from=${day}&to=${day}`).expect(200)).body;
const HST = [{ kind: "HST", label: "HST 13%", percent: 13, amountCents: 4810 }];

beforeAll(async () => {
  stripe = await StripeStandIn.start();
  ctx = await createTestContext({ ...stripe.env(), BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
});
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

describe("reconciliation reads Stripe's tax", () => {
  let renewalId: string;

  it("a missed renewal is stored as Stripe charged it, $370.00 + HST $48.10 = $418.10, and the tax report counts it", async () => {
    const { subscriptionId } = await buy("rita.reconcile@example.com");
    // Two renewals missed: the subscription's read back brings the latest; the first is the invoice side's to find.
    const renewal = stripe.advancePeriod(subscriptionId).invoice!;
    stripe.advancePeriod(subscriptionId);
    renewalId = renewal.id as string;
    expect(renewal).toMatchObject({ subtotal: 37000, total: 41810, amount_paid: 41810, status: "paid" });
    const result = await ctx.container.invoiceSide.reconcile.run();
    expect(result.differences.map((d) => `${d.kind}:${d.id}`)).toContain(`invoice_missing:${renewalId}`);
    const row = await stored(renewalId);
    expect(row).toMatchObject({
      status: "paid",
      amount_cents: 41810,
      subtotal_cents: 37000,
      tax_cents: 4810,
      amount_paid_cents: 41810,
      balance_applied_cents: 0,
      tax_province: "ON",
    });
    expect(row.tax_lines).toEqual(HST);
    const day = await report(todayIn(TZ, row.period_start));
    expect(day.gstHst).toMatchObject({ sales: 370, taxCollected: 48.1, netTax: 48.1 });
    expect(day.lines).toEqual([
      expect.objectContaining({ province: "ON", label: "HST 13%", netSales: 370, net: 48.1 }),
    ]);
  });

  it("a paid invoice stored without its tax is corrected to Stripe's figures, with an audit event; a second run agrees", async () => {
    const { id } = await stored(renewalId);
    // As the write path stored a missed invoice before: the total as the subtotal, no tax.
    await ctx.db("invoices").where({ id }).update({ subtotal_cents: 41810, tax_cents: 0, tax_lines: "[]" });
    const result = await ctx.container.invoiceSide.reconcile.run();
    const corrected = result.differences.find((d) => d.id === renewalId);
    expect(corrected).toMatchObject({ kind: "invoice_changed", repaired: true });
    expect(corrected!.detail).toMatch(/subtotal, tax, tax lines corrected to Stripe's/);
    expect(await stored(renewalId)).toMatchObject({ subtotal_cents: 37000, tax_cents: 4810, tax_lines: HST });
    const events = await ctx.db("audit_events").where({ action: "invoice.correct", record_id: String(id) });
    expect(events).toHaveLength(1);
    expect(events[0].before).toEqual({ subtotalCents: 41810, taxCents: 0, taxLines: [] });
    expect(events[0].after).toEqual({ subtotalCents: 37000, taxCents: 4810, taxLines: HST, source: "stripe" });
    const again = await ctx.container.invoiceSide.reconcile.run();
    expect(again.differences).toEqual([]);
  });
});

describe("paid and total", () => {
  it("a customer credit pays part: the total, the card's part and the balance are stored and shown; a refund goes back to the card, at most what it paid", async () => {
    const { subscriptionId, local } = await buy("bea.balance@example.com");
    // A $50.00 credit on the customer's balance (Stripe's balance is negative when it is a credit).
    stripe.customers.get(stripe.subscription(subscriptionId).customer as string)!.balance = -5000;
    const renewal = stripe.advancePeriod(subscriptionId).invoice!;
    expect(renewal).toMatchObject({ total: 41810, amount_due: 36810, amount_paid: 36810, starting_balance: -5000 });
    await happen("invoice.paid", renewal);
    const row = await stored(renewal.id as string);
    expect(row).toMatchObject({
      amount_cents: 41810,
      subtotal_cents: 37000,
      tax_cents: 4810,
      amount_paid_cents: 36810,
      balance_applied_cents: 5000,
    });
    const detail = (await staff.agent.get(`/api/invoices/${row.id}`).expect(200)).body;
    expect(detail).toMatchObject({
      invoice: { amount: 418.1, subtotal: 370, tax: 48.1, amountPaid: 368.1, balanceApplied: 50 },
      refundable: 368.1,
    });
    const page = (await staff.agent.get(`/admin/subscriptions/${local.id}`).expect(200)).text;
    const item = page.slice(page.indexOf(`data-invoice-id="${row.id}"`));
    expect(item).toMatch(/From account credit<\/dt><dd>\$50\.00/);
    expect(item).toMatch(/Paid by card<\/dt><dd>\$368\.10/);
    const list = (await staff.agent.get("/admin/invoices?amount=418.10").expect(200)).text;
    expect(list).toContain("From account credit $50.00, card $368.10");
    const text = await pdfText(staff.agent, `/api/invoices/${row.id}/pdf`);
    expect(text).toMatch(/Total\s+\$418\.10/);
    expect(text).toMatch(/Paid from account credit\s+\$50\.00/);
    expect(text).toMatch(/Paid by card\s+\$368\.10/);

    const refund = (amountCents?: number) =>
      staff.agent
        .post(`/api/invoices/${row.id}/refund`)
        .send({ reason: "Moved", ...(amountCents ? { amountCents } : {}) });
    expect((await refund(41810).expect(400)).text).toContain("At most $368.10");
    const all = await refund().expect(201);
    expect(all.body.refund.amountCents).toBe(36810);
    expect(stripe.apiCalls("POST", "/v1/refunds").at(-1)!.form).toMatchObject({ amount: "36810" });
  });
});

describe("the tax report with Stripe", () => {
  it("a renewal declined on its first day and paid five days later counts on its date", async () => {
    const { subscriptionId } = await buy("lea.late@example.com");
    const failed = stripe.failRenewal(subscriptionId);
    await happen("invoice.payment_failed", failed);
    const first = (failed.lines as { data: { period: { start: number } }[] }).data[0]!.period.start * 1000;
    const paidAt = first + 5 * 86_400_000;
    const [issuedDay, paidDay] = [todayIn(TZ, new Date(first)), todayIn(TZ, new Date(paidAt))];
    // Declined, it is collectible on its first day (the other renewals of this file fall on that day too).
    const before = { issued: await report(issuedDay), paid: await report(paidDay) };
    expect(before.issued.gstHst.unpaidTax).toBe(48.1);
    const clock = stripe.clock;
    stripe.clock = () => paidAt;
    try {
      await happen("invoice.paid", stripe.paySubscriptionInvoice(failed.id as string));
    } finally {
      stripe.clock = clock;
    }
    const row = await stored(failed.id as string);
    expect(row).toMatchObject({ status: "paid", amount_cents: 41810, tax_cents: 4810 });
    expect(new Date(row.paid_at).getTime()).toBe(paidAt);
    // Paid five days later, it stays its first day's: only its "not paid yet" goes.
    expect(await report(issuedDay)).toEqual({
      ...before.issued,
      gstHst: { ...before.issued.gstHst, unpaidTax: 0 },
    });
    expect(await report(paidDay)).toEqual(before.paid);
  });
});
