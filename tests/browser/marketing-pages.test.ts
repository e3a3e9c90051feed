import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleReport } from "../../seeds/sample-report.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
} from "../support/browser.js";

let site: BrowserSite;
const CONTACT = {
  CONTACT_PHONE: "(306) 555-0199",
  CONTACT_EMAIL: "care@haven.test",
  SUPPORT_EMAIL: "support@haven.test",
};

beforeAll(async () => {
  site = await openBrowserSite({ env: CONTACT });
});
afterAll(() => site?.close());

const newPage = (size = DESKTOP) => site.newPage(size, { reducedMotion: "reduce" });

const url = (path: string) => `${site.baseUrl}${path}`;

/** The link named exactly `name` (first one, or within `scope`) has this href. */
async function expectLink(scope: Page | ReturnType<Page["locator"]>, name: string, href: string) {
  const link = scope.getByRole("link", { name, exact: true }).first();
  expect(await link.getAttribute("href"), name).toBe(href);
  expect(await link.isVisible(), `${name} visible`).toBe(true);
}

const texts = async (page: Page, selector: string) =>
  (await page.locator(selector).allInnerTexts()).map((t) => t.trim());

async function finish(page: Page, name: string) {
  await expectAccessible(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshotBothWidths(page, name);
  await page.context().close();
}

describe("marketing pages", () => {
  it("home: hero, five steps, comparison, search mockup, journey and closing", async () => {
    const page = await newPage();
    await page.goto(url("/contact"));
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Home", exact: true })
      .last()
      .click();
    await page.waitForURL(url("/"));
    await expectLink(page, "Get Free Score", "/onboarding-flow");
    const sample = page.getByRole("link", { name: "See a Sample Report", exact: true });
    expect(await sample.getAttribute("href")).toBe("/client-report/sample");
    expect(await sample.getAttribute("data-popup")).not.toBeNull();
    expect(
      (await page.locator("section[aria-labelledby=how-title] ol h3").allTextContents()).map((t) =>
        t.replace(/^Step \d: /, ""),
      ),
    ).toEqual(["Schedule", "Inspect", "Report", "Request Help", "Concierge"]);
    expect(await page.getByRole("heading", { name: "Without Haven", exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "With Haven", exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "The search engine, or Haven" }).isVisible()).toBe(true);
    await expectLink(page, "Start Your Journey", "/pricing");
    await expectLink(page, "Get Free Health Score", "/onboarding-flow");
    expect(await texts(page, "[data-demo-step]")).toHaveLength(5);
    expect(await texts(page, "[data-demo-quote]")).toEqual(["Get Quote", "Get Quote", "Get Quote", "Get Quote"]);
    await finish(page, "marketing-home");
  });

  it("pricing: three plans from the table, nine services, free score block and FAQ", async () => {
    const page = await newPage();
    await page.goto(url("/"));
    await page.locator("[data-site-nav] .md\\:flex").getByRole("link", { name: "Pricing", exact: true }).click();
    await page.waitForURL(url("/pricing"));
    // Clean of axe's moderate findings too (landmark-unique: each region named apart).
    await expectAccessible(page, { moderate: true });
    expect(await texts(page, "[data-plan] h3")).toEqual(["Basic", "Standard", "Premium"]);
    expect(await texts(page, "[data-plan-price]")).toEqual(["$149", "$370", "$799"]);
    expect(await texts(page, "[data-plan-coverage]")).toEqual(["40% coverage", "60% coverage", "100% coverage"]);
    expect(await page.locator('[data-plan="standard"]').getByText("Most Popular", { exact: true }).isVisible()).toBe(
      true,
    );
    expect(
      await page
        .locator("form[data-checkout-form] input[name=planType]")
        .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
    ).toEqual(["basic", "standard", "premium"]);
    expect(await page.getByRole("heading", { name: "What's Included", exact: true }).isVisible()).toBe(true);
    expect(await page.locator("details[data-service]").count()).toBe(9);
    expect(await texts(page, "details[data-service] .when-closed")).toEqual(Array(9).fill("View details"));
    expect(await page.getByRole("heading", { name: "Not Ready to Invest?", exact: true }).isVisible()).toBe(true);
    expect(await page.locator('[data-dial][data-value="75"]').count()).toBe(1);
    await expectLink(page, "Get My Free Score", "/onboarding-flow");
    const faq = (await page.locator("details[data-faq]").allTextContents()).join(" ");
    expect(faq).toContain("3-month minimum subscription");
    expect(faq).toContain("cancel anytime");
    expect(faq).toContain("No hidden fees");
    expect(faq).toContain("quoted before");
    await finish(page, "marketing-pricing");
  });

  it("/fr/pricing at 390 px: French, lang fr-CA, the switch back to English in English, and clean for axe", async () => {
    const page = await newPage(PHONE);
    await page.goto(url("/fr/pricing?checkout_error=1"));
    expect(await page.locator("html").getAttribute("lang")).toBe("fr-CA");
    await expectAccessible(page, { moderate: true });
    expect(await texts(page, "[data-plan-price]")).toEqual(["149\u00a0$", "370\u00a0$", "799\u00a0$"]);
    expect(await texts(page, "[data-plan-coverage]")).toEqual([
      "Couverture de 40\u00a0%",
      "Couverture de 60\u00a0%",
      "Couverture de 100\u00a0%",
    ]);
    const english = page.getByRole("link", { name: "English", exact: true });
    expect(await english.getAttribute("lang")).toBe("en-CA");
    expect(await english.getAttribute("href")).toBe("/pricing?checkout_error=1");
    // No redirect and no suggestion on a French page, whatever the browser prefers.
    expect(await page.locator("[data-lang-suggest]").count()).toBe(0);
    await page.context().close();
  });

  it("a browser that prefers French is offered the French page in one dismissible line, never redirected", async () => {
    const page = await site.newPage(PHONE, { reducedMotion: "reduce", locale: "fr-CA" });
    await page.goto(url("/pricing?x=1"));
    expect(page.url()).toBe(url("/pricing?x=1"));
    const line = page.locator("[data-lang-suggest]");
    expect(await line.isVisible()).toBe(true);
    expect(await line.getAttribute("lang")).toBe("fr-CA");
    expect(await line.getByRole("link").getAttribute("href")).toBe("/fr/pricing?x=1");
    await line.getByRole("button", { name: "Fermer" }).click();
    expect(await line.isVisible()).toBe(false);
    await page.reload();
    expect(await page.locator("[data-lang-suggest]").isVisible()).toBe(false);
    await page.context().close();
    // An English-speaking browser never sees it.
    const english = await newPage(PHONE);
    await english.goto(url("/pricing"));
    expect(await english.locator("[data-lang-suggest]").isVisible()).toBe(false);
    await english.context().close();
  });

  it("health report: dial, comparison, 16 categories, bands, recommendations, HVAC, flagged issue, report example", async () => {
    const page = await newPage();
    await page.goto(url("/"));
    await page
      .locator("[data-site-nav] .md\\:flex")
      .getByRole("link", { name: "Haven Health Report", exact: true })
      .click();
    await page.waitForURL(url("/haven-health-report"));
    expect(await page.locator('[data-dial][data-value="100"][data-duration="1500"]').count()).toBe(1);
    await expectLink(page, "Get Free Health Score", "/onboarding-flow");
    expect(await page.getByRole("heading", { name: "Traditional Inspection vs. Haven" }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "What We Inspect", exact: true }).isVisible()).toBe(true);
    const grid = await page
      .locator("[data-inspect-grid] li")
      .evaluateAll((lis) =>
        lis.map(
          (li) =>
            `${li.querySelector("h3")?.textContent} ${li.querySelector("[data-count]")?.textContent?.split(" ")[0]}`,
        ),
      );
    expect(grid).toEqual([
      "Roof 12",
      "Exterior 8",
      "Site 6",
      "Basement 10",
      "Foundation 7",
      "HVAC 15",
      "Electrical 11",
      "Plumbing 9",
      "Laundry Room 5",
      "Windows & Doors 8",
      "General Interior 14",
      "Bathrooms 12",
      "Kitchens 16",
      "Wet Bar 4",
      "Attic 6",
      "Miscellaneous 3",
    ]);
    const bands = await page
      .locator("[data-bands] li")
      .evaluateAll((lis) =>
        lis.map((li) => `${li.textContent?.replace(/\s+/g, " ").trim()} ${li.getAttribute("data-band-colour")}`),
      );
    expect(bands).toEqual([
      "90-100 Haven Standing green",
      "80-89 Well Appointed green",
      "70-79 Due for Stewardship yellow",
      "60-69 Diminishing Estate yellow",
      "Below 60 Beyond the Pale red",
    ]);
    expect(await page.getByRole("button", { name: "Request Quote", exact: true }).count()).toBe(3);
    for (const range of ["$800-1,200", "$150-250", "$45-80"])
      expect(await page.getByText(range, { exact: false }).first().isVisible()).toBe(true);
    const hvac = await page.locator("#hvac-title").locator("xpath=../..").innerText();
    for (const part of [
      "Furnace Condition (weight 40%)",
      "Filter Status (weight 20%)",
      "Ventilation (weight 25%)",
      "Condensate Drain (weight 15%)",
    ])
      expect(hvac).toContain(part);
    expect(await page.locator("[data-hvac-score]").innerText()).toBe("79/100");
    for (const h of ["Inspector Overview", "Expert Commentary", "Maintenance Path"])
      expect(await page.getByRole("heading", { name: h }).isVisible()).toBe(true);
    expect(await texts(page, "[data-report-example] button")).toEqual([
      "Request Quote - $800-1,200",
      "Already Completed",
      "Not Needed",
    ]);
    // 'Request Quote' has no visible effect.
    const recs = page.locator("section[aria-labelledby=recs-title]");
    const before = await recs.innerHTML();
    await page.getByRole("button", { name: "Request Quote", exact: true }).first().click();
    expect(page.url()).toBe(url("/haven-health-report"));
    expect(await recs.innerHTML()).toBe(before);
    await finish(page, "marketing-health-report");
  });

  it("explainer: desktop and mobile mockups, six features, three differentiators, Get My Free Score to /schedule", async () => {
    const page = await newPage();
    await page.goto(url("/haven-health-report"));
    await page.getByRole("link", { name: "See How It Works", exact: true }).click();
    await page.waitForURL(url("/health-report-explainer"));
    expect(await page.locator("[data-mockup=desktop]").isVisible()).toBe(true);
    expect(await page.locator("[data-mockup=mobile]").isVisible()).toBe(true);
    expect(await page.locator("[data-features] li").count()).toBe(6);
    expect(await page.locator("[data-differentiators] li").count()).toBe(3);
    await expectLink(page, "Get My Free Score", "/schedule");
    await finish(page, "marketing-explainer");
  });

  it("sample report: the seeded sample with client labels, reached from the footer", async () => {
    const page = await newPage();
    await page.goto(url("/"));
    await page.locator("footer").getByRole("link", { name: "Sample Report", exact: true }).click();
    await page.waitForURL(url("/sample-report"));
    const report = sampleReport();
    expect(await page.locator("[data-report-label]").innerText()).toBe(report.label);
    expect(await page.locator("[data-category]").count()).toBe(
      report.categories.filter((c) => c.score !== null).length,
    );
    expect(await page.locator("[data-recommendation]").count()).toBe(report.recommendations.length);
    expect(await page.locator("[data-recommendation]").first().textContent()).toContain("Critical");
    await finish(page, "marketing-sample-report");
  });

  it("contact: phone, e-mail and service area from configuration, with hours and reply promise", async () => {
    const page = await newPage();
    await page.goto(url("/"));
    await page.locator("[data-site-nav] .md\\:flex").getByRole("link", { name: "Contact", exact: true }).click();
    await page.waitForURL(url("/contact"));
    expect(await texts(page, "[data-contact] h2")).toEqual(["Phone", "E-mail", "Service Area"]);
    await expectLink(page.locator("[data-contact=phone]"), CONTACT.CONTACT_PHONE, "tel:3065550199");
    await expectLink(page.locator("[data-contact=email]"), CONTACT.CONTACT_EMAIL, `mailto:${CONTACT.CONTACT_EMAIL}`);
    expect(await page.locator("[data-contact=phone]").innerText()).toContain("Monday to Friday 8 AM to 6 PM");
    expect(await page.locator("[data-contact=email]").innerText()).toContain("within 24 hours");
    await finish(page, "marketing-contact");
  });

  it("maintenance hub: three cards and recent activity; Schedule Inspection goes to /book-inspection", async () => {
    const page = await newPage();
    await page.goto(url("/"));
    await page.locator("footer").getByRole("link", { name: "Maintenance Hub", exact: true }).click();
    await page.waitForURL(url("/maintenance-hub"));
    expect(await texts(page, "[data-hub-card] h2")).toEqual(["Health Reports", "Schedule Inspection", "Active Tasks"]);
    await expectLink(page, "Schedule Inspection", "/book-inspection");
    expect(await page.locator("[data-activity] li").count()).toBe(4);
    await finish(page, "marketing-maintenance-hub");
  });

  it("free report: 85 Good, the five systems, two items, the locked section and its links", async () => {
    const page = await newPage();
    await page.goto(url("/pricing"));
    await page.getByRole("link", { name: "Preview a free report", exact: true }).click();
    await page.waitForURL(url("/free-report"));
    expect(await page.locator("[data-site-nav]").count()).toBe(0);
    expect(await page.locator('[data-dial][data-value="85"]').getAttribute("aria-label")).toBe(
      "Overall score 85 out of 100: Good",
    );
    const systems = await page
      .locator("[data-systems] li")
      .evaluateAll((lis) =>
        lis.map(
          (li) =>
            `${Array.from(li.querySelectorAll("span"), (s) => s.textContent).join(" ")} ${li.querySelector("[data-bar]")?.getAttribute("data-bar")}`,
        ),
      );
    expect(systems).toEqual([
      "Structure 80 green",
      "Roof 74 yellow",
      "HVAC 92 green",
      "Electrical 100 green",
      "Plumbing 77 yellow",
    ]);
    const items = (await texts(page, "[data-items] li")).map((t) => t.replace(/\s+/g, " "));
    expect(items).toEqual(["Furnace filter replacement within 30 days Medium", "Gutter cleaning within 60 days Low"]);
    expect(
      await page.getByRole("heading", { name: "Subscribe to See Full Detailed Report", exact: true }).isVisible(),
    ).toBe(true);
    expect(await page.locator("[data-locked] .locked").evaluate((el) => getComputedStyle(el).filter)).toContain("blur");
    await expectLink(page.locator("[data-locked]"), "View Plans", "/pricing");
    await expectLink(page.locator("[data-locked]"), "Contact Us", "/contact");
    await finish(page, "marketing-free-report");
  });

  it("report expired: explains the one view, Subscribe to the product and Contact Support", async () => {
    const page = await newPage(PHONE);
    await page.goto(url("/report-expired"));
    expect(await page.getByText("each report link can be viewed once").isVisible()).toBe(true);
    await expectLink(page, "Subscribe to the product", "/pricing");
    expect(await page.getByRole("link", { name: "Contact Support", exact: true }).getAttribute("href")).toMatch(
      /^mailto:support@haven\.test\?subject=/,
    );
    await finish(page, "marketing-report-expired");
  });

  it("the sample client report: the real report's island, read-only, no public nav, client labels and priority labels", async () => {
    const page = await newPage();
    const posts: string[] = [];
    page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
    await page.goto(url("/client-report/sample"));
    await page.locator('[data-island="sharing/ClientReport"][data-island-status="hydrated"]').waitFor();
    await page.locator("[data-client-report]").waitFor();
    const report = sampleReport();
    expect(await page.locator("[data-site-nav]").count()).toBe(0);
    expect(await page.getByText("Sample", { exact: true }).isVisible()).toBe(true);
    expect(await page.locator("[data-dial]").getAttribute("data-duration")).toBe("4000");
    expect(await page.locator("[data-report-label]").innerText()).toBe(report.label);
    const labels = await page.locator("[data-recommendation] .rounded-full:first-child").allTextContents();
    expect(new Set(labels)).toEqual(new Set(report.recommendations.map((r) => r.clientPriority)));
    expect(await page.locator("[data-recommendation]").count()).toBe(report.recommendations.length);

    // The response controls are there to try, but the sample sends nothing.
    const first = page.locator("[data-recommendation]").first();
    await first.getByLabel("Request a quote").check();
    await first.getByLabel("Notes for the quote (optional)").fill("Before winter, please");
    await page.getByRole("button", { name: "Submit Responses" }).click();
    await page.getByTestId("toast").filter({ hasText: "This sample sends nothing." }).first().waitFor();
    expect(posts).toEqual([]);
    expect(await first.getByLabel("Notes for the quote (optional)").inputValue()).toBe("Before winter, please");
    await expectLink(page, "See Plans", "/pricing");
    await finish(page, "marketing-client-report-sample");
  });
});
