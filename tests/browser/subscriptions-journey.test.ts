// A subscriber's journey in demo mode (docs/decisions.md#23–#25): buy Standard from /pricing (the 3-month minimum
// stated before paying), complete the intake, read the receipt at a real local SMTP server, open its billing link,
// cancel (the date said before and after), undo; then the demo card page. axe and screenshots at 390 and 1280 px.
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingDate } from "../../src/modules/subscriptions/index.js";
import {
  type BrowserSite,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import { choosePlan, fillIntake, toastText } from "../support/purchase.js";
import { runJobs } from "../support/jobs.js";
import { type Smtp, startSmtp } from "../support/smtp.js";

const MINIMUM = "Billed monthly. 3-month minimum subscription, cancel anytime afterwards.";
const EMAIL = "morgan.reyes@example.com";

let smtp: Smtp;
let site: BrowserSite;
beforeAll(async () => {
  smtp = await startSmtp();
  site = await openBrowserSite({ env: { MAIL_MODE: "smtp", SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

/** Sends the queued e-mails as the worker does, then the ones that reached the SMTP server for this address. */
async function mailsTo(address: string): Promise<ParsedMail[]> {
  await runJobs(site.ctx);
  return smtp.mailsTo(address);
}

describe("a homeowner's subscription, from /pricing to cancelling from the e-mailed link", () => {
  it("buys Standard, gets the receipt, cancels from its link and sees the date, then undoes it", async () => {
    const page = await site.newPage(PHONE);
    await choosePlan(page, site.baseUrl, "Standard", async () => {
      expect(await page.getByTestId("minimum-term").innerText()).toBe(MINIMUM);
      await screenshotBothWidths(page, "pricing-minimum-term");
    });
    await page.waitForURL(/\/demo-checkout\/demo_cs_[a-f0-9]{24}$/);
    await waitForIslands(page);
    await page.getByRole("button", { name: "Subscribe" }).waitFor();
    // Next to the pay button, before any card is typed.
    expect(await page.getByTestId("minimum-term").innerText()).toBe(MINIMUM);
    await screenshotBothWidths(page, "demo-checkout-minimum-term");
    await page.getByLabel("Name on card").fill("Morgan Reyes");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Subscribe" }).click();

    await page.waitForURL(/\/property-intake\?session_id=demo_cs_[a-f0-9]{24}&plan=standard$/);
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe(EMAIL);
    await fillIntake(page);
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    expect(await toastText(page)).toContain("Property Information Saved");
    await page.waitForURL(/\/schedule-inspection\?customer_id=\d+&plan=standard$/);

    const sub = (await site.ctx.container.subscriptions.list({ limit: 10, offset: 0 })).rows.find(
      (s) => s.customerEmail === EMAIL,
    )!;
    expect(sub).toMatchObject({ planType: "standard", status: "active", monthlyAmount: 370 });
    expect(sub.propertyId).not.toBeNull();

    // The receipt, as the SMTP server received it: the invoice's number and figures (no postal code was typed, so
    // the business's province taxes it: docs/decisions.md#32), the plan, the minimum-term date and the link.
    const receipt = (await mailsTo(EMAIL)).find((m) => /receipt/i.test(m.subject ?? ""))!;
    expect(receipt.text).toMatch(/Invoice: HAV-\d{4}-\d{6}/);
    expect(receipt.text).toContain("Subtotal: $370.00 CAD");
    expect(receipt.text).toContain("HST 13%: $48.10 CAD");
    expect(receipt.text).toContain("Total: $418.10 CAD");
    expect(receipt.text).toContain("Plan: Standard");
    const minimumEnd = billingDate(sub.minimumTermEndsAt, site.ctx.env.BUSINESS_TZ);
    expect(receipt.text).toContain(`ending ${minimumEnd}`);
    const link = new RegExp(`${site.baseUrl}/billing/[\\w.-]+`).exec(receipt.text ?? "")![0];

    // The billing page the link opens.
    await page.goto(link);
    await page.getByRole("heading", { name: "Your Haven plan" }).waitFor();
    expect(await page.getByTestId("billing-plan").innerText()).toBe("Haven Standard, $370.00 CAD a month before tax");
    expect(await page.getByTestId("billing-status").innerText()).toBe("Active");
    expect(await page.getByTestId("billing-minimum-term").innerText()).toBe(`Ends on ${minimumEnd}`);
    expect(await page.getByTestId("billing-invoices").innerText()).toContain("$418.10 CAD");
    await expectAccessible(page);
    await screenshotBothWidths(page, "billing-page");

    // Cancelling says when it would take effect before anything is done.
    await page.getByRole("link", { name: "Cancel my plan" }).click();
    await page.getByRole("heading", { name: "Cancel your Haven Standard plan?" }).waitFor();
    expect(await page.getByTestId("cancel-explained").innerText()).toContain(
      `Your plan will end on ${minimumEnd}, when the 3-month minimum ends.`,
    );
    expect((await site.ctx.container.subscriptions.get(sub.id)).cancelAt).toBeNull();
    await expectAccessible(page);
    await screenshotBothWidths(page, "billing-cancel");
    await page.getByLabel("Tell us why (optional)").fill("Moving to Calgary");
    await page.getByRole("button", { name: `Yes, cancel on ${minimumEnd}` }).click();

    await page.getByTestId("billing-cancel-scheduled").waitFor();
    expect(await page.getByTestId("billing-flash").innerText()).toContain("Your cancellation is scheduled");
    expect(await page.getByTestId("billing-cancel-scheduled").innerText()).toContain(
      `Your plan will end on ${minimumEnd}.`,
    );
    expect((await site.ctx.container.subscriptions.get(sub.id)).cancelAt).toBe(sub.minimumTermEndsAt);
    await expectAccessible(page);
    await screenshotBothWidths(page, "billing-cancel-scheduled");
    const scheduled = (await mailsTo(EMAIL)).find((m) => /cancellation is scheduled/i.test(m.subject ?? ""))!;
    expect(scheduled.text).toContain(`undo the cancellation until ${minimumEnd}`);

    await page.getByRole("button", { name: "Undo cancellation" }).click();
    await page.getByText("Your cancellation is undone: your plan continues.").waitFor();
    expect(await page.getByTestId("billing-cancel-scheduled").count()).toBe(0);
    expect((await site.ctx.container.subscriptions.get(sub.id)).cancelAt).toBeNull();

    // The demo card page: a declined card is named on its field, a good one goes back to the plan.
    await page.getByRole("link", { name: "Update card" }).first().click();
    await page.getByRole("heading", { name: "Update your card" }).waitFor();
    await expectAccessible(page);
    await page.getByLabel("Card number").fill("4000 0000 0000 0002");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Save card" }).click();
    await page.getByTestId("card-number-error").waitFor();
    expect(await page.getByTestId("card-number-error").innerText()).toBe("Your card was declined.");
    await expectAccessible(page);
    await screenshotBothWidths(page, "billing-card-declined");
    await page.getByLabel("Card number").fill("5555 5555 5555 4444");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Save card" }).click();
    await page.getByText("Your card is updated.").waitFor();
    expect(await page.getByTestId("billing-card").innerText()).toBe("Ending in 4444");
    await page.context().close();
  });

  it("an expired or forged link says to use the latest e-mail or call", async () => {
    const page = await site.newPage();
    const response = await page.goto(`${site.baseUrl}/billing/1.1000000000.${"A".repeat(43)}`);
    expect(response?.status()).toBe(404);
    expect(await page.getByTestId("billing-link-problem").innerText()).toContain(
      "Please use the link in your latest Haven e-mail",
    );
    await expectAccessible(page);
    await page.context().close();
  });
});
