// One word for one thing (docs/decisions.md#41): a declined renewal's reason reads with one full stop on the staff
// page, as on the homeowner's billing page; the homeowner's report PDF is covered in reports.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_RENEWAL_DECLINE } from "../../src/modules/subscriptions/index.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

const DAY = 24 * 60 * 60 * 1000;

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
let subId: number;

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: "America/Toronto" });
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
  // Started 40 days ago on the card whose renewals fail: the renewal due since leaves it past due.
  const sub = await ctx.container.subscriptions.startDemo(
    {
      checkoutRef: `demo_cs_test_one_word_${Date.now()}`,
      planType: "standard",
      amountCents: 37000,
      payerEmail: "dana.declined@example.com",
      payerName: "Dana Declined",
      cardNumber: "4000000000000341",
    },
    new Date(Date.now() - 40 * DAY),
  );
  subId = sub.id;
  await ctx.container.subscriptions.renewDue(new Date());
});
afterAll(() => ctx?.close());

describe("the declined card's reason", () => {
  it("reads 'Your card was declined.' once, with one full stop, on the staff page", async () => {
    const sub = await ctx.container.subscriptions.get(subId);
    expect(sub.status).toBe("past_due");
    expect(sub.lastPaymentError).toBe(DEMO_RENEWAL_DECLINE);
    const page = await staff.agent.get(`/admin/subscriptions/${subId}`).expect(200);
    const alert = /data-testid="past-due-alert">([^<]*(?:<[^/][^>]*>[^<]*)*)<\/p>/.exec(page.text)?.[1] ?? "";
    expect(alert).toBe("Payment past due: Your card was declined. Plan visits are held until it is paid.");
    expect(page.text).not.toMatch(/declined\.\./);
  });
});
