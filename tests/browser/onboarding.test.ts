import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  expectAccessible,
  openBrowserSite,
  screenshotBothWidths,
  waitForIslands,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";

let ctx: TestContext;
let browser: Browser;
let site: BrowserSite;

beforeAll(async () => {
  site = await openBrowserSite({ seedPlans: false });
  ({ ctx, browser } = site);
});
afterAll(() => site?.close());

const next = (page: Page) => page.getByRole("button", { name: "Next" });

/** From the splash through steps 1 to 4, checking Next stays disabled until each step is valid. */
async function throughStep4(page: Page, path = "/onboarding-flow", shots = false) {
  await page.goto(`${site.baseUrl}${path}`);
  await waitForIslands(page);
  await page.getByRole("heading", { name: "Haven" }).waitFor();
  const start = page.getByRole("button", { name: "Let's Get Started" });
  // The button appears after about 2 s of animation.
  expect(await start.count()).toBe(0);
  if (shots) {
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-splash");
  }
  await start.waitFor({ timeout: 4000 });
  await start.click();

  await page.getByText("Step 1 of 5").waitFor();
  await page.getByRole("heading", { name: "Personal Information" }).waitFor();
  expect(await page.getByRole("button", { name: "Previous" }).isDisabled()).toBe(true);
  expect(await next(page).isDisabled()).toBe(true);
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email").fill("grace@");
  await page.getByLabel("Phone").fill("306-555-0101");
  expect(await next(page).isDisabled()).toBe(true);
  expect(await page.getByText("Enter a valid email address").isVisible()).toBe(true);
  if (shots) {
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-step1");
  }
  await page.getByLabel("Email").fill("grace@example.com");
  await next(page).click();

  await page.getByText("Step 2 of 5").waitFor();
  await page.getByLabel("Street address").fill("77 Navy Way");
  await page.getByLabel("City").fill("Saskatoon");
  await page.getByLabel("Province").selectOption("SK");
  expect(await next(page).isDisabled()).toBe(true);
  await page.getByLabel("Postal code").fill("S7K");
  expect(await page.getByText("Enter a valid postal code, like K1S 2B4").isVisible()).toBe(true);
  if (shots) {
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-step2");
  }
  await page.getByLabel("Postal code").fill("S7K 3J6");
  await next(page).click();

  await page.getByText("Step 3 of 5").waitFor();
  await page.getByLabel("Square footage").fill("2200");
  await page.getByLabel("Year built").fill("1978");
  await page.getByLabel("Bedrooms").selectOption("4");
  expect(await next(page).isDisabled()).toBe(true);
  if (shots) {
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-step3");
  }
  await page.getByLabel("Bathrooms").selectOption("2.5");
  await page.getByLabel("Basement").selectOption("finished");
  await next(page).click();

  await page.getByText("Step 4 of 5").waitFor();
  await page.getByLabel("Ownership").selectOption("owner");
  await page.getByLabel("Household income").selectOption("150k-200k");
  expect(await next(page).isDisabled()).toBe(true);
  await page.getByLabel("Occupation").selectOption("retired");
  if (shots) {
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-step4");
  }
  await next(page).click();
  await page.getByText("Step 5 of 5").waitFor();
  await page.getByRole("heading", { name: "Schedule Your Inspection" }).waitFor();
}

describe("the onboarding wizard", () => {
  it("goes from the splash to 'Onboarding Complete!' and books the inspection", async () => {
    const page = await (await browser.newContext({ viewport: PHONE })).newPage();
    await throughStep4(page, "/onboarding-flow", true);

    expect(await next(page).count()).toBe(0);
    expect(await page.getByTestId("auto-submit-status").innerText()).toBe("Please complete all required fields above");
    // The access code shows only for key-code and lockbox.
    await page.getByText("Key code / keypad entry").click();
    expect(await page.getByLabel("Access code").isVisible()).toBe(true);
    await page.getByText("Owner will be present").click();
    expect(await page.getByLabel("Access code").count()).toBe(0);
    await page.getByText("Lockbox", { exact: true }).click();
    await page.getByLabel("Access code").fill("1357");
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-step5");

    await page.getByLabel("Preferred date").fill(ctx.container.bookings.calendar().minDate);
    await page.getByText("Evening", { exact: true }).click();
    expect(await page.getByTestId("auto-submit-status").innerText()).toBe("Auto-submitting your information...");
    await page.getByRole("heading", { name: "Processing Your Information..." }).waitFor();
    await expectAccessible(page);
    await page.getByRole("heading", { name: "Onboarding Complete!" }).waitFor();
    expect(await page.getByText("Inspection Successfully Scheduled").isVisible()).toBe(true);

    const booking = await ctx.db("inspection_bookings").orderBy("id", "desc").first();
    expect(booking).toMatchObject({
      time_slot: "evening",
      access_method: "lockbox",
      access_code: "1357",
      source: "onboarding",
    });
    expect(await page.getByTestId("onboarding-ids").innerText()).toBe(
      `Property ID: ${booking.property_id} · Booking ID: ${booking.id}`,
    );
    const property = await ctx.db("properties").where({ id: booking.property_id }).first();
    expect(property).toMatchObject({
      address: "77 Navy Way",
      postal_code: "S7K 3J6",
      bedrooms: "4",
      basement_status: "finished",
      occupation: "retired",
    });
    // The browser now owns what it created.
    const mine = await page.context().request.get(`${site.baseUrl}/api/inspection-bookings`);
    expect((await mine.json()).map((b: { id: number }) => b.id)).toEqual([booking.id]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-complete");

    await page.getByRole("button", { name: "Done" }).click();
    await page.waitForURL(`${site.baseUrl}/`);
    await page.context().close();
  });

  it("shows the saved-only completion when no booking id comes back", async () => {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await page.route("**/api/onboarding", (route) =>
      route.fulfill({ status: 201, contentType: "application/json", body: '{"propertyId":41,"message":"saved"}' }),
    );
    await throughStep4(page, "/onboarding");
    await page.getByText("Owner will be present").click();
    await page.getByLabel("Preferred date").fill(ctx.container.bookings.calendar().minDate);
    await page.getByText("Morning", { exact: true }).click();
    await page.getByRole("heading", { name: "Onboarding Complete!" }).waitFor();
    expect(await page.getByText("Information Saved Successfully").isVisible()).toBe(true);
    expect(await page.getByText("We'll be in touch to schedule your inspection.").isVisible()).toBe(true);
    await page.context().close();
  });

  it("alerts 'Submission failed: ' and 'Network error: ', and stays on the processing step", async () => {
    const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const alerts: string[] = [];
    page.on("dialog", (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    let mode: "fail" | "abort" = "fail";
    await page.route("**/api/onboarding", (route) =>
      mode === "fail"
        ? route.fulfill({
            status: 400,
            contentType: "application/json",
            body: '{"message":"Preferred date is required"}',
          })
        : route.abort("connectionreset"),
    );
    await throughStep4(page);
    await page.getByText("Owner will be present").click();
    await page.getByLabel("Preferred date").fill(ctx.container.bookings.calendar().minDate);
    await page.getByText("Afternoon", { exact: true }).click();
    await page.getByRole("button", { name: "Try Again" }).waitFor();
    expect(alerts).toEqual(["Submission failed: Preferred date is required"]);
    expect(await page.getByRole("heading", { name: "Processing Your Information..." }).isVisible()).toBe(true);
    await expectAccessible(page);

    mode = "abort";
    await page.getByRole("button", { name: "Try Again" }).click();
    await expect.poll(() => alerts.length).toBe(2);
    expect(alerts[1]).toMatch(/^Network error: .+/);
    // Going back keeps every answer, and the same answers are not sent again by themselves.
    await page.getByRole("button", { name: "Back to My Answers" }).click();
    expect(await page.getByLabel("Preferred date").inputValue()).toBe(ctx.container.bookings.calendar().minDate);
    await page.waitForTimeout(1800);
    expect(alerts).toHaveLength(2);
    await page.context().close();
  });

  it("after a refusal naming fields, goes back to the first step with one, shows each message under its field, and then completes", async () => {
    const page = await (await browser.newContext({ viewport: PHONE })).newPage();
    const alerts: string[] = [];
    page.on("dialog", (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    const refusal = {
      message: "Please fill in all required fields: Year built and Occupation",
      fields: {
        yearBuilt: "Year built must be 1980 or later",
        occupation: "Occupation must be one of the listed values",
      },
    };
    await page.route("**/api/onboarding", (route) =>
      route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify(refusal) }),
    );
    await throughStep4(page);
    await page.getByText("Owner will be present").click();
    const minDate = ctx.container.bookings.calendar().minDate;
    await page.getByLabel("Preferred date").fill(minDate);
    await page.getByText("Morning", { exact: true }).click();
    await page.getByRole("button", { name: "Back to My Answers" }).waitFor();
    expect(alerts).toEqual([`Submission failed: ${refusal.message}`]);
    expect(await page.getByRole("heading", { name: "Processing Your Information..." }).isVisible()).toBe(true);
    expect(await page.getByTestId("refused-fields").innerText()).toBe(
      `Year built: ${refusal.fields.yearBuilt}\nOccupation: ${refusal.fields.occupation}`,
    );
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-refused");

    await page.getByRole("button", { name: "Back to My Answers" }).click();
    await page.getByText("Step 3 of 5").waitFor();
    expect(await page.locator("#yearBuilt-error").innerText()).toBe(refusal.fields.yearBuilt);
    expect(await page.getByLabel("Year built").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("yearBuilt");
    expect(await page.getByLabel("Year built").inputValue()).toBe("1978");
    expect(await page.getByLabel("Square footage").inputValue()).toBe("2200");
    // Next waits until the refused answer changes.
    expect(await next(page).isDisabled()).toBe(true);
    expect(await page.getByText("Correct the answers marked above to continue.").isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "onboarding-refused-step3");
    await page.getByLabel("Year built").fill("1981");
    expect(await page.locator("#yearBuilt-error").count()).toBe(0);
    await next(page).click();

    await page.getByText("Step 4 of 5").waitFor();
    expect(await page.locator("#occupation-error").innerText()).toBe(refusal.fields.occupation);
    expect(await page.getByLabel("Occupation").inputValue()).toBe("retired");
    expect(await next(page).isDisabled()).toBe(true);
    await page.getByLabel("Occupation").selectOption("professional");
    await page.unroute("**/api/onboarding");
    await next(page).click();

    // Step 5 kept its answers; with the changes it submits by itself, this time to the real server.
    await page.getByText("Step 5 of 5").waitFor();
    expect(await page.getByLabel("Preferred date").inputValue()).toBe(minDate);
    await page.getByRole("heading", { name: "Onboarding Complete!" }).waitFor({ timeout: 8000 });
    expect(alerts).toHaveLength(1);
    const property = await ctx.db("properties").orderBy("id", "desc").first();
    expect(property).toMatchObject({ year_built: 1981, occupation: "professional" });
    await page.context().close();
  });
});

// In French at /fr (docs/decisions.md#70): one page visit, its first step and axe under lang="fr-CA".
describe("the onboarding wizard in French", () => {
  it("speaks French at /fr/onboarding: its start, its first step and its checks", async () => {
    const page = await site.newPage(PHONE);
    await page.goto(`${site.baseUrl}/fr/onboarding`);
    await waitForIslands(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr-CA");
    await page.getByRole("button", { name: "C'est parti" }).click({ timeout: 4000 });
    await page.getByText("Étape 1 sur 5").waitFor();
    await page.getByRole("heading", { name: "Renseignements personnels" }).waitFor();
    await page.getByLabel("Courriel").fill("camille@");
    await page.getByText("Entrez une adresse courriel valide").waitFor();
    expect(await page.getByRole("button", { name: "Suivant" }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await page.context().close();
  });
});
