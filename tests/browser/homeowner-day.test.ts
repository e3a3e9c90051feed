// A homeowner's day, end to end in a real Chromium at 390 px, with every e-mail read at a local SMTP server: buy
// Standard from /pricing, book the inspection and move it in My Home, get the report, ask for a quote, accept it,
// pay it, cancel the plan and undo it. (A Standard plan's first seasonal visit is months away in late autumn, so the
// visit moved is the inspection: every day of the year has one.) Staff's side (the inspection, sharing the report, the quote) is done through the
// services, as the office would in its own pages (tested elsewhere). Screenshots at 390 and 1280 px, axe on each page.
import type { ParsedMail } from "mailparser";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedInspection } from "../api/reports-fixtures.js";
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

const EMAIL = "dominique.lavoie@example.com";

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

/** Runs the worker's queued jobs, then returns the newest e-mail to the homeowner whose subject matches. */
async function mailTo(subject: RegExp): Promise<ParsedMail> {
  await runJobs(site.ctx);
  const theirs = await smtp.mailsTo(EMAIL);
  const mails = theirs.filter((m) => subject.test(m.subject ?? ""));
  expect(mails.length, `${subject} among ${theirs.map((m) => m.subject).join(" | ")}`).toBeGreaterThan(0);
  return mails.at(-1)!;
}

/** The first link in a text that starts with this path. */
function linkIn(mail: ParsedMail, path: string): string {
  const found = new RegExp(`${site.baseUrl}${path}[^\\s)>\\]]*`).exec(mail.text ?? "")?.[0];
  expect(found, `a ${path} link in "${mail.subject}"`).toBeTruthy();
  return found!;
}

async function checkPage(page: Page, name: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await screenshotBothWidths(page, name);
}

describe("a homeowner's day", () => {
  it("buys Standard, books and moves the inspection, reads the report, gets a quote, accepts and pays it, cancels and undoes", async () => {
    const page = await site.newPage(PHONE);

    // 1. Buy Standard from /pricing with the demo card.
    await choosePlan(page, site.baseUrl, "Standard");
    await page.waitForURL(/\/demo-checkout\/demo_cs_[a-f0-9]{24}$/);
    await waitForIslands(page);
    await page.getByLabel("Name on card").fill("Dominique Lavoie");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.waitForURL(/\/property-intake\?session_id=demo_cs_[a-f0-9]{24}&plan=standard$/);
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    await expect.poll(() => page.getByLabel("Full name").inputValue()).toBe("Dominique Lavoie");
    await fillIntake(page);
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    expect(await toastText(page)).toContain("Property Information Saved");
    await page.waitForURL(/\/schedule-inspection\?customer_id=\d+&plan=standard$/);

    const receipt = await mailTo(/receipt/i);
    expect(receipt.text).toMatch(/Invoice: HAV-\d{4}-\d{6}/);
    expect(receipt.text).toContain("Subtotal: $370.00 CAD");
    expect(receipt.text).toContain("HST 13%: $48.10 CAD");
    expect(receipt.text).toContain("Total: $418.10 CAD");

    // 2. Book the inspection in the wizard's last step.
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Schedule", exact: true }).waitFor();
    await page.getByLabel("Property type").selectOption("single-family");
    const { minDate } = site.ctx.container.bookings.calendar();
    await page.getByLabel("Inspection date").fill(minDate);
    await page.getByLabel("Time").selectOption("9:30 AM");
    await page.getByText("Meet inspector at property").click();
    await page.getByRole("button", { name: "Schedule Inspection" }).click();
    await page.waitForURL(/\/booking-confirmation$/);
    await page.getByRole("heading", { name: "Your Inspection is Booked!" }).waitFor();
    await checkPage(page, "day-booked");
    const booked = await mailTo(/inspection is booked/);
    expect(booked.attachments.some((a) => a.contentType.startsWith("text/calendar"))).toBe(true);

    const property = await site.ctx
      .db("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .where("c.email", EMAIL)
      .first("p.id", "p.property_type");
    expect(property.property_type).toBe("single-family");

    // 3. Sign in to My Home from the e-mailed link, and move the inspection to another free time.
    await page.goto(`${site.baseUrl}/my-home`);
    await page.waitForURL(/\/my-home\/sign-in/);
    await page.locator("[data-email-form]").getByLabel("E-mail address").fill(EMAIL);
    await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await page.getByTestId("sign-in-message").waitFor();
    await page.goto(linkIn(await mailTo(/Your Haven sign-in/), "/my-home/sign-in/"));
    await page.getByRole("button", { name: "Continue to My Home" }).click();
    await page.waitForURL(`${site.baseUrl}/my-home`);
    await page.goto(`${site.baseUrl}/my-home/visits`);
    await page.getByTestId("visit-change").first().click();
    await page.getByRole("heading", { name: "Your inspection" }).waitFor();
    // The first free time on another day than the one booked.
    const when = page.locator(`input[name="when"]:not([value^="${minDate}|"])`).first();
    const [movedTo, slot] = (await when.getAttribute("value"))!.split("|");
    await when.check();
    await checkPage(page, "day-reschedule");
    await page.getByTestId("reschedule-submit").click();
    await page.getByText("Your inspection is moved").waitFor();
    const booking = await site.ctx.db("inspection_bookings").where({ property_id: property.id }).first();
    expect(booking).toMatchObject({ scheduled_date: movedTo, time_slot: slot });
    const moved = await mailTo(/inspection is rescheduled/);
    expect(moved.text).not.toMatch(/Rescheduled by the homeowner/);

    // 4. The inspection is done and the report shared, as the office does; the homeowner reads it from the e-mail.
    const { inspectionId } = await completedInspection(
      site.ctx.container,
      [
        { categoryName: "Plumbing", subcategoryName: "Hot Water System", score: 4, notes: "Weeping at the valve" },
        { categoryName: "Roof", subcategoryName: "Gutters", score: 10 },
      ],
      { propertyId: property.id, inspectionDate: movedTo! },
    );
    const report = await site.ctx.container.reports.generate(inspectionId);
    await site.ctx.container.sharing.share(report.id, EMAIL, site.baseUrl);
    const shared = await mailTo(/Health Report is ready/);
    await page.goto(linkIn(shared, "/client-report/"));
    await waitForIslands(page);
    await page.getByText("Hot Water System").first().waitFor();
    await checkPage(page, "day-report");

    // 5. Ask for a quote on the report's item in My Home.
    await page.goto(`${site.baseUrl}/my-home/quotes`);
    const [rec] = report.reportData.recommendations as { id: number }[];
    const ask = page.locator(`[data-ask-item="${rec!.id}"]`);
    await ask.getByLabel("Notes for the quote (optional)").fill("Can you come on a Friday?");
    await ask.getByRole("button", { name: /Ask for a quote/ }).click();
    await page.waitForURL(/\/my-home\/quotes/);
    const quoteId = (await site.ctx.db("quote_requests").where({ maintenance_task_id: rec!.id }).first("id")).id;
    await page.locator(`[data-home-quote="${quoteId}"] [data-quote-status]`).getByText("Requested").waitFor();

    // 6. The office quotes it with a scope; the homeowner is e-mailed, reads the document and accepts.
    await site.ctx.container.quotes.update(quoteId, {
      status: "quoted",
      quotedAmount: "$640",
      scope: "Replace the hot water tank's relief valve and test the tank.",
      adminNotes: "Supplier: Emco, part on hand",
    });
    const ready = await mailTo(/quote is ready/);
    expect(ready.text).toContain("Replace the hot water tank's relief valve");
    expect(ready.text).not.toContain("Emco");
    await page.goto(`${site.baseUrl}/my-home/quotes`);
    const quote = page.locator(`[data-home-quote="${quoteId}"]`);
    expect(await quote.innerText()).toContain("Replace the hot water tank's relief valve");
    expect(await quote.innerText()).toContain("$723.20");
    expect(await quote.innerText()).not.toContain("Emco");
    await checkPage(page, "day-quote");
    await quote.locator("[data-accept]").click();
    await page.waitForURL(/\/my-home\/quotes\?done=accepted/);
    expect(await site.ctx.db("notifications").where({ kind: "quote-accepted" })).toHaveLength(1);
    const accepted = await mailTo(/Quote accepted/);
    expect(accepted.text).toContain("$723.20");

    // 7. Pay it from My Home with the demo card; the receipt arrives.
    await page.locator(`[data-home-quote="${quoteId}"] [data-pay-quote]`).click();
    await waitForIslands(page);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
    await page.getByLabel("CVC").fill("123");
    await checkPage(page, "day-quote-pay");
    await page.getByTestId("quote-pay-submit").click();
    await page.locator("[data-quote-paid]").waitFor();
    const paidReceipt = await mailTo(/^Receipt HAV-/);
    expect(paidReceipt.text).toContain("$723.20");
    const invoices = await site.ctx.db("invoices").where({ quote_request_id: quoteId });
    expect(invoices).toMatchObject([{ status: "paid", amount_cents: 72320 }]);

    // 8. Cancel the plan, with its end date stated first, then undo it; both are e-mailed.
    await page.goto(`${site.baseUrl}/my-home/plan`);
    await page.getByRole("link", { name: "Cancel my plan" }).click();
    await page.getByTestId("cancel-explained").getByText("when the 3-month minimum ends").waitFor();
    await page.getByRole("button", { name: /^Yes, cancel on/ }).click();
    await page.getByText("Your cancellation is scheduled").waitFor();
    await mailTo(/cancellation is scheduled/);
    await page.getByRole("button", { name: "Undo cancellation" }).click();
    await page.getByText("Your cancellation is undone").waitFor();
    await checkPage(page, "day-cancel-undone");
    await mailTo(/cancellation is undone/);
    const sub = await site.ctx.db("subscriptions").where({ payer_email: EMAIL }).first();
    expect(sub).toMatchObject({ status: "active", cancel_at: null });
    await page.context().close();
  });
});
