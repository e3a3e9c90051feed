import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Property } from "../../src/modules/customers/customers.schemas.js";
import {
  type BrowserSite,
  DESKTOP,
  PHONE,
  SCREENSHOTS,
  SCREENSHOT_DIR,
  expectAccessible,
  openBrowserSite,
  settle,
} from "../support/browser.js";
import type { TestContext } from "../support/context.js";

// Customer and property details edited from the 'View Details' dialog, at 390 px (customers README).
let ctx: TestContext;
let site: BrowserSite;
let property: Property;
const staff = { email: "office@haven.test", password: "office-test-password" };

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  await ctx.container.users.create({ ...staff, firstName: "Dana", lastName: "Leblanc" });
  ({ property } = await ctx.container.customers.createWithProperty(
    { email: "mireille@example.ca", name: "Mireille Roy", phone: "613-555-0170", subscriptionPlan: "premium" },
    {
      address: "48 Fifth Avenue",
      city: "Ottawa",
      province: "ON",
      postalCode: "K1S 2N3",
      squareFootage: 1650,
      yearBuilt: 1925,
      bedrooms: "3",
    },
  ));
});
afterAll(() => site?.close());

async function signIn(page: Page, next: string) {
  await page.goto(`${site.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}${next}`);
  await page.waitForFunction(() => document.documentElement.dataset.adminReady === "true");
}

/** The dialog covers the viewport: capture what is on screen, at both widths, then back to the phone. */
async function shoot(page: Page, name: string) {
  for (const [label, size] of [
    ["390", PHONE],
    ["1280", DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    await settle(page);
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${label}.png` });
  }
  await page.setViewportSize(PHONE);
  await settle(page);
}

describe("editing from the details dialog", () => {
  it("shows a refused field under it with the typed values kept, then saves and shows the new details", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page, "/admin/properties");
    await page
      .getByTestId("property-card")
      .first()
      .getByRole("link", { name: /View Details/ })
      .click();
    const dialog = page.getByRole("dialog", { name: "Property Details" });
    await dialog.getByTestId("property-details").waitFor();

    await dialog.getByRole("link", { name: /^Edit/ }).click();
    const form = dialog.getByTestId("property-edit");
    await form.waitFor();
    expect(await form.getByLabel("Street address").inputValue()).toBe("48 Fifth Avenue");
    await form.getByLabel("Name").fill("Mireille Roy-Gagnon");
    await form.getByLabel("Street address").fill("215 Bank Street");
    await form.getByLabel("Postal code").fill("K1S 2");
    await form.getByLabel("Year built").fill("1926");
    await form.getByRole("button", { name: "Save Changes" }).click();

    // Refused: the message under the postal code, what was typed still there, nothing saved.
    const postalError = form.locator('[data-field-error="zipCode"]');
    await postalError.waitFor();
    expect(await postalError.innerText()).toBe("Enter a valid postal code, like K1S 2B4");
    expect(await form.getByLabel("Postal code").getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByLabel("Postal code").inputValue()).toBe("K1S 2");
    expect(await form.getByLabel("Street address").inputValue()).toBe("215 Bank Street");
    expect(await form.getByLabel("Name").inputValue()).toBe("Mireille Roy-Gagnon");
    expect(await form.getByLabel("Year built").inputValue()).toBe("1926");
    // The notice names the refused field, and the field has the focus.
    expect(await form.getByTestId("toast").innerText()).toContain("Postal code");
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "zipCode");
    expect((await ctx.db("properties").where({ id: property.id }).first()).address).toBe("48 Fifth Avenue");
    await expectAccessible(page);
    await shoot(page, "property-edit-refused");

    // Corrected, in lower case without the space: saved and normalised.
    await form.getByLabel("Postal code").fill("k1s5r1");
    await form.getByRole("button", { name: "Save Changes" }).click();
    const details = dialog.getByTestId("property-details");
    await details.waitFor();
    const toast = details.getByTestId("toast");
    expect(await toast.innerText()).toContain("Details saved");
    // Green: the success colours, not the error ones.
    expect(await toast.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(236, 247, 239)");
    const text = await details.innerText();
    expect(text).toContain("215 Bank Street");
    expect(text).toContain("K1S 5R1");
    expect(text).toContain("Mireille Roy-Gagnon");
    expect(text).toContain("1926");
    expect(await ctx.db("customers").where({ id: property.customerId }).first()).toMatchObject({
      name: "Mireille Roy-Gagnon",
    });
    await expectAccessible(page);
    await shoot(page, "property-edit-saved");

    // The new address is found by the search.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await page.getByLabel("Search by address, client name or e-mail").fill("215 bank");
    await page.getByTestId("property-total").filter({ hasText: "1 property" }).waitFor();
  });
});
