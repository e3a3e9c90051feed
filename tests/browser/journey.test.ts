// The whole purchase journey, as a person walks it: pricing → the demo hosted checkout (docs/decisions.md#23) →
// property intake → scheduling wizard → confirmation (demo mode), and the same through the Stripe
// stand-in's hosted checkout (Stripe mode). Then the database holds exactly what one purchase makes.
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longDate } from "../../src/shared/business-time.js";
import { DESKTOP, PHONE, expectAccessible, screenshotBothWidths, waitForIslands } from "../support/browser.js";
import type { TestContext } from "../support/context.js";
import { type PurchaseSites, choosePlan, fillIntake, openPurchaseSites, toastText } from "../support/purchase.js";

let sites: PurchaseSites;
beforeAll(async () => {
  sites = await openPurchaseSites();
});
afterAll(() => sites?.close());

/** axe (no serious or critical violation) and the screenshots at 390 px and 1280 px. */
async function checkPage(page: Page, name: string) {
  await expectAccessible(page);
  await screenshotBothWidths(page, name);
}

async function expectToast(page: Page, title: string, description: string) {
  expect(await toastText(page, title)).toContain(description);
}

/** Chooses the plan on /pricing (checked and photographed first) and returns what the button sent to the API. */
async function choosePlanChecked(page: Page, baseUrl: string, planName: string, shot: string) {
  // Waited for from the end of the checks (axe and, with SCREENSHOTS=1, six captures: slow on a busy machine),
  // so that its 30 s are the clicks' alone.
  let apiCall: Promise<Request> | undefined;
  await choosePlan(page, baseUrl, planName, async () => {
    await checkPage(page, shot);
    apiCall = page.waitForRequest((r) => r.url().endsWith("/api/create-checkout-session") && r.method() === "POST");
  });
  return (await apiCall!).postDataJSON();
}

/**
 * The wizard continuing from intake (bookings README): the property and contact read-only with 'Change',
 * 'Step 3 of 3', and no field intake asked: only the property type, a date, a time and an access method.
 */
async function scheduleInWizard(page: Page, ctx: TestContext, shots: string) {
  await waitForIslands(page);
  await page.getByRole("heading", { name: "Schedule", exact: true }).waitFor();
  expect(await page.getByText(/^Step \d of \d\./).innerText()).toContain("Step 3 of 3.");
  expect(await page.getByTestId("wizard-known-property").innerText()).toBe("221 Albert Street, Ottawa, ON K1S 2B4");
  expect(await page.getByTestId("wizard-known-contact").isVisible()).toBe(true);
  await page.getByRole("button", { name: "Change the property" }).waitFor();
  // Nothing intake asked is asked again.
  for (const label of [
    "Property address",
    "Property size (sq ft)",
    "Year built",
    "First name",
    "Last name",
    "Email",
    "Phone",
  ]) {
    expect(await page.getByLabel(label, { exact: true }).count()).toBe(0);
  }
  await page.getByLabel("Property type").selectOption("single-family");
  const { minDate } = ctx.container.bookings.calendar();
  await page.getByLabel("Inspection date").fill(minDate);
  await page.getByLabel("Time").selectOption("9:30 AM");
  await page.getByText("Meet inspector at property").click();
  await checkPage(page, `${shots}-wizard-3`);
  await page.getByRole("button", { name: "Schedule Inspection" }).click();
  await expectToast(
    page,
    "Inspection Scheduled Successfully",
    "You'll receive a confirmation email shortly with all the details.",
  );
  await page.waitForURL(/\/booking-confirmation$/);
  await waitForIslands(page);
  await page.getByRole("heading", { name: "Your Inspection is Booked!" }).waitFor();
  expect(await page.getByTestId("confirmation-date").innerText()).toBe(longDate(minDate));
  expect(await page.getByTestId("confirmation-time").innerText()).toBe("9:30 AM");
  expect(await page.getByTestId("confirmation-address").innerText()).toContain("221 Albert Street");
  expect(await page.getByTestId("confirmation-address").innerText()).toContain("Ottawa, ON");
  expect(await page.getByTestId("confirmation-access").innerText()).toBe("Meet inspector at property");
  await checkPage(page, `${shots}-confirmation`);
  return minDate;
}

const count = async (ctx: TestContext, table: string) => Number((await ctx.db(table).count({ n: "*" }).first())!.n);

/** One purchase leaves one payment, one customer, one property, one booking and one queued e-mail. */
/**
 * One purchase: one monthly subscription (docs/decisions.md#23) attached to the customer and home intake made. A demo
 * checkout also keeps its payments row (pointing at the subscription); a Stripe one has none (revenue counts invoices).
 */
async function expectOnePurchase(
  ctx: TestContext,
  expected: { email: string; plan: string; scheduledDate: string; payments: number },
) {
  expect({
    payments: await count(ctx, "payments"),
    subscriptions: await count(ctx, "subscriptions"),
    customers: await count(ctx, "customers"),
    properties: await count(ctx, "properties"),
    bookings: await count(ctx, "inspection_bookings"),
  }).toEqual({ payments: expected.payments, subscriptions: 1, customers: 1, properties: 1, bookings: 1 });
  const payment = await ctx.db("payments").first();
  const subscription = await ctx.db("subscriptions").first();
  const customer = await ctx.db("customers").first();
  const property = await ctx.db("properties").first();
  const booking = await ctx.db("inspection_bookings").first();
  if (payment)
    expect(payment).toMatchObject({ status: "succeeded", plan_type: expected.plan, subscription_id: subscription.id });
  expect(subscription).toMatchObject({
    status: "active",
    plan_type: expected.plan,
    customer_id: customer.id,
    property_id: property.id,
  });
  expect(customer).toMatchObject({
    email: expected.email,
    subscription_plan: expected.plan,
    stripe_session_id: subscription.checkout_ref,
  });
  expect(property).toMatchObject({
    customer_id: customer.id,
    address: "221 Albert Street",
    city: "Ottawa",
    province: "ON",
    state: null,
    postal_code: "K1S 2B4",
    square_footage: 1850,
  });
  expect(booking).toMatchObject({
    property_id: property.id,
    customer_id: customer.id,
    scheduled_date: expected.scheduledDate,
    time_slot: "9:30 AM",
    access_method: "meet-inspector",
  });
  // The public jobs view has no payload; the queue's own table does.
  const jobs = (
    await ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
    )
  ).rows.map((r: { payload: { to: string; subject: string; text: string } }) => r.payload);
  // The first invoice's receipt, then the booking's confirmation.
  expect(jobs).toHaveLength(2);
  expect(jobs.every((j: { to: string }) => j.to === expected.email)).toBe(true);
  expect(jobs[0].subject).toMatch(/^Your Haven receipt/);
  expect(jobs[1].text).toContain("221 Albert Street");
  expect(jobs[1].text).toContain("9:30 AM");
  return { payment, subscription, invoices: await ctx.db("invoices").where({ subscription_id: subscription.id }) };
}

describe("the purchase journey in demo mode", () => {
  it("/pricing → the demo hosted checkout → /property-intake → the wizard → /booking-confirmation", async () => {
    const page = await sites.newPage(PHONE);
    expect(await choosePlanChecked(page, sites.demo.baseUrl, "Standard", "journey-demo-pricing")).toEqual({
      planType: "standard",
    });

    // The demo provider's checkout plays Stripe Checkout's part, at the price /pricing showed (decision 23).
    await page.waitForURL(new RegExp(`^${sites.demo.baseUrl}/demo-checkout/demo_cs_[a-f0-9]{24}$`));
    await waitForIslands(page);
    await page.getByRole("button", { name: "Subscribe" }).waitFor();
    expect(await page.getByTestId("summary-price").innerText()).toBe("$370");
    // No postal code typed on /pricing: the business's province's HST, shown before the pay button (decision 32).
    expect(await page.getByTestId("summary-total").innerText()).toBe("$418.10");
    await checkPage(page, "journey-checkout");
    await page.getByLabel("Name on card").fill("Morgan Reyes");
    await page.getByLabel("Email").fill("morgan@example.com");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Subscribe" }).click();

    await page.waitForURL(/\/property-intake\?/);
    const intentId = new URL(page.url()).searchParams.get("session_id")!;
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      session_id: expect.stringMatching(/^demo_cs_[a-f0-9]{24}$/),
      plan: "standard",
    });
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    // The payer's e-mail and name come from verifying the session, as with Stripe's hosted checkout.
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe("morgan@example.com");
    expect(await page.getByLabel("Email").getAttribute("readonly")).not.toBeNull();
    expect(await page.getByLabel("Full name").inputValue()).toBe("Morgan Reyes");
    await checkPage(page, "journey-intake");

    await fillIntake(page);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/customers") && r.method() === "POST") posts.push(r.url());
    });
    // The light client check catches a number field before any request...
    await page.getByLabel("Square footage").fill("1850.5");
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    await page.getByText("Square footage must be a whole number").waitFor();
    expect(posts).toHaveLength(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("intake-squareFootage");
    // ...and what only the server checks comes back from its 400, shown under its field, nothing lost.
    await page.getByLabel("Square footage").fill("1850");
    await page.getByLabel("Foundation type").fill("x".repeat(201));
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    await page.getByText("Foundation type must be at most 200 characters").waitFor();
    await expectToast(page, "Error", "Failed to save property information. Please try again.");
    expect(posts).toHaveLength(1);
    expect(await page.getByLabel("Street address").inputValue()).toBe("221 Albert Street");
    expect(await page.getByLabel("Foundation type").getAttribute("aria-invalid")).toBe("true");
    await checkPage(page, "journey-intake-server-error");
    await page.getByLabel("Foundation type").fill("Poured concrete");
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    await page.getByRole("button", { name: "Saving..." }).waitFor();
    await expectToast(page, "Property Information Saved", "Redirecting to schedule your inspection...");
    await page.waitForURL(/\/schedule-inspection\?customer_id=\d+&plan=standard$/);

    const scheduledDate = await scheduleInWizard(page, sites.demo.ctx, "journey-demo");
    expect(await page.getByText("morgan@example.com").count()).toBeGreaterThan(0);

    const { payment } = await expectOnePurchase(sites.demo.ctx, {
      email: "morgan@example.com",
      plan: "standard",
      scheduledDate,
      payments: 1,
    });
    expect(payment).toMatchObject({
      provider: "demo",
      provider_id: intentId,
      kind: "checkout_session",
      amount_cents: 41810,
      customer_email: "morgan@example.com",
    });
    await page.context().close();
  });
});

describe("the purchase journey in Stripe mode (the stand-in's hosted checkout)", () => {
  it("/pricing → Stripe Checkout → /property-intake?session_id → the wizard → /booking-confirmation", async () => {
    const page = await sites.newPage(DESKTOP);
    expect(await choosePlanChecked(page, sites.stripe.baseUrl, "Basic", "journey-stripe-pricing")).toEqual({
      planType: "basic",
    });
    await page.waitForURL(new RegExp(`^${sites.standIn.url}/pay/cs_test_\\w+$`));
    await page.getByLabel("Email").fill("casey@example.com");
    await page.getByLabel("Name").fill("Casey Stripe");
    await page.getByRole("button", { name: "Pay" }).click();

    await page.waitForURL(new RegExp(`^${sites.stripe.baseUrl}/property-intake\\?session_id=cs_test_\\w+&plan=basic$`));
    const sessionId = new URL(page.url()).searchParams.get("session_id")!;
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe("casey@example.com");
    expect(await page.getByLabel("Full name").inputValue()).toBe("Casey Stripe");
    await checkPage(page, "journey-stripe-intake");
    await fillIntake(page);
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    await expectToast(page, "Property Information Saved", "Redirecting to schedule your inspection...");
    await page.waitForURL(/\/schedule-inspection\?customer_id=\d+&plan=basic$/);

    const scheduledDate = await scheduleInWizard(page, sites.stripe.ctx, "journey-stripe");
    const { subscription, invoices } = await expectOnePurchase(sites.stripe.ctx, {
      email: "casey@example.com",
      plan: "basic",
      scheduledDate,
      payments: 0,
    });
    expect(subscription).toMatchObject({
      provider: "stripe",
      checkout_ref: sessionId,
      monthly_amount_cents: 14900,
      payer_email: "casey@example.com",
    });
    // The first invoice charged $149.00 + HST $19.37 (no postal code: the business's province, decision 32).
    expect(invoices).toMatchObject([
      {
        status: "paid",
        amount_cents: 16837,
        subtotal_cents: 14900,
        tax_cents: 1937,
        billing_reason: "subscription_create",
      },
    ]);
    await page.context().close();
  });
});
