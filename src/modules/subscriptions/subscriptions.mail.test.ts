import { describe, expect, it } from "vitest";
import { type BillingMailData, type BillingMailKind, billingMail } from "./subscriptions.mail.js";

const base: BillingMailData = {
  to: "morgan@example.com",
  name: "Morgan Reyes",
  planName: "Standard",
  // Midnight in Toronto: the instants the service stores for period and term boundaries.
  minimumTermEndsAt: "2026-04-30T04:00:00.000Z",
  link: "https://haven.example.com/billing/7.1790000000.abc",
  supportEmail: "support@havenhomehealth.ca",
  supportPhone: "(613) 555-0142",
  timeZone: "America/Toronto",
};

const KINDS: BillingMailKind[] = [
  "receipt",
  "payment_failed",
  "cancel_scheduled",
  "canceled",
  "plan_changed",
  "refund",
];

describe("billing e-mails", () => {
  it.each(KINDS)(
    "%s: states the minimum-term date in the business zone, the billing link and the support contacts, in text and HTML",
    (kind) => {
      const mail = billingMail(kind, { ...base, cancelAt: base.minimumTermEndsAt });
      expect(mail.to).toBe(base.to);
      for (const body of [mail.text, mail.html!]) {
        // 04:00 UTC on April 30 is April 30 in Toronto (it would read April 29 in a zone west of UTC−4).
        expect(body).toContain("April 30, 2026");
        expect(body).toContain(base.link);
        expect(body).toContain(base.supportEmail);
        expect(body).toContain(base.supportPhone);
      }
      expect(mail.html).toContain(`<a href="${base.link}">`);
    },
  );

  it("a receipt gives the amount, the period, the plan and the card", () => {
    const mail = billingMail("receipt", {
      ...base,
      amount: 370,
      periodStart: "2026-01-31T05:00:00.000Z",
      periodEnd: "2026-02-28T05:00:00.000Z",
      cardLast4: "4242",
    });
    expect(mail.subject).toMatch(/receipt/i);
    expect(mail.text).toContain("Amount: $370.00 CAD");
    expect(mail.text).toContain("Period: January 31, 2026 to February 28, 2026");
    expect(mail.text).toContain("Plan: Standard");
    expect(mail.text).toContain("Card: ending in 4242");
  });

  it("a failed payment gives the reason and asks for a new card", () => {
    const mail = billingMail("payment_failed", { ...base, amount: 370, reason: "Your card was declined." });
    expect(mail.subject).toMatch(/payment failed/i);
    expect(mail.text).toContain("Reason: Your card was declined.");
    expect(mail.text).toContain(`Update your card:\n${base.link}`);
  });

  it("a scheduled cancellation says when it takes effect and that it can be undone until then", () => {
    const early = billingMail("cancel_scheduled", { ...base, cancelAt: base.minimumTermEndsAt });
    expect(early.subject).toMatch(/cancellation is scheduled/i);
    expect(early.text).toContain("will end on April 30, 2026, when the 3-month minimum term ends");
    expect(early.text).toContain("undo the cancellation until April 30, 2026");
    const late = billingMail("cancel_scheduled", { ...base, cancelAt: "2026-06-30T04:00:00.000Z" });
    expect(late.text).toContain("will end on June 30, 2026, at the end of the paid month");
  });

  it("a finished cancellation and a plan change name their dates and plans", () => {
    const ended = billingMail("canceled", { ...base, effectiveAt: "2026-04-30T04:00:00.000Z" });
    expect(ended.subject).toMatch(/has ended/i);
    expect(ended.text).toContain("has ended on April 30, 2026");
    expect(ended.text).toContain("https://haven.example.com/pricing");
    const changed = billingMail("plan_changed", {
      ...base,
      fromPlanName: "Premium",
      toPlanName: "Basic",
      effectiveAt: "2026-03-31T04:00:00.000Z",
    });
    expect(changed.subject).toBe("Your Haven plan changes from Premium to Basic");
    expect(changed.text).toContain("from Premium to Basic on March 31, 2026");
  });

  it("escapes what it puts in the HTML", () => {
    const mail = billingMail("receipt", { ...base, name: "<b>Pat</b>" });
    expect(mail.html).toContain("&#60;b&#62;Pat");
    expect(mail.html).not.toContain("<b>Pat");
  });

  it("a receipt of a numbered invoice: subtotal, each tax, total, the GST/HST number and the PDF (docs/decisions.md#33)", () => {
    const mail = billingMail("receipt", {
      ...base,
      invoice: {
        id: 7,
        number: "HAV-2027-000123",
        subtotalCents: 41200,
        taxLines: [{ label: "HST 13%", amountCents: 5356 }],
        totalCents: 46556,
      },
      registrationNumber: "123456789 RT0001",
      pdfLink: "https://haven.example.com/my-home/plan/invoices/7/pdf",
    });
    expect(mail.subject).toBe("Your Haven receipt: $465.56 CAD");
    for (const line of [
      "Invoice: HAV-2027-000123",
      "Subtotal: $412.00 CAD",
      "HST 13%: $53.56 CAD",
      "Total: $465.56 CAD",
      "GST/HST registration: 123456789 RT0001",
      "https://haven.example.com/my-home/plan/invoices/7/pdf",
    ])
      expect(mail.text).toContain(line);
  });

  it("a refund says what goes back, its tax and why (docs/decisions.md#34)", () => {
    const mail = billingMail("refund", {
      ...base,
      reason: "Missed visit",
      invoice: { id: 7, number: "HAV-2027-000123", subtotalCents: 41200, taxLines: [], totalCents: 46556 },
      refund: { amountCents: 10000, taxLines: [{ label: "HST 13%", amountCents: 1150 }] },
    });
    expect(mail.subject).toBe("Your Haven refund: $100.00 CAD");
    expect(mail.text).toContain("invoice HAV-2027-000123");
    expect(mail.text).toContain("of which HST 13%: $11.50 CAD");
    expect(mail.text).toContain("Reason: Missed visit");
  });
});
