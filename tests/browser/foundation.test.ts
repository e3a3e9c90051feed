import type { Page } from "playwright-core";
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
let site: BrowserSite;
const staff = { email: "nav@haven.test", password: "nav-test-password" };

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  await ctx.container.users.create({ ...staff, firstName: "Nia", lastName: "Vance" });
});
afterAll(() => site?.close());

const newPage = (size = DESKTOP) => site.newPage(size);

async function signIn(page: Page) {
  await page.goto(`${site.baseUrl}/login`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}/admin`);
}

const NAV_SHOWN = ["/", "/no-such-page"];
const NAV_HIDDEN = ["/login", "/admin", "/admin/dashboard"];
// Pages of later issues; their routes must not show the nav either, found or not.
const NAV_HIDDEN_ELSEWHERE = [
  "/checkout",
  "/payment-success",
  "/property-intake?demo=1&plan=standard",
  "/free-report",
  "/book-inspection",
  "/booking-confirmation",
  "/onboarding",
  "/onboarding-flow",
  "/client-report/abc",
];

describe("the 404 screen", () => {
  it("shows the spec's title and text, passes axe, and looks right", async () => {
    const page = await newPage();
    const response = await page.goto(`${site.baseUrl}/definitely/not/here`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "404 Page Not Found" }).isVisible()).resolves.toBe(true);
    await expect(page.getByText("Did you forget to add the page to the router?").isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await screenshotBothWidths(page, "404");
    await page.context().close();
  });
});

describe("public navigation", () => {
  it("anonymous visitors see Home, Pricing, Haven Health Report, Contact, My Home, Login and Get Free Property Score", async () => {
    const page = await newPage();
    await page.goto(site.baseUrl);
    const nav = page.getByRole("navigation", { name: "Main" });
    const names = await nav.locator(".hidden.md\\:flex a, .hidden.md\\:flex button").allInnerTexts();
    expect(names.map((n) => n.trim())).toEqual([
      "Home",
      "Pricing",
      "Haven Health Report",
      "Contact",
      "My Home",
      "Login",
      "Get Free Property Score",
    ]);
    expect(await nav.getByRole("link", { name: "Get Free Property Score" }).first().getAttribute("href")).toBe(
      "/onboarding-flow",
    );
    await expectAccessible(page);
    await page.context().close();
  });

  it("signed-in staff see Dashboard and Logout instead, and Logout signs out", async () => {
    const page = await newPage();
    await signIn(page);
    await page.goto(site.baseUrl);
    const desktopLinks = page.locator("[data-site-nav] .hidden.md\\:flex");
    const names = await desktopLinks.locator("a, button").allInnerTexts();
    expect(names.map((n) => n.trim())).toEqual([
      "Home",
      "Pricing",
      "Haven Health Report",
      "Contact",
      "Dashboard",
      "Logout",
    ]);
    expect(await desktopLinks.getByRole("link", { name: "Dashboard" }).getAttribute("href")).toBe("/admin");
    await desktopLinks.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(`${site.baseUrl}/`);
    expect(await desktopLinks.getByRole("link", { name: "Login" }).isVisible()).toBe(true);
    await page.context().close();
  });

  for (const signedIn of [false, true]) {
    it(`is shown and hidden per route (${signedIn ? "signed in" : "anonymous"})`, async () => {
      const page = await newPage();
      if (signedIn) await signIn(page);
      for (const path of NAV_SHOWN) {
        await page.goto(`${site.baseUrl}${path}`);
        expect(await page.locator("[data-site-nav]").count(), path).toBe(1);
      }
      for (const path of [...NAV_HIDDEN, ...NAV_HIDDEN_ELSEWHERE]) {
        await page.goto(`${site.baseUrl}${path}`);
        expect(await page.locator("[data-site-nav]").count(), path).toBe(0);
      }
      await page.context().close();
    });
  }

  it("turns translucent after 20 px of scroll", async () => {
    const page = await newPage(PHONE);
    await page.goto(site.baseUrl);
    await page.evaluate(() => {
      document.body.style.minHeight = "3000px";
    });
    const nav = page.locator("[data-site-nav]");
    expect(await nav.getAttribute("data-scrolled")).toBe("false");
    await page.evaluate(() => window.scrollTo(0, 10));
    await page.waitForTimeout(50);
    expect(await nav.getAttribute("data-scrolled")).toBe("false");
    await page.evaluate(() => window.scrollTo(0, 200));
    await page.waitForFunction(
      () => document.querySelector("[data-site-nav]")?.getAttribute("data-scrolled") === "true",
    );
    const background = await nav.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toMatch(/rgba?\(.*0\.\d+\)|color\(srgb .* \/ 0\.\d+\)/);
    await page.context().close();
  });

  it("opens the mobile menu with the keyboard", async () => {
    const page = await newPage(PHONE);
    await page.goto(site.baseUrl);
    await page.keyboard.press("Tab"); // skip link
    await page.keyboard.press("Tab"); // the language switch (docs/decisions.md#65)
    await page.keyboard.press("Tab"); // logo
    await page.keyboard.press("Tab"); // menu
    await page.keyboard.press("Enter");
    const panel = page.locator(".nav-panel");
    expect(await panel.isVisible()).toBe(true);
    expect(await panel.getByRole("link", { name: "Pricing" }).isVisible()).toBe(true);
    await screenshotBothWidths(page, "nav-menu-open");
    await page.context().close();
  });

  it("the footer shows the copyright year 2024", async () => {
    const page = await newPage();
    await page.goto(site.baseUrl);
    expect(await page.locator("footer").innerText()).toContain("© 2024 Haven");
    await page.context().close();
  });
});

describe("login and toasts", () => {
  it("a failed login shows one destructive 'Login Failed' toast and keeps the e-mail", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${site.baseUrl}/login`);
    await waitForIslands(page);
    await expectAccessible(page);
    await page.getByLabel("Company e-mail").fill(staff.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    await waitForIslands(page);
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.count()).toBe(1);
    expect(await toast.getAttribute("data-variant")).toBe("destructive");
    expect(await toast.innerText()).toContain("Login Failed");
    expect(await toast.innerText()).toContain("Invalid email or password");
    expect(await page.getByLabel("Company e-mail").inputValue()).toBe(staff.email);
    // Small screens: the toast sits at the top.
    const phoneBox = await toast.boundingBox();
    expect(phoneBox!.y).toBeLessThan(100);
    await expectAccessible(page);
    await screenshotBothWidths(page, "login-failed");

    // F8 moves focus to the notifications.
    await page.keyboard.press("F8");
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("OL");

    // Swipe right past the threshold dismisses it.
    const box = (await toast.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await toast.waitFor({ state: "detached" });
    await page.context().close();
  });

  it("on larger screens a toast sits bottom-right, at most 420 px wide, and its close button works", async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${site.baseUrl}/login`);
    await page.getByRole("button", { name: "Sign In" }).click();
    await waitForIslands(page);
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.innerText()).toContain("Missing Information");
    const box = (await toast.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(420);
    expect(box.x + box.width).toBeGreaterThan(DESKTOP.width - 40);
    expect(box.y + box.height).toBeGreaterThan(DESKTOP.height - 40);
    await toast.getByRole("button", { name: "Close notification" }).click();
    await toast.waitFor({ state: "detached" });
    await page.context().close();
  });

  it("a good login goes to /admin and shows the first-name initial", async () => {
    const page = await newPage();
    await signIn(page);
    expect(await page.locator(".avatar").innerText()).toBe("N");
    await expectAccessible(page);
    await page.context().close();
  });
});
