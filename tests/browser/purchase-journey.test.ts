import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, PHONE, expectAccessible, launchBrowser, screenshotBothWidths, serve, waitForIslands } from "../support/browser.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { StripeStandIn } from "../support/stripe-stand-in.js";

let browser: Browser;
let demo: TestContext;
let demoSite: Awaited<ReturnType<typeof serve>>;
let stripeCtx: TestContext;
let stripeSite: Awaited<ReturnType<typeof serve>>;
let standIn: StripeStandIn;

beforeAll(async () => {
  standIn = await StripeStandIn.start();
  demo = await createTestContext();
  stripeCtx = await createTestContext(standIn.env());
  await demo.container.plans.seed();
  await stripeCtx.container.plans.seed();
  demoSite = await serve(demo);
  stripeSite = await serve(stripeCtx);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await demoSite?.close();
  await stripeSite?.close();
  await demo?.close();
  await stripeCtx?.close();
  await standIn?.close();
});

async function newPage(size = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport: size });
  return context.newPage();
}

/** /pricing's plan form (helper A renders it); injected on a page that loads the site script. */
async function choosePlan(page: Page, baseUrl: string, planType: string) {
  await page.goto(`${baseUrl}/`);
  await page.evaluate((plan) => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/checkout/start";
    form.setAttribute("data-checkout-form", "");
    form.innerHTML = `<input type="hidden" name="planType" value="${plan}"><button type="submit">Choose ${plan}</button>`;
    document.querySelector("main")!.prepend(form);
  }, planType);
  await page.getByRole("button", { name: `Choose ${planType}` }).click();
}

async function fillIntake(page: Page) {
  await page.getByLabel("Phone").fill("306-555-0199");
  await page.getByLabel("Street address").fill("221 Albert Street");
  await page.getByLabel("City").fill("Springfield");
  await page.locator("#intake-state").selectOption("IL");
  await page.getByLabel("ZIP code").fill("62704");
  await page.getByLabel("Square footage").fill("1850");
  await page.getByLabel("Year built").fill("1978");
  await page.getByLabel("Bedrooms").selectOption("3");
  await page.getByLabel("Bathrooms").selectOption("1.5");
  await page.getByLabel("Stories").selectOption({ label: "3+" });
  await page.getByLabel("Roof type").selectOption("metal");
  await page.getByLabel("Heating type").selectOption("heat-pump");
}

const toastText = async (page: Page) => {
  const toast = page.getByTestId("toast");
  await toast.waitFor();
  return toast.innerText();
};

describe("purchase journey in demo mode", () => {
  it("/checkout → /payment-success → /property-intake → /schedule-inspection", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${demoSite.baseUrl}/checkout?plan=premium`);
    await waitForIslands(page);
    await page.getByRole("button", { name: "Complete Payment" }).waitFor();
    expect(await page.getByTestId("summary-total").innerText()).toBe("$889");
    await expectAccessible(page);
    await screenshotBothWidths(page, "checkout-demo");

    await page.getByLabel("Name on card").fill("Ada Lovelace");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Card number").fill("4242424242424242");
    expect(await page.getByLabel("Card number").inputValue()).toBe("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("1239");
    expect(await page.getByLabel("Expiry (MM / YY)").inputValue()).toBe("12 / 39");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Complete Payment" }).click();

    await page.waitForURL(/\/payment-success\?plan=premium&payment_intent=demo_pi_[a-f0-9]+$/);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
    expect(await page.evaluate(() => [sessionStorage.getItem("selectedPlan"), sessionStorage.getItem("paymentCompleted")])).toEqual(["premium", "true"]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "payment-success");
    const intentId = new URL(page.url()).searchParams.get("payment_intent")!;
    expect(await demo.db("payments").where({ provider_id: intentId }).first()).toMatchObject({ status: "succeeded", amount_cents: 88900, customer_email: "ada@example.com" });

    await page.getByRole("link", { name: "Continue to Property Information" }).click();
    await page.waitForURL(/\/property-intake\?/);
    const intakeUrl = new URL(page.url());
    expect(Object.fromEntries(intakeUrl.searchParams)).toMatchObject({ plan: "premium", session_id: intentId, demo: "1", customer_email: "ada@example.com", customer_name: "Ada Lovelace" });
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    const email = page.getByLabel("Email");
    expect(await email.inputValue()).toBe("ada@example.com");
    expect(await email.getAttribute("readonly")).not.toBeNull();
    expect(await page.getByLabel("Full name").inputValue()).toBe("Ada Lovelace");
    await expectAccessible(page);
    await screenshotBothWidths(page, "property-intake");

    // Missing fields are named one by one, and nothing typed is lost.
    await page.getByLabel("City").fill("Springfield");
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    await page.getByText("Street address is required").waitFor();
    expect(await page.getByText("Square footage is required").isVisible()).toBe(true);
    expect(await page.getByLabel("City").inputValue()).toBe("Springfield");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("intake-phone");
    await expectAccessible(page);
    await screenshotBothWidths(page, "property-intake-errors");

    await fillIntake(page);
    const saved = page.waitForResponse((r) => r.url().endsWith("/api/customers") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    await page.getByRole("button", { name: "Saving..." }).waitFor();
    const { id } = await (await saved).json();
    const text = await toastText(page);
    expect(text).toContain("Property Information Saved");
    expect(text).toContain("Redirecting to schedule your inspection...");
    await page.waitForURL(`${demoSite.baseUrl}/schedule-inspection?customer_id=${id}&plan=premium`);

    const customer = await demo.db("customers").where({ id }).first();
    expect(customer).toMatchObject({ email: "ada@example.com", subscription_plan: "premium", stripe_session_id: intentId });
    // The session cookie now names this customer.
    const mine = await page.evaluate(() => fetch("/api/properties").then((r) => r.json()));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ address: "221 Albert Street", stories: "3", heatingType: "heat-pump" });
    await page.context().close();
  });

  it("a declined card shows 'Payment Failed' with the reason and keeps the form", async () => {
    const page = await newPage();
    await page.goto(`${demoSite.baseUrl}/checkout?plan=basic`);
    await waitForIslands(page);
    await page.getByLabel("Name on card").fill("Dee Clined");
    await page.getByLabel("Email").fill("dee@example.com");
    await page.getByLabel("Card number").fill("4242 4242 4242 4241");
    await page.getByLabel("Expiry (MM / YY)").fill("01/20");
    await page.getByLabel("CVC").fill("12");
    await page.getByRole("button", { name: "Complete Payment" }).click();
    // Checked in the browser first: no request, each field explained.
    await page.getByText("Your card number is invalid.").waitFor();
    expect(await page.getByText("Your card's expiration date is in the past.").isVisible()).toBe(true);
    expect(await page.getByText("Your card's security code is invalid.").isVisible()).toBe(true);
    await expectAccessible(page);

    await page.getByLabel("Card number").fill("4000000000000002");
    await page.getByLabel("Expiry (MM / YY)").fill("1239");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Complete Payment" }).click();
    const text = await toastText(page);
    expect(text).toContain("Payment Failed");
    expect(text).toContain("Your card was declined.");
    expect(await page.getByTestId("payment-failure").innerText()).toContain("Your card was declined.");
    expect(page.url()).toBe(`${demoSite.baseUrl}/checkout?plan=basic`);
    expect(await page.getByLabel("Name on card").inputValue()).toBe("Dee Clined");
    await expectAccessible(page);
    await screenshotBothWidths(page, "checkout-declined");
    await page.context().close();
  });

  it("the plan button follows the demo checkout session to the intake page", async () => {
    const page = await newPage();
    // With script the button asks the API (no form post to /checkout/start).
    const apiCall = page.waitForRequest((r) => r.url().endsWith("/api/create-checkout-session") && r.method() === "POST");
    await choosePlan(page, demoSite.baseUrl, "standard");
    expect((await apiCall).postDataJSON()).toEqual({ planType: "standard" });
    await page.waitForURL(/\/property-intake\?demo=1&plan=standard&session_id=demo_cs_/);
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe("demo@example.com");
    await page.context().close();
  });

  it("a failed checkout session shows the spec's alert", async () => {
    const page = await newPage();
    await page.route("**/api/create-checkout-session", (route) => route.fulfill({ status: 500, body: "boom" }));
    const dialog = new Promise<string>((resolve) => {
      page.once("dialog", (d) => {
        resolve(d.message());
        d.dismiss().catch(() => undefined);
      });
    });
    await choosePlan(page, demoSite.baseUrl, "basic");
    expect(await dialog).toBe("Error creating checkout session. Please try again.");
    await page.context().close();
  });

  it("sends the visitor to /pricing when the payment intent cannot be created", async () => {
    const page = await newPage();
    await page.route("**/api/create-payment-intent", (route) => route.fulfill({ status: 500, body: "down" }));
    await page.goto(`${demoSite.baseUrl}/checkout?plan=standard`);
    await page.waitForURL(`${demoSite.baseUrl}/pricing`);
    await page.context().close();
  });

  it("an unpaid session shows 'Payment Verification Failed' and returns to /pricing", async () => {
    const page = await newPage(PHONE);
    await page.goto(`${demoSite.baseUrl}/property-intake?session_id=demo_cs_000000000000000000000000&plan=basic`);
    await waitForIslands(page);
    const text = await toastText(page);
    expect(text).toContain("Payment Verification Failed");
    expect(text).toContain("Please contact support if you believe this is an error.");
    await screenshotBothWidths(page, "property-intake-unverified");
    await page.waitForURL(`${demoSite.baseUrl}/pricing`);
    await page.context().close();
  });

  it("a verification error shows the 'Error' toast and keeps the form", async () => {
    const page = await newPage();
    await page.route("**/api/verify-payment**", (route) => route.fulfill({ status: 502, body: "{}" }));
    await page.goto(`${demoSite.baseUrl}/property-intake?session_id=demo_cs_000000000000000000000000&plan=basic&demo=1`);
    await waitForIslands(page);
    const text = await toastText(page);
    expect(text).toContain("Error");
    expect(text).toContain("Unable to verify payment. Please try again.");
    await page.getByTestId("intake-form").waitFor();
    await page.context().close();
  });
});

describe("purchase journey in Stripe mode (stand-in)", () => {
  it("plan button → Stripe Checkout → /property-intake with session_id → /schedule-inspection", async () => {
    const page = await newPage(PHONE);
    await choosePlan(page, stripeSite.baseUrl, "basic");
    await page.waitForURL(new RegExp(`^${standIn.url}/pay/cs_test_`));
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL(new RegExp(`^${stripeSite.baseUrl}/property-intake\\?session_id=cs_test_\\w+&plan=basic$`));
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe("payer@example.com");
    expect(await page.getByLabel("Full name").inputValue()).toBe("Pat Payer");
    await expectAccessible(page);
    await screenshotBothWidths(page, "property-intake-stripe");

    await fillIntake(page);
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    await page.waitForURL(/\/schedule-inspection\?customer_id=\d+&plan=basic$/);
    const sessionId = [...standIn.sessions.keys()].at(-1)!;
    expect(await stripeCtx.db("customers").where({ stripe_session_id: sessionId })).toHaveLength(1);
    expect(await stripeCtx.db("payments").where({ provider_id: sessionId }).first()).toMatchObject({ amount_cents: 19400, status: "succeeded" });
    await page.context().close();
  });

  it("the payment page loads Stripe's Payment Element mode (CSP allows js.stripe.com only here)", async () => {
    const page = await newPage();
    // Offline: answer Stripe.js with a tiny fake so the page's Stripe mode can be exercised.
    await page.route("https://js.stripe.com/v3/", (route) =>
      route.fulfill({
        contentType: "application/javascript",
        body: "window.Stripe = (key) => ({ elements: ({ clientSecret }) => ({ create: () => ({ mount: (el) => { el.dataset.mounted = key + '|' + clientSecret; } }) }), confirmPayment: async () => ({ error: { message: 'Your card was declined.' } }) });",
      }),
    );
    await page.goto(`${stripeSite.baseUrl}/checkout?plan=standard`);
    await waitForIslands(page);
    const element = page.getByTestId("stripe-payment-element");
    await page.waitForFunction(() => document.querySelector<HTMLElement>("[data-testid=stripe-payment-element]")?.dataset.mounted);
    const intent = [...standIn.intents.values()].at(-1)!;
    expect(await element.getAttribute("data-mounted")).toBe(`pk_test_stand_in|${intent.client_secret}`);
    expect(await page.getByLabel("Card number").count()).toBe(0);
    await page.getByLabel("Name on card").fill("Sam Stripe");
    await page.getByLabel("Email").fill("sam@example.com");
    await page.getByRole("button", { name: "Complete Payment" }).click();
    const text = await toastText(page);
    expect(text).toContain("Payment Failed");
    expect(text).toContain("Your card was declined.");
    await page.context().close();
  });
});
