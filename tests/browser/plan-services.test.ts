import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlanDeliveries } from "../../src/modules/maintenance/index.js";
import { PlanDeliveriesRepository } from "../../src/modules/maintenance/plan-deliveries.repository.js";
import { transactionRunner } from "../../src/db/transaction.js";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
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

// What a plan delivers (docs/decisions.md#26, #27): a plan service's task shows on the calendar in its plan's colour
// with the service's name; a held one (past due) is shown as held, not hidden.

let ctx: TestContext;
let site: BrowserSite;
let today: string;
const staff = { email: "plans@haven.test", password: "plans-test-password" };

beforeAll(async () => {
  site = await openBrowserSite();
  ({ ctx } = site);
  today = ctx.container.maintenance.today();
  await ctx.container.users.create({ ...staff, firstName: "Pat", lastName: "Planner" });
  const planServices = new PlanDeliveries({
    repo: new PlanDeliveriesRepository(ctx.db),
    transaction: transactionRunner(ctx.db),
    settings: { timeZone: ctx.env.BUSINESS_TZ },
  });
  const subscribe = async (n: number, planType: PlanType, status: string) => {
    const { customer, property } = await ctx.container.customers.createWithProperty(
      { email: `plan-owner${n}@example.com`, name: `Plan Owner ${n}`, subscriptionPlan: planType },
      { address: `${n} Service Road`, city: "Regina", province: "SK", postalCode: "S4P 3Y2" },
    );
    const started = new Date();
    const [row] = await ctx
      .db("subscriptions")
      .insert({
        customer_id: customer.id,
        property_id: property.id,
        plan_type: planType,
        provider: "demo",
        provider_subscription_id: `demo_sub_browser_${n}`,
        status,
        monthly_amount_cents: 79_900,
        started_at: started,
        billing_anchor: today,
        current_period_start: started,
        current_period_end: new Date(started.getTime() + 30 * 86_400_000),
        minimum_term_ends_at: new Date(started.getTime() + 91 * 86_400_000),
      })
      .returning("id");
    await ctx.db.transaction((tx) =>
      planServices.sync(tx, { id: row.id, propertyId: property.id, planType, status, anchor: today }, today),
    );
    return row.id as number;
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

async function signIn(page: Page) {
  await page.goto(`${site.baseUrl}/login?next=/admin/maintenance-schedule`);
  await page.getByLabel("Company e-mail").fill(staff.email);
  await page.getByLabel("Password").fill(staff.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(`${site.baseUrl}/admin/maintenance-schedule`);
  await waitForIslands(page);
}

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
