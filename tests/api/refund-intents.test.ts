// Refunds that cannot be lost or doubled, with Stripe (docs/decisions.md#52): the real SDK against the stand-in. The
// intent is written first; Stripe is called with its key outside any transaction; a refund Stripe did not answer is
// `pending` (202) and the job or a repeat finishes it; a credit note that fails after the refund leaves the refund
// recorded; "Nothing was changed" only when nothing was refunded. Quote invoices are refunded too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { queuedMails, runJobs } from "../support/jobs.js";
import { pdfText } from "../support/pdf.js";
import { paidQuoteInvoice } from "../support/quote-invoices.js";
import { StripeStandIn } from "../support/stripe-stand-in.js";
import { moneyOf } from "../support/stripe-stand-in-money.js";
import { postStripeEvent, stripeCheckoutPurchase } from "../support/subscriptions.js";

let ctx: TestContext;
let stripe: StripeStandIn;
let staff: Awaited<ReturnType<typeof signInStaff>>;

/** A Standard plan bought through Stripe Checkout: its paid first invoice and the PaymentIntent that paid it. */
async function paidInvoice(email: string) {
  const { invoice, local } = await stripeCheckoutPurchase(ctx, stripe, "standard", email);
  return { invoice, subscriptionId: local.id as number, intent: moneyOf(stripe).intentOf(invoice.provider_invoice_id) };
}

const refundsAtStripe = (intent: string) =>
  [...moneyOf(stripe).refunds.values()].filter((r) => r.payment_intent === intent);
const refundRows = (invoiceId: number) => ctx.db("refunds").where({ invoice_id: invoiceId }).orderBy("id");
const requestRows = (invoiceId: number) => ctx.db("refund_requests").where({ invoice_id: invoiceId }).orderBy("id");
/** The finishing jobs are due a minute later (the request normally finishes first): now, as if a minute passed. */
const finishJobsNow = () =>
  ctx.db.raw(
    "update graphile_worker._private_jobs set run_at = now() where task_id = (select id from graphile_worker._private_tasks where identifier = 'refunds:finish')",
  );

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

describe("a Stripe refund whose answer is lost", () => {
  it("lost once: the SDK's retry with the same key is Stripe's first answer, one refund, numbered as a credit note", async () => {
    const { invoice, intent } = await paidInvoice("once.lost@example.com");
    stripe.timeOuts = { path: "/v1/refunds", times: 1 };
    const res = await staff.agent
      .post(`/api/invoices/${invoice.id}/refund`)
      .send({ amountCents: 2000, reason: "Visit missed", expectedRefundedCents: 0 })
      .expect(201);
    expect(res.body.refund).toMatchObject({ status: "succeeded", amountCents: 2000 });
    expect(res.body.refund.number).toMatch(/^HAV-CN-\d{4}-\d{6}$/);
    expect(res.body.refund.creditNoteId).toMatch(/^cn_/);
    const calls = stripe.apiCalls("POST", "/v1/refunds").filter((c) => c.form.payment_intent === intent);
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((c) => c.idempotencyKey)).size).toBe(1);
    expect(refundsAtStripe(intent)).toHaveLength(1);
  });

  it("never answered: 202 pending with its amount reserved; the same request again reaches the same Stripe refund and records it once", async () => {
    const { invoice, intent } = await paidInvoice("never.answered@example.com");
    stripe.timeOuts = { path: "/v1/refunds", times: 2 };
    const send = () =>
      staff.agent
        .post(`/api/invoices/${invoice.id}/refund`)
        .send({ amountCents: 10000, reason: "Visit missed", expectedRefundedCents: 0 });
    const first = await send().expect(202);
    expect(first.body.refund).toMatchObject({ status: "pending", id: null, number: null, amountCents: 10000 });
    // Stripe made it; Haven has not recorded it, and keeps its amount aside.
    expect(refundsAtStripe(intent)).toHaveLength(1);
    expect(await refundRows(invoice.id)).toHaveLength(0);
    expect((await requestRows(invoice.id)).map((r) => r.status)).toEqual(["pending"]);
    const detail = await staff.agent.get(`/api/invoices/${invoice.id}`).expect(200);
    expect(detail.body.refunds).toEqual([expect.objectContaining({ status: "pending", amountCents: 10000 })]);
    expect(detail.body.refundable).toBe((invoice.amount_cents - 10000) / 100);
    await staff.agent
      .post(`/api/invoices/${invoice.id}/refund`)
      .send({ amountCents: invoice.amount_cents - 9999, reason: "Too much", expectedRefundedCents: 0 })
      .expect(400);
    // A refreshed page sends the same request: the same key, Stripe's first answer, one refund.
    const again = await send().expect(200);
    expect(again.body.refund).toMatchObject({
      status: "succeeded",
      amountCents: 10000,
      requestId: first.body.refund.requestId,
    });
    expect(again.body.refund.number).toMatch(/^HAV-CN-/);
    expect(refundsAtStripe(intent)).toHaveLength(1);
    expect(await refundRows(invoice.id)).toHaveLength(1);
    expect((await ctx.db("invoices").where({ id: invoice.id }).first()).refunded_cents).toBe(10000);
    const keys = stripe.apiCalls("POST", "/v1/refunds").filter((c) => c.form.payment_intent === intent);
    expect(new Set(keys.map((c) => c.idempotencyKey))).toEqual(new Set([keys[0]!.idempotencyKey]));
    await send().expect(200);
    expect(await refundRows(invoice.id)).toHaveLength(1);
  });

  it("the job finishes a pending refund: found at Stripe by its request, recorded once, its credit note made", async () => {
    const { invoice, intent } = await paidInvoice("job.finishes@example.com");
    stripe.timeOuts = { path: "/v1/refunds", times: 2 };
    await staff.agent
      .post(`/api/invoices/${invoice.id}/refund`)
      .send({ amountCents: 5000, reason: "Goodwill", expectedRefundedCents: 0 })
      .expect(202);
    const sent = stripe.apiCalls("POST", "/v1/refunds").length;
    await finishJobsNow();
    await runJobs(ctx);
    const [row] = await refundRows(invoice.id);
    expect(row).toMatchObject({ amount_cents: 5000, provider_refund_id: refundsAtStripe(intent)[0]!.id });
    expect(row.number).toMatch(/^HAV-CN-/);
    expect(row.credit_note_id).toMatch(/^cn_/);
    expect((await requestRows(invoice.id))[0]).toMatchObject({ status: "succeeded", refund_id: row.id });
    // Found by its metadata, not sent again.
    expect(stripe.apiCalls("POST", "/v1/refunds").length).toBe(sent);
    expect(refundsAtStripe(intent)).toHaveLength(1);
    // Logged on the subscription once (its e-mail was queued with it, and sent by the same run).
    const logged = await ctx
      .db("subscription_events")
      .where({ kind: "refunded" })
      .whereRaw("detail->>'creditNote' = ?", [row.number]);
    expect(logged).toHaveLength(1);
  });
});

describe("a credit note that fails after Stripe refunded", () => {
  it("the refund is recorded (201, never 'Nothing was changed'); a repeat of the stale form refunds nothing twice; the job makes the credit note", async () => {
    const { invoice, intent } = await paidInvoice("note.fails@example.com");
    // The credit-note list and its one retry by the SDK fail: the credit note cannot be made now.
    stripe.failing = { path: "/v1/credit_notes", status: 500, times: 2 };
    const form = { amountCents: 5000, reason: "Late visit", expectedRefundedCents: 0 };
    const first = await staff.agent.post(`/api/invoices/${invoice.id}/refund`).send(form).expect(201);
    stripe.failing = null;
    expect(first.body.refund).toMatchObject({ status: "succeeded", creditNoteId: null });
    expect(first.body.invoice.refunded).toBe(50);
    // Stripe's webhook for it records nothing more.
    await postStripeEvent(ctx, "charge.refunded", moneyOf(stripe).chargeOf(intent)).expect(200);
    // The page sent again as it was: the first refund, not a second.
    const again = await staff.agent.post(`/api/invoices/${invoice.id}/refund`).send(form).expect(200);
    expect(again.body.refund.id).toBe(first.body.refund.id);
    expect(refundsAtStripe(intent)).toHaveLength(1);
    expect(await refundRows(invoice.id)).toHaveLength(1);
    await finishJobsNow();
    await runJobs(ctx);
    const [row] = await refundRows(invoice.id);
    expect(row.credit_note_id).toMatch(/^cn_/);
    const notes = [...moneyOf(stripe).creditNotes.values()].filter((n) => n.invoice === invoice.provider_invoice_id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      amount: 5000,
      refunds: [{ refund: row.provider_refund_id, amount_refunded: 5000 }],
    });
  });

  it("Stripe refuses the refund: 503 'Nothing was changed', nothing kept", async () => {
    const { invoice, intent } = await paidInvoice("refused@example.com");
    stripe.failing = { path: "/v1/refunds", status: 400, times: 1 };
    const res = await staff.agent
      .post(`/api/invoices/${invoice.id}/refund`)
      .send({ amountCents: 1000, reason: "Refused", expectedRefundedCents: 0 })
      .expect(503);
    stripe.failing = null;
    expect(res.body.message).toContain("Nothing was changed");
    expect(refundsAtStripe(intent)).toHaveLength(0);
    expect(await refundRows(invoice.id)).toHaveLength(0);
    expect(await requestRows(invoice.id)).toHaveLength(0);
  });
});

describe("a quote's invoice with Stripe", () => {
  it("is refunded on its own PaymentIntent; Haven's credit note, no Stripe one; the homeowner is e-mailed", async () => {
    const { invoiceId, email } = await paidQuoteInvoice(ctx, { stripe, postalCode: "K1C 1A1", province: "ON" });
    const invoice = await ctx.db("invoices").where({ id: invoiceId }).first();
    const notes = stripe.apiCalls("POST", "/v1/credit_notes").length;
    const res = await staff.agent
      .post(`/api/invoices/${invoiceId}/refund`)
      .send({ amountCents: 10000, reason: "Part of the work not done" })
      .expect(201);
    expect(res.body.refund).toMatchObject({ status: "succeeded", amountCents: 10000, creditNoteId: null });
    expect(res.body.refund.number).toMatch(/^HAV-CN-/);
    expect(refundsAtStripe(invoice.payment_intent_id)).toHaveLength(1);
    expect(stripe.apiCalls("POST", "/v1/credit_notes").length).toBe(notes);
    const mail = (await queuedMails(ctx)).find((m) => m.to === email && m.subject.startsWith("Your Haven refund"));
    expect(mail?.text).toContain(`Credit note: ${res.body.refund.number}`);
    expect(mail?.text).toContain(`Credits invoice: ${invoice.number}`);
    const text = await pdfText(staff.agent, `/api/refunds/${res.body.refund.id}/pdf`);
    expect(text).toContain(res.body.refund.number);
    expect(text).toContain(invoice.number);
  });

  it("recordProviderRefund records a dashboard refund of a quote's payment once, numbered", async () => {
    const { invoiceId } = await paidQuoteInvoice(ctx, { stripe, postalCode: "K1C 1A1", province: "ON" });
    const refund = {
      providerRefundId: "re_dashboard_quote",
      amountCents: 2500,
      reason: "In the dashboard",
      createdAt: new Date(),
    };
    const record = () =>
      ctx.db.transaction((tx) => ctx.container.invoiceSide.refunds.recordProviderRefund(invoiceId, refund, tx));
    const first = await record();
    expect(first).toMatchObject({ amountCents: 2500, actor: "stripe" });
    expect(first!.number).toMatch(/^HAV-CN-/);
    expect(await record()).toBeNull();
    expect((await ctx.db("invoices").where({ id: invoiceId }).first()).refunded_cents).toBe(2500);
  });
});
