// Paying an accepted quote (docs/decisions.md#43) in a real Chromium, on a phone: My Home's quotes → Accept → "Pay
// $734.50" → the pay page (the invoice's figures, the demo card form) → 4242 → the receipt on the page, the paid
// invoice and its PDF in My Home, the receipt e-mail queued. axe on each page; screenshots at 390 and 1280 px
// (SCREENSHOTS=1).
import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSite,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import { sharedReportFixture } from "../api/sharing-fixtures.js";

let site: BrowserSite;
let email: string;
let quoteId: number;

beforeAll(async () => {
  site = await openBrowserSite();
  const { container, db } = site.ctx;
  email = `odette-${randomBytes(3).toString("hex")}@example.ca`;
  const { property } = await container.customers.createWithProperty(
    { email, name: "Odette Tremblay", phone: "613-555-0100", subscriptionPlan: "standard" },
    { address: "1420 Rue Principale", city: "Orléans", province: "ON", postalCode: "K1C 1A1" },
  );
  const [task] = await db("maintenance_tasks")
    .insert({ property_id: property.id, title: "Replace the water heater", status: "pending" })
    .returning("id");
  [{ id: quoteId }] = await db("quote_requests")
    .insert({
      property_id: property.id,
      maintenance_task_id: task.id,
      status: "quoted",
      priority: "high",
      quoted_amount: "$650",
      quoted_cents: 65000,
      quoted_at: new Date(),
    })
    .returning("id");
});
afterAll(() => site?.close());

async function homeownerPhone(): Promise<Page> {
  const page = await site.newPage(PHONE);
  const { token } = await site.ctx.container.homeAuth.createSession(email, { method: "link" });
  await page
    .context()
    .addCookies([{ name: "haven_home", value: token, url: site.baseUrl, httpOnly: true, sameSite: "Lax" }]);
  return page;
}

describe("paying an accepted quote from My Home", () => {
  it("accept, Pay $734.50, the demo card 4242, then the receipt and the paid invoice", async () => {
    const page = await homeownerPhone();
    await page.goto(`${site.baseUrl}/my-home/quotes`);
    const card = page.locator(`[data-home-quote="${quoteId}"]`);
    await card.getByRole("button", { name: /Accept/ }).click();
    await page.waitForURL(/\/my-home\/quotes/);
    const pay = page.locator(`[data-home-quote="${quoteId}"] [data-pay-quote]`);
    await pay.waitFor();
    // Its name says what it pays for (the words after the price are for screen readers only).
    expect(await pay.getAttribute("href")).toBe(`/my-home/quotes/${quoteId}/pay`);
    await card.getByRole("link", { name: "Pay $734.50 for Replace the water heater" }).waitFor();
    await expectAccessible(page);
    await screenshotBothWidths(page, "quote-pay-my-home-accepted");

    await pay.click();
    await page.waitForURL(`${site.baseUrl}/my-home/quotes/${quoteId}/pay`);
    await waitForIslands(page);
    const figures = page.locator("[data-invoice-figures]");
    expect((await figures.innerText()).replace(/\s+/g, " ")).toBe(
      "Price before tax $650.00 HST 13% $84.50 Total $734.50",
    );
    const number = (await page.locator("[data-invoice-number]").innerText()).trim();
    expect(number).toMatch(/^HAV-\d{4}-\d{6}$/);
    // The name and e-mail come filled in; the card by keyboard.
    expect(await page.getByLabel("Name on card").inputValue()).toBe("Odette Tremblay");
    await expectAccessible(page);
    await screenshotBothWidths(page, "quote-pay-form");
    await page.getByLabel("Card number").fill("4000 0000 0000 0002");
    await page.getByLabel("Expiry (MM / YY)").fill("1234");
    await page.getByLabel("CVC").fill("123");
    await page.getByLabel("CVC").press("Enter");
    await page.getByTestId("payment-failure").waitFor();
    expect(await page.getByTestId("payment-failure").innerText()).toContain("Your card was declined.");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByTestId("quote-pay-submit").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/my-home\/quotes\/\d+\/pay\?paid=1/);
    const thanks = page.locator("[data-quote-paid]");
    await thanks.waitFor();
    expect(await thanks.innerText()).toContain("we received $734.50");
    expect(await page.locator("[data-quote-pay]").getAttribute("data-invoice-status")).toBe("paid");
    await expectAccessible(page);
    await screenshotBothWidths(page, "quote-pay-paid");

    // The receipt e-mail is queued with the invoice's number; My Home shows the paid invoice and its PDF.
    const receipts = await site.ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' and j.payload->>'subject' = ?",
      [`Receipt ${number}: Replace the water heater`],
    );
    expect(receipts.rows).toHaveLength(1);
    expect(receipts.rows[0].payload.to).toBe(email);
    await page.goto(`${site.baseUrl}/my-home/quotes`);
    const paid = page.locator(`[data-home-quote="${quoteId}"] [data-quote-invoice="paid"]`);
    await paid.waitFor();
    expect(await paid.innerText()).toContain(`Paid $734.50. Invoice ${number} (PDF)`);
    const pdf = await page.request.get(`${site.baseUrl}/my-home/quotes/${quoteId}/invoice.pdf`);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    await expectAccessible(page);
    await screenshotBothWidths(page, "quote-pay-my-home-paid");
    await page.context().close();
  });

  it("the office books it in the calendar's task dialog; the homeowner is e-mailed the date and My Home shows it", async () => {
    const login = { email: "booker@haven.test", password: "quote-pay-booker-password" };
    await site.ctx.container.users.create({ ...login, firstName: "Bea", lastName: "Booker" });
    const staff = await site.newPage();
    await staff.goto(`${site.baseUrl}/login?next=${encodeURIComponent("/admin/quotes-to-book")}`);
    await staff.getByLabel("Company e-mail").fill(login.email);
    await staff.getByLabel("Password").fill(login.password);
    await staff.getByRole("button", { name: "Sign In" }).click();
    await staff.waitForURL(`${site.baseUrl}/admin/quotes-to-book`);
    await waitForIslands(staff);
    const row = staff.locator(`[data-to-book="${quoteId}"]`);
    expect(await row.textContent()).toContain("To book");
    await expectAccessible(staff);
    await screenshotBothWidths(staff, "quote-pay-to-book");
    await row.getByRole("button", { name: /^Book/ }).click();
    const dialog = staff.getByRole("dialog", { name: "Task Details" });
    await dialog.waitFor();
    await dialog.getByLabel("Date").fill("2031-03-04");
    await dialog.getByLabel("Time").fill("13:30");
    await dialog.getByLabel("Assigned to").selectOption({ label: "Bea Booker" });
    await expectAccessible(staff);
    await dialog.getByRole("button", { name: "Update Task" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row.getByText("Booked", { exact: true }).waitFor();
    expect(await row.locator("[data-booking]").innerText()).toBe("Tuesday, March 4, 2031, 01:30 PM · Bea Booker");
    await screenshotBothWidths(staff, "quote-pay-booked");
    await staff.context().close();

    expect(await site.ctx.container.quotePayments.mailBookings(new Date("2031-03-01T15:00:00Z"))).toBe(1);
    const booked = await site.ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' and j.payload->>'subject' like 'Booked:%'",
    );
    expect(booked.rows.map((r: { payload: { to: string; subject: string } }) => r.payload)).toEqual([
      expect.objectContaining({
        to: email,
        subject: "Booked: Replace the water heater on Tuesday, March 4, 2031, 01:30 PM",
      }),
    ]);
    const home = await homeownerPhone();
    await home.goto(`${site.baseUrl}/my-home/quotes`);
    const when = home.locator(`[data-home-quote="${quoteId}"] [data-quote-booked]`);
    await when.waitFor();
    expect(await when.innerText()).toBe("Booked for Tuesday, March 4, 2031, 01:30 PM: Bea comes.");
    await expectAccessible(home);
    await screenshotBothWidths(home, "quote-pay-my-home-booked");
    await home.context().close();
  });
});

// One pass in French (docs/decisions.md#65): a customer whose language is French opens her e-mailed sign-in link at
// its /fr address, reads My Home and her report, accepts the quote and pays it; every page says <html lang="fr-CA">.
describe("in French", () => {
  it("a French customer signs in, reads My Home and her report, accepts the quote and pays it", async () => {
    const { db, container } = site.ctx;
    const fixture = await sharedReportFixture(site.ctx, "2100 Rue Sherbrooke");
    const customer = await db("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .where("p.id", fixture.propertyId)
      .first("c.id", "c.email");
    await db("customers").where({ id: customer.id }).update({ locale: "fr-CA" });
    const [{ id: frQuoteId }] = await db("quote_requests")
      .insert({
        property_id: fixture.propertyId,
        maintenance_task_id: fixture.taskIds[0],
        status: "quoted",
        priority: "high",
        quoted_amount: "$650",
        quoted_cents: 65000,
        quoted_at: new Date(),
      })
      .returning("id");
    const page = await site.newPage(PHONE);
    const french = async (name: string) => {
      expect(await page.getAttribute("html", "lang")).toBe("fr-CA");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(page);
      await screenshotBothWidths(page, `fr-${name}`);
    };

    const { url } = await container.homeAuth.signInLink(customer.email);
    await page.goto(`${site.baseUrl}/fr${new URL(url).pathname}`);
    await french("sign-in-link");
    await page.getByRole("button", { name: "Continuer vers Ma maison" }).click();
    await page.waitForURL(`${site.baseUrl}/fr/my-home`);
    await page.getByText("Indice de santé").waitFor();
    await page.getByText("Une soumission attend votre réponse").waitFor();
    await french("my-home");

    await page.getByRole("link", { name: "Dernier rapport de 2100 Rue Sherbrooke" }).click();
    await page.waitForURL(/\/fr\/my-home\/reports\/\d+$/);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Votre Rapport santé Haven" }).waitFor();
    await page.getByRole("heading", { name: "Détail par catégorie" }).waitFor();
    expect(await page.locator("[data-categories]").innerText()).toContain("Plomberie");
    await french("report");

    await page.getByRole("link", { name: "Soumissions", exact: true }).click();
    await page.waitForURL(`${site.baseUrl}/fr/my-home/quotes`);
    const card = page.locator(`[data-home-quote="${frQuoteId}"]`);
    await card.getByRole("button", { name: /^Accepter/ }).click();
    await page.waitForURL(/\/fr\/my-home\/quotes\?done=accepted/);
    await page.getByText("Soumission acceptée.", { exact: false }).first().waitFor();
    const pay = card.locator("[data-pay-quote]");
    await pay.waitFor();
    expect(await pay.innerText()).toMatch(/^Payer \d+,\d{2}\u00a0\$/);
    await french("quotes-accepted");

    await pay.click();
    await page.waitForURL(`${site.baseUrl}/fr/my-home/quotes/${frQuoteId}/pay`);
    await waitForIslands(page);
    expect((await page.locator("[data-invoice-figures]").innerText()).replace(/\s+/g, " ")).toMatch(
      /^Prix avant taxes 650,00 \$ .+ Total \d+,\d{2} \$$/,
    );
    expect(await page.getByLabel("Nom sur la carte").inputValue()).not.toBe("");
    await french("quote-pay-form");
    await page.getByLabel("Numéro de carte").fill("4242 4242 4242 4242");
    await page.getByLabel(/Date d.expiration/).fill("1234");
    await page.getByLabel("Code de sécurité (CVC)").fill("123");
    await page.getByTestId("quote-pay-submit").click();
    await page.waitForURL(/\/fr\/my-home\/quotes\/\d+\/pay\?paid=1/);
    await page.locator("[data-quote-paid]").waitFor();
    expect(await page.locator("[data-quote-paid]").innerText()).toMatch(
      /^Merci\u00a0: nous avons reçu \d+,\d{2}\u00a0\$ le \d+ \p{L}+ \d{4}\./u,
    );
    await french("quote-paid");
    await page.context().close();
  });
});
