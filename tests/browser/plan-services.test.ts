import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import { type BrowserSite, DESKTOP, PHONE, expectAccessible, screenshotBothWidths } from "../support/browser.js";
import type { TestContext } from "../support/context.js";
import { insertDemoSubscription, planDeliveries } from "../support/plan-deliveries.js";
import { openStaffSite, signInAt } from "../support/staff-pages.js";

// What a plan delivers (docs/decisions.md#26, #27): a plan service's task shows on the calendar in its plan's colour
// with the service's name; a held one (past due) is shown as held, not hidden.

let ctx: TestContext;
let site: BrowserSite;
let today: string;
const staff = { email: "plans@haven.test", password: "plans-test-password" };

beforeAll(async () => {
  ({ site } = await openStaffSite({ ...staff, firstName: "Pat", lastName: "Planner" }));
  ({ ctx } = site);
  today = ctx.container.maintenance.today();
  const planServices = planDeliveries(ctx);
  const subscribe = async (n: number, planType: PlanType, status: string) => {
    const { customer, property } = await ctx.container.customers.createWithProperty(
      { email: `plan-owner${n}@example.com`, name: `Plan Owner ${n}`, subscriptionPlan: planType },
      { address: `${n} Service Road`, city: "Regina", province: "SK", postalCode: "S4P 3Y2" },
    );
    const id = await insertDemoSubscription(ctx, {
      customerId: customer.id,
      propertyId: property.id,
      planType,
      status,
      providerSubscriptionId: `demo_sub_browser_${n}`,
      anchor: today,
    });
    await ctx.db.transaction((tx) =>
      planServices.sync(tx, { id, propertyId: property.id, planType, status, anchor: today }, today),
    );
    return id;
  };
  const premium = await subscribe(1, "premium", "past_due");
  const standard = await subscribe(2, "standard", "active");
  await planServices.requestService({
    subscriptionId: premium,
    service: "vacation-prep",
    date: today,
    source: "staff",
  });
  await planServices.requestService({
    subscriptionId: standard,
    service: "concierge-line",
    date: today,
    source: "portal",
  });
});
afterAll(() => site?.close());

const signIn = (page: Page) => signInAt(site, page, staff, "/admin/maintenance-schedule", { islands: true });

describe("plan services on the maintenance calendar", () => {
  it("shows each plan service's task in its plan's colour, and a held one as held", async () => {
    const page = await site.newPage(DESKTOP);
    await signIn(page);
    const todayCell = page.locator(`.mc-cell[data-date="${today}"]`);
    const held = todayCell.getByRole("button", { name: /Vacation prep/ });
    await held.waitFor();
    expect(await held.getAttribute("data-plan")).toBe("premium");
    expect(await held.getAttribute("data-held")).not.toBeNull();
    expect(await held.textContent()).toContain("Held: payment past due"); // "Held" shows, the reason is read out
    const running = todayCell.getByRole("button", { name: /Concierge line/ });
    expect(await running.getAttribute("data-plan")).toBe("standard");
    expect(await running.getAttribute("data-held")).toBeNull();
    await expectAccessible(page);
    await screenshotBothWidths(page, "plan-services-calendar");

    await held.click();
    const dialog = page.getByRole("dialog", { name: "Task Details" });
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(/Premium plan service/);
    expect(await dialog.innerText()).toMatch(/Held: payment past due/);
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // The list view names the plan and the hold too.
    await page.getByRole("button", { name: "List" }).click();
    const table = page.getByRole("table");
    await table.getByRole("button", { name: "Vacation prep" }).waitFor();
    const row = table.getByRole("row", { name: /Vacation prep/ });
    expect(await row.innerText()).toMatch(/Premium plan[\s\S]*Held: payment past due/);
    await expectAccessible(page);
    await page.context().close();
  });

  it("on a phone the agenda names the plan and the hold", async () => {
    const page = await site.newPage(PHONE);
    await signIn(page);
    const item = page.locator(".mc-agenda-item", { hasText: "Vacation prep" });
    await item.waitFor();
    expect(await item.getAttribute("data-plan")).toBe("premium");
    expect(await item.innerText()).toMatch(/Held: payment past due[\s\S]*Premium plan/);
    await expectAccessible(page);
    await page.context().close();
  });
});
