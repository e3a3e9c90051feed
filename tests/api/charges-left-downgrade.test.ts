// The cancel page's charges left when a downgrade takes effect first: the renewals after it are priced at the lower
// plan (the subscriber's own price list), tax included at the home's rates, not at the plan paid today. Real
// Postgres; the pure function gets its `now`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargesLeft } from "../../src/modules/subscriptions/charges-left.js";
import { billingDate } from "../../src/modules/subscriptions/subscriptions.mail.js";
import { type TestContext, createTestContext } from "../support/context.js";

const TZ = "America/Toronto";
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
});
afterAll(() => ctx.close());

const chargesText = (page: string) => /data-testid="charges-left">([\s\S]*?)<\/p>/.exec(page)![1]!.replace(/\s+/g, " ");

describe("charges left with a downgrade waiting", () => {
  it("prices every renewal after the downgrade at the lower plan, tax included", async () => {
    const now = new Date();
    const sub = await ctx.container.subscriptions.startDemo(
      {
        checkoutRef: "charges-left-downgrade",
        planType: "standard",
        amountCents: 37000,
        payerEmail: "down.grade@example.com",
        payerName: "Dana Grade",
        cardNumber: "4242424242424242",
      },
      now,
    );
    const token = ctx.container.subscriptions.billingLink(sub.id).split("/billing/")[1]!;
    // Before: two more charges of Standard ($370 + 13 % HST).
    expect(chargesText((await ctx.agent().get(`/billing/${token}/cancel`).expect(200)).text)).toContain(
      "two more charges of $418.10 CAD ($370.00 + HST $48.10) each",
    );
    // Basic ($149) from the period's end.
    await ctx.container.subscriptions.changePlan(sub.id, { planType: "basic", actor: "customer" }, now);
    const after = await ctx.container.subscriptions.get(sub.id);
    expect(after.scheduledPlanType).toBe("basic");
    const text = chargesText((await ctx.agent().get(`/billing/${token}/cancel`).expect(200)).text);
    expect(text).toContain("two more charges of $168.37 CAD ($149.00 + HST $19.37) each");
    expect(text).toContain(billingDate(after.currentPeriodEnd, TZ));
    expect(text).not.toContain("418.10");
  });

  it("mixes prices when the downgrade applies after the first renewal left", () => {
    const view = {
      subscription: {
        monthlyAmount: 370,
        currentPeriodEnd: "2030-02-01T05:00:00.000Z",
        startedAt: "2030-01-01T05:00:00.000Z",
        provider: "demo",
      },
      invoices: [
        {
          subtotal: 370,
          amount: 418.1,
          status: "paid",
          periodStart: "2030-01-01T05:00:00.000Z",
          taxLines: [{ label: "HST 13%", amountCents: 4810 }],
        },
      ],
    } as unknown as Parameters<typeof chargesLeft>[0];
    const left = chargesLeft(
      view,
      "2030-04-01T04:00:00.000Z",
      TZ,
      new Date("2030-01-15T12:00:00Z"),
      { at: "2030-03-01T05:00:00.000Z", monthlyAmount: 149 },
      "ON",
    );
    // docs/decisions.md#63: each said whole, the home's tax by the tax module's arithmetic.
    expect(left.charges).toEqual([
      {
        at: "2030-02-01T05:00:00.000Z",
        subtotalCents: 37000,
        totalCents: 41810,
        words: "$418.10 CAD ($370.00 + HST $48.10)",
      },
      {
        at: "2030-03-01T05:00:00.000Z",
        subtotalCents: 14900,
        totalCents: 16837,
        words: "$168.37 CAD ($149.00 + HST $19.37)",
      },
    ]);
  });
});
