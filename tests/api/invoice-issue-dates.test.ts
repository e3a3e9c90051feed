// Invoices a Quebec or Ontario auditor accepts (docs/decisions.md#54): an invoice's date is its issue date, set once
// with its number and never moved by its payment (the demo provider and Stripe, the real SDK against the stand-in);
// numbers follow the order of issue, and a missed invoice reconciliation records after later ones shows the exception
// on the invoice; Stripe's hosted page of an open invoice (the 3-D Secure e-mail's link) shows Haven's number, the
// fields Stripe already had kept. Each scenario has a year of its own, so their numbers do not mix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_FAILING_CARD } from "../../src/modules/subscriptions/index.js";
import { todayIn } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { pdfText } from "../support/pdf.js";
import { StripeStandIn } from "../support/stripe-stand-in.js";
import { demoPurchase, postStripeEvent, stripeSubscription } from "../support/subscriptions.js";

type Obj = Record<string, unknown>;
const TZ = "America/Toronto";

let ctx: TestContext;
let stripe: StripeStandIn;
let staff: Awaited<ReturnType<typeof signInStaff>>;

const happen = (type: string, object: Obj) => postStripeEvent(ctx, type, object).expect(200);
const at = (iso: string) => () => new Date(iso).getTime();
const stored = (providerInvoiceId: string) =>
  ctx.db("invoices").where({ provider_invoice_id: providerInvoiceId }).first();
const apiInvoice = async (id: number) => (await staff.agent.get(`/api/invoices/${id}`).expect(200)).body.invoice;
const providerIdOf = async (id: number) =>
  (await ctx.db("subscriptions").where({ id }).first()).provider_subscription_id as string;
/** Stripe's issue of an invoice (finalized), as an ISO string. */
const finalized = (invoice: Obj) =>
  new Date(((invoice.status_transitions as Obj).finalized_at as number) * 1000).toISOString();

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

describe("the date is the issue date", () => {
  it("Stripe: a renewal issued Dec 30 that asks for 3-D Secure keeps that date and its 2023 number when paid Jan 2; its hosted page shows HAV-… beside Stripe's own field, and a paid invoice is never updated", async () => {
    stripe.clock = at("2023-11-30T17:00:00Z");
    const id = await stripeSubscription(ctx, stripe, "sca.dates@example.com", "basic");
    const { invoice } = stripe.advancePeriod(await providerIdOf(id), { requiresAction: true });
    const invoiceId = invoice!.id as string;
    // A field Stripe already shows (from the customer's invoice settings): Haven's number goes beside it.
    stripe.invoices.get(invoiceId)!.custom_fields = [{ name: "PO number", value: "4471" }];
    await happen("invoice.payment_action_required", stripe.invoices.get(invoiceId)!);
    const open = await stored(invoiceId);
    expect(open.number).toMatch(/^HAV-2023-/);
    expect(stripe.invoices.get(invoiceId)!.custom_fields).toEqual([
      { name: "PO number", value: "4471" },
      { name: "Invoice", value: open.number },
    ]);
    await happen("invoice.payment_failed", stripe.invoices.get(invoiceId)!);
    const updates = () => stripe.apiCalls("POST", `/v1/invoices/${invoiceId}`).length;
    expect(updates()).toBe(1);

    stripe.clock = at("2024-01-02T15:00:00Z");
    await happen("invoice.paid", stripe.confirmInvoice(invoiceId));
    const paid = await stored(invoiceId);
    expect(paid).toMatchObject({ status: "paid", number: open.number });
    expect(updates()).toBe(1);
    const api = await apiInvoice(paid.id);
    expect(api).toMatchObject({
      number: open.number,
      issuedAt: finalized(invoice!),
      paidAt: "2024-01-02T15:00:00.000Z",
      recordedLateAt: null,
    });
    expect(todayIn(TZ, new Date(api.issuedAt))).toBe("2023-12-30");
    const pdf = await pdfText(staff.agent, `/api/invoices/${paid.id}/pdf`);
    expect(pdf).toContain("Date of issue: December 30, 2023");
    expect(pdf).toContain("Paid January 2, 2024");
  });

  it("demo: a renewal declined on Apr 5 and paid with a new card on Apr 9 stays dated Apr 5, on the API, the PDF and both pages", async () => {
    const sub = await demoPurchase(ctx, "demo_dates", "K1S 2B4", "2022-03-05T15:00:00Z", DEMO_FAILING_CARD);
    await ctx.container.subscriptions.renewDue(new Date("2022-04-06T12:00:00Z"));
    const open = await ctx.db("invoices").where({ subscription_id: sub.id, status: "open" }).first();
    expect(open.number).toMatch(/^HAV-2022-/);
    await ctx.container.subscriptions.updateDemoCard(
      sub.id,
      { cardNumber: "4242424242424242", actor: "customer" },
      new Date("2022-04-09T14:00:00Z"),
    );
    const api = await apiInvoice(open.id);
    expect(api).toMatchObject({ status: "paid", number: open.number, paidAt: "2022-04-09T14:00:00.000Z" });
    expect(api.issuedAt).toBe(new Date(open.period_start).toISOString());
    const pdf = await pdfText(staff.agent, `/api/invoices/${open.id}/pdf`);
    expect(pdf).toContain("Date of issue: April 5, 2022");
    expect(pdf).toContain("Paid April 9, 2022");
    const page = (await staff.agent.get(`/admin/subscriptions/${sub.id}`).expect(200)).text;
    const item = page.slice(page.indexOf(`data-invoice-id="${open.id}"`));
    expect(item).toMatch(/data-testid="issue-date">Issued Apr 5, 2022</);
    const view = await ctx.container.subscriptions.customerView(sub.id);
    expect(view.invoices.find((i) => i.id === open.id)).toMatchObject({ issuedAt: api.issuedAt, paidAt: api.paidAt });
  });
});

describe("numbers follow the order of issue", () => {
  it("reconciliation numbers missed invoices oldest first in their issue year, and marks on the invoice the ones issued before an invoice already numbered", async () => {
    // C: a renewal issued Dec 29, 2024 asks for 3-D Secure, is paid Jan 3, 2025, and no webhook reaches Haven.
    stripe.clock = at("2024-11-29T17:00:00Z");
    const c = await stripeSubscription(ctx, stripe, "year.end@example.com", "basic");
    const lateYear = stripe.advancePeriod(await providerIdOf(c), { requiresAction: true }).invoice!;
    stripe.clock = at("2025-01-03T15:00:00Z");
    stripe.confirmInvoice(lateYear.id as string);
    // B: renewals of April, May and June 2025; only June's webhook arrives, so June is numbered first.
    stripe.clock = at("2025-03-10T16:00:00Z");
    const b = await stripeSubscription(ctx, stripe, "missed.twice@example.com", "basic");
    const bId = await providerIdOf(b);
    const [april, may, june] = [1, 2, 3].map(() => stripe.advancePeriod(bId).invoice!);
    await happen("invoice.paid", june!);

    const result = await ctx.container.invoiceSide.reconcile.run();
    const missing = result.differences.filter((d) => d.kind === "invoice_missing").map((d) => d.id);
    expect(missing).toEqual(expect.arrayContaining([lateYear.id, april!.id, may!.id]));

    // Its issue year's number, whatever the day reconciliation ran or the payment came.
    const yearEnd = await stored(lateYear.id as string);
    expect(yearEnd.number).toMatch(/^HAV-2024-/);
    expect(yearEnd.recorded_late_at).toBeNull();
    expect(await apiInvoice(yearEnd.id)).toMatchObject({
      issuedAt: finalized(lateYear),
      paidAt: "2025-01-03T15:00:00.000Z",
    });
    const [aprilRow, mayRow, juneRow] = await Promise.all([april, may, june].map((i) => stored(i!.id as string)));
    expect(Number(aprilRow.number.slice(-6))).toBeLessThan(Number(mayRow.number.slice(-6)));
    expect(Number(juneRow.number.slice(-6))).toBeLessThan(Number(aprilRow.number.slice(-6)));
    expect(juneRow.recorded_late_at).toBeNull();

    // What an auditor checks: within a year, in number order, an invoice dated before one numbered ahead of it
    // carries the documented exception, and the invoice itself shows it with both dates.
    const rows = (
      await ctx.db("invoices").whereNotNull("number").select("id", "number", "issued_at", "recorded_late_at")
    )
      .map((r) => ({ ...r, year: r.number.slice(4, 8), n: Number(r.number.slice(9)), day: todayIn(TZ, r.issued_at) }))
      .sort((x, y) => x.year.localeCompare(y.year) || x.n - y.n);
    const latest = new Map<string, string>();
    const exceptions: number[] = [];
    for (const row of rows) {
      expect(row.day.slice(0, 4), row.number).toBe(row.year);
      const before = latest.get(row.year) ?? "";
      if (row.day < before) exceptions.push(row.id);
      expect(row.day >= before || row.recorded_late_at !== null, `${row.number} issued ${row.day}`).toBe(true);
      if (row.day > before) latest.set(row.year, row.day);
    }
    expect(exceptions.sort()).toEqual([aprilRow.id, mayRow.id].sort());
    const shown = await apiInvoice(aprilRow.id);
    expect(shown.recordedLateAt).not.toBeNull();
    expect(todayIn(TZ, new Date(shown.issuedAt))).toBe("2025-04-10");
    const pdf = await pdfText(staff.agent, `/api/invoices/${aprilRow.id}/pdf`);
    expect(pdf).toContain("Date of issue: April 10, 2025");
    expect(pdf).toContain("Recorded late:");
    const page = (await staff.agent.get(`/admin/subscriptions/${b}`).expect(200)).text;
    expect(page.slice(page.indexOf(`data-invoice-id="${aprilRow.id}"`))).toMatch(/data-testid="recorded-late"/);

    // A second run finds nothing to record and numbers nothing.
    const again = await ctx.container.invoiceSide.reconcile.run();
    expect(again.differences).toEqual([]);
  });
});
