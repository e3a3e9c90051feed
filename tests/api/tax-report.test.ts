// The sales-tax report with the demo provider (docs/decisions.md#50): sales counted once (a Quebec invoice has two
// taxes but one price), invoices that charged no tax counted, GST/HST and QST on their own returns, each invoice on
// the day its tax fell due (the earlier of its date and its payment), refunds as adjustments on their day. That the
// page, its CSV and `haven tax report` say the API's figures: tax-report-cli.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIn } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { demoPurchase } from "../support/subscriptions.js";

const TZ = "America/Toronto";
let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;

const buy = (ref: string, postalCode: string, at: string, cardNumber?: string) =>
  demoPurchase(ctx, ref, postalCode, at, cardNumber);

const report = async (from: string, to: string) =>
  (await staff.agent.get(`/api/tax-report?from=${from}&to=${to}`).expect(200)).body;

let refundDay: string;
let refundTax: { GST: number; QST: number };

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
  const ottawa = await buy("tax_ottawa", "K1S 2B4", "2027-01-10T15:00:00Z");
  const gatineau = await buy("tax_gatineau", "J8X 3X5", "2027-01-12T15:00:00Z");
  // An invoice stored before Haven charged tax: its tax lines are empty (migrations/20261201000100_money.ts).
  await ctx.db("invoices").insert({
    subscription_id: ottawa.id,
    provider: "demo",
    provider_invoice_id: "demo_before_tax",
    number: "HAV-2027-000900",
    amount_cents: 10000,
    subtotal_cents: 10000,
    currency: "cad",
    period_start: new Date("2027-01-20T15:00:00Z"),
    period_end: new Date("2027-02-20T15:00:00Z"),
    paid_at: new Date("2027-01-20T15:00:00Z"),
    status: "paid",
    billing_reason: "subscription_cycle",
  });
  const [quebec] = (await ctx.container.subscriptions.detail(gatineau.id)).invoices;
  const { refund } = await ctx.container.invoiceSide.refunds.refund(quebec!.id, {
    amountCents: 10000,
    reason: "Visit missed",
    actor: "cli",
  });
  refundDay = todayIn(TZ, new Date(refund.createdAt));
  const part = (kind: string) => refund.taxLines.find((l) => l.kind === kind)!.amountCents / 100;
  refundTax = { GST: part("GST"), QST: part("QST") };
});
afterAll(() => ctx?.close());

describe("the tax report (demo provider)", () => {
  it("counts a Quebec sale once, an untaxed invoice too, and GST/HST apart from QST", async () => {
    const january = await report("2027-01-01", "2027-01-31");
    expect(january.gstHst).toEqual({
      sales: 924,
      salesRefunded: 0,
      netSales: 924,
      taxCollected: 74.16,
      adjustments: 0,
      netTax: 74.16,
      unpaidTax: 0,
    });
    expect(january.qst).toEqual({
      sales: 412,
      salesRefunded: 0,
      netSales: 412,
      taxCollected: 41.1,
      adjustments: 0,
      netTax: 41.1,
      unpaidTax: 0,
    });
    expect(
      january.lines.map((l: Record<string, unknown>) => [l.province, l.label, l.return, l.netSales, l.net]),
    ).toEqual([
      ["—", "No tax", "gstHst", 100, 0],
      ["ON", "HST 13%", "gstHst", 412, 53.56],
      ["QC", "GST 5%", "gstHst", 412, 20.6],
      ["QC", "QST 9.975%", "qst", 412, 41.1],
    ]);
  });

  it("a refund is an adjustment on its own day, each tax on its own return", async () => {
    const day = await report(refundDay, refundDay);
    expect(day.gstHst).toMatchObject({
      sales: 0,
      salesRefunded: Math.round((100 - refundTax.GST - refundTax.QST) * 100) / 100,
      taxCollected: 0,
      adjustments: refundTax.GST,
      netTax: -refundTax.GST,
    });
    expect(day.qst).toMatchObject({ taxCollected: 0, adjustments: refundTax.QST, netTax: -refundTax.QST });
    expect(refundTax.GST).toBeGreaterThan(0);
    expect(refundTax.QST).toBeGreaterThan(refundTax.GST);
  });

  it("an invoice counts on the earlier of its date and its payment: a March renewal paid in April is March's", async () => {
    const late = await buy("tax_late", "K2P 1L4", "2027-02-28T15:00:00Z", "4000000000000341");
    await ctx.container.subscriptions.renewDue(new Date("2027-03-29T12:00:00Z"));
    // Issued on March 28, not paid yet: collectible in March (the other homes' renewals were paid when issued).
    const march = await report("2027-03-01", "2027-03-31");
    const april = await report("2027-04-01", "2027-04-30");
    expect(march.gstHst.unpaidTax).toBe(53.56);
    expect(march.lines.find((l: { label: string }) => l.label === "HST 13%").collected).toBeGreaterThanOrEqual(53.56);
    await ctx.container.subscriptions.updateDemoCard(
      late.id,
      { cardNumber: "4242424242424242", actor: "customer" },
      new Date("2027-04-02T15:00:00Z"),
    );
    const [renewal] = (await ctx.container.subscriptions.detail(late.id)).invoices;
    // The demo provider has no customer balance: the card paid the total (docs/decisions.md#50).
    expect(renewal).toMatchObject({
      status: "paid",
      paidAt: "2027-04-02T15:00:00.000Z",
      amount: 465.56,
      amountPaid: 465.56,
      balanceApplied: 0,
    });
    // Paid in April, it stays March's: only its "not paid yet" goes.
    expect(await report("2027-03-01", "2027-03-31")).toEqual({ ...march, gstHst: { ...march.gstHst, unpaidTax: 0 } });
    expect(await report("2027-04-01", "2027-04-30")).toEqual(april);
  });
});
