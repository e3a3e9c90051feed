// The purchase journey's single steps and its failures, in demo mode and in Stripe mode (stand-in).
// The whole journey from /pricing to the confirmation is in journey.test.ts.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatters } from "../../src/i18n/index.js";
import {
  DESKTOP,
  PHONE,
  expectAccessible,
  screenshotBothWidths,
  waitForCarousel,
  waitForIslands,
} from "../support/browser.js";
import { type PurchaseSites, choosePlan, fillIntake, openPurchaseSites, toastText } from "../support/purchase.js";

let sites: PurchaseSites;
beforeAll(async () => {
  sites = await openPurchaseSites();
});
afterAll(() => sites?.close());

/** The demo card form, filled with a good card for a home at this postal code. */
async function fillDemoCheckout(page: Page, postalCode: string) {
  await page.getByLabel("Name on card").fill("Olive Ottawa");
  await page.getByLabel("Email").fill("olive@example.com");
  await page.getByLabel("Postal code of the home").fill(postalCode);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
  await page.getByLabel("CVC").fill("123");
}

describe("purchase journey in demo mode", () => {
  it("a Standard subscriber in Ottawa sees $412.00 + HST $53.56 = $465.56 before paying; a postal code naming no province is refused", async () => {
    const page = await sites.newPage(PHONE);
    const before = Number((await sites.demo.ctx.db("payments").count({ n: "*" }))[0]!.n);
    await page.goto(`${sites.demo.baseUrl}/checkout?plan=standard`);
    await waitForIslands(page);
    await fillDemoCheckout(page, "D1A 1A1");
    await page.getByRole("button", { name: "Complete Payment" }).click();
    // Refused in its field; nothing typed is lost, and nothing was made.
    await page.getByText("Enter a valid postal code, like K1S 2B4").waitFor();
    expect(await page.getByLabel("Postal code of the home").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Name on card").inputValue()).toBe("Olive Ottawa");
    expect(await page.getByLabel("Card number").inputValue()).toBe("4242 4242 4242 4242");
    expect(Number((await sites.demo.ctx.db("payments").count({ n: "*" }))[0]!.n)).toBe(before);
    await expectAccessible(page);
    await screenshotBothWidths(page, "checkout-postal-refused");

    await page.getByLabel("Postal code of the home").fill("K1S 2B4");
    await expect.poll(() => page.getByTestId("pay-total").innerText()).toBe("$465.56");
    expect(await page.getByTestId("pay-subtotal").innerText()).toBe("$412.00");
    expect(await page.getByTestId("pay-summary").innerText()).toMatch(/HST 13%\s+\$53\.56/);
    expect(await page.getByTestId("pay-charge").innerText()).toBe(
      "You will be charged $465.56 CAD ($412.00 + tax) for the Standard plan, then monthly.",
    );
    // The summary sits above the pay button.
    const summary = (await page.getByTestId("pay-summary").boundingBox())!;
    const button = (await page.getByRole("button", { name: "Complete Payment" }).boundingBox())!;
    expect(summary.y + summary.height).toBeLessThanOrEqual(button.y);
    await expectAccessible(page);
    await screenshotBothWidths(page, "checkout-ottawa-taxed");

    await page.getByRole("button", { name: "Complete Payment" }).click();
    await page.waitForURL(/\/payment-success\?plan=standard&payment_intent=demo_pi_[a-f0-9]+$/);
    const intentId = new URL(page.url()).searchParams.get("payment_intent")!;
    expect(await sites.demo.ctx.db("payments").where({ provider_id: intentId }).first()).toMatchObject({
      status: "succeeded",
      amount_cents: 46_556,
      subtotal_cents: 41_200,
      postal_code: "K1S 2B4",
    });
    await page.context().close();
  });

  it("/checkout → /payment-success → /property-intake → /schedule-inspection", async () => {
    const page = await sites.newPage(PHONE);
    await page.goto(`${sites.demo.baseUrl}/checkout?plan=premium`);
    await waitForIslands(page);
    await page.getByRole("button", { name: "Complete Payment" }).waitFor();
    expect(await page.getByTestId("summary-price").innerText()).toBe("$889");
    expect(await page.getByTestId("pay-total").innerText()).toBe("—");
    await expectAccessible(page);
    await screenshotBothWidths(page, "checkout-demo");

    await page.getByLabel("Name on card").fill("Ada Lovelace");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Postal code of the home").fill("k1s2b4");
    await expect.poll(() => page.getByTestId("pay-total").innerText()).toBe("$1,004.57");
    await page.getByLabel("Card number").fill("4242424242424242");
    expect(await page.getByLabel("Card number").inputValue()).toBe("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("1239");
    expect(await page.getByLabel("Expiry (MM / YY)").inputValue()).toBe("12 / 39");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Complete Payment" }).click();

    await page.waitForURL(/\/payment-success\?plan=premium&payment_intent=demo_pi_[a-f0-9]+$/);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
    expect(
      await page.evaluate(() => [sessionStorage.getItem("selectedPlan"), sessionStorage.getItem("paymentCompleted")]),
    ).toEqual(["premium", "true"]);
    await expectAccessible(page);
    await screenshotBothWidths(page, "payment-success");
    const intentId = new URL(page.url()).searchParams.get("payment_intent")!;
    // The total with Ontario's HST was charged; the postal code is kept for intake (docs/decisions.md#32).
    expect(await sites.demo.ctx.db("payments").where({ provider_id: intentId }).first()).toMatchObject({
      status: "succeeded",
      amount_cents: 100_457,
      subtotal_cents: 88_900,
      postal_code: "K1S 2B4",
      customer_email: "ada@example.com",
    });

    await page.getByRole("link", { name: "Continue to Property Information" }).click();
    await page.waitForURL(/\/property-intake\?/);
    const intakeUrl = new URL(page.url());
    expect(Object.fromEntries(intakeUrl.searchParams)).toMatchObject({
      plan: "premium",
      session_id: intentId,
      demo: "1",
      customer_email: "ada@example.com",
      customer_name: "Ada Lovelace",
    });
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    const email = page.getByLabel("Email");
    expect(await email.inputValue()).toBe("ada@example.com");
    expect(await email.getAttribute("readonly")).not.toBeNull();
    expect(await page.getByLabel("Full name").inputValue()).toBe("Ada Lovelace");
    // Intake prefills the home's postal code and province from the purchase.
    await expect.poll(() => page.getByLabel("Postal code").inputValue()).toBe("K1S 2B4");
    expect(await page.getByLabel("Province").inputValue()).toBe("ON");
    // Canada's provinces by name, then the US states apart, each by its name.
    const province = page.getByLabel("Province");
    expect(
      await province.locator("optgroup").evaluateAll((groups) => groups.map((g) => g.getAttribute("label"))),
    ).toEqual(["Canada", "United States"]);
    expect(await province.locator('optgroup[label="Canada"] option[value="ON"]').innerText()).toBe("Ontario");
    expect(await province.locator('optgroup[label="United States"] option[value="NY"]').innerText()).toBe("New York");
    await expectAccessible(page);
    await screenshotBothWidths(page, "property-intake");

    // Missing fields are named one by one, and nothing typed is lost.
    await page.getByLabel("City").fill("Springfield");
    await page.getByRole("button", { name: "Save and Schedule Inspection" }).click();
    await page.getByText("Street address is required").waitFor();
    expect(await page.getByText("Square footage is required").isVisible()).toBe(true);
    expect(await page.getByLabel("City").inputValue()).toBe("Springfield");
    // The island moves focus after it renders the errors: wait for it rather than read it at once.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("intake-phone");
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
    await page.waitForURL(`${sites.demo.baseUrl}/schedule-inspection?customer_id=${id}&plan=premium`);

    const customer = await sites.demo.ctx.db("customers").where({ id }).first();
    expect(customer).toMatchObject({
      email: "ada@example.com",
      subscription_plan: "premium",
      stripe_session_id: intentId,
    });
    // The session cookie now names this customer.
    const mine = await page.evaluate(() => fetch("/api/properties").then((r) => r.json()));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ address: "221 Albert Street", stories: "3", heatingType: "heat-pump" });
    await page.context().close();
  });

  it("a declined card shows 'Payment Failed' with the reason and keeps the form", async () => {
    const page = await sites.newPage();
    await page.goto(`${sites.demo.baseUrl}/checkout?plan=basic`);
    await waitForIslands(page);
    await page.getByLabel("Name on card").fill("Dee Clined");
    await page.getByLabel("Email").fill("dee@example.com");
    await page.getByLabel("Postal code of the home").fill("K2P 1L5");
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
    expect(page.url()).toBe(`${sites.demo.baseUrl}/checkout?plan=basic`);
    expect(await page.getByLabel("Name on card").inputValue()).toBe("Dee Clined");
    await expectAccessible(page);
    await screenshotBothWidths(page, "checkout-declined");
    await page.context().close();
  });

  it("the plan button follows the demo checkout session to the demo hosted checkout, at the pricing page's price", async () => {
    const page = await sites.newPage(PHONE);
    // With script the button asks the API (no form post to /checkout/start).
    const apiCall = page.waitForRequest(
      (r) => r.url().endsWith("/api/create-checkout-session") && r.method() === "POST",
    );
    const formPost = page
      .waitForRequest((r) => r.url().endsWith("/checkout/start"), { timeout: 3000 })
      .catch(() => null);
    let pricingPrice = "";
    await choosePlan(page, sites.demo.baseUrl, "Standard", async () => {
      pricingPrice = await page.locator('[data-plan="standard"] [data-plan-price]').innerText();
      // The home's postal code goes with the plan: the hosted checkout shows its province's tax.
      await page.getByLabel("Postal code of the home").fill("k1s 2b4");
    });
    expect((await apiCall).postDataJSON()).toEqual({ planType: "standard", postalCode: "K1S 2B4" });
    await page.waitForURL(new RegExp(`^${sites.demo.baseUrl}/demo-checkout/demo_cs_[a-f0-9]{24}$`));
    expect(await formPost).toBeNull();
    await waitForIslands(page);
    await page.getByRole("button", { name: "Subscribe" }).waitFor();
    // One price from /pricing to the card form (decision 23).
    expect(pricingPrice).toBe("$370");
    expect(await page.getByTestId("summary-price").innerText()).toBe(pricingPrice);
    // Subtotal, Ontario's HST and the total, before the pay button (docs/decisions.md#32).
    expect(await page.getByTestId("summary-subtotal").innerText()).toBe("$370.00");
    expect(await page.getByTestId("tax-summary").innerText()).toMatch(/HST 13%\s+\$48\.10/);
    expect(await page.getByTestId("summary-total").innerText()).toBe("$418.10");
    expect(
      await page
        .getByText("You will be charged $418.10 CAD ($370.00 + tax) for the Standard plan, then monthly.")
        .isVisible(),
    ).toBe(true);
    expect(await page.locator("body").innerText()).not.toContain("412");
    await expectAccessible(page);
    await screenshotBothWidths(page, "demo-hosted-checkout");

    // A declined card stays on the hosted page; a good one goes on to the intake page, as Stripe's success_url.
    await page.getByLabel("Name on card").fill("Morgan Reyes");
    await page.getByLabel("Email").fill("morgan@example.com");
    await page.getByLabel("Card number").fill("4000 0000 0000 0002");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 39");
    await page.getByLabel("CVC").fill("123");
    await page.getByRole("button", { name: "Subscribe" }).click();
    expect(await page.getByTestId("payment-failure").innerText()).toContain("Your card was declined.");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.waitForURL(/\/property-intake\?session_id=demo_cs_[a-f0-9]{24}&plan=standard$/);
    const sessionId = new URL(page.url()).searchParams.get("session_id")!;
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    await expect.poll(() => page.getByLabel("Email").inputValue()).toBe("morgan@example.com");
    expect(await page.getByLabel("Email").getAttribute("readonly")).not.toBeNull();
    expect(await sites.demo.ctx.db("payments").where({ provider_id: sessionId }).first()).toMatchObject({
      kind: "checkout_session",
      status: "succeeded",
      amount_cents: 41_810,
      postal_code: "K1S 2B4",
    });
    await page.context().close();
  });

  it("/pricing refuses a postal code that names no province in its field, and asks nothing of the API", async () => {
    const page = await sites.newPage(PHONE);
    const calls: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/create-checkout-session")) calls.push(r.url());
    });
    await page.goto(`${sites.demo.baseUrl}/pricing`);
    await page.locator("[data-carousel-ready]").waitFor({ state: "attached" });
    await page.getByLabel("Postal code of the home").fill("D1A 1A1");
    await page.getByRole("button", { name: "Choose Basic" }).click();
    await page.getByText("Enter a valid postal code, like K1S 2B4").waitFor();
    const field = page.getByLabel("Postal code of the home");
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await field.inputValue()).toBe("D1A 1A1");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("pricing-postal");
    expect(calls).toEqual([]);
    expect(page.url()).toBe(`${sites.demo.baseUrl}/pricing`);
    await expectAccessible(page);
    await screenshotBothWidths(page, "pricing-postal-refused");
    await page.context().close();
  });

  it("without script the plan form posts to /checkout/start and lands on the demo hosted checkout", async () => {
    const context = await sites.browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await choosePlan(page, sites.demo.baseUrl, "Premium");
    await page.waitForURL(new RegExp(`^${sites.demo.baseUrl}/demo-checkout/demo_cs_[a-f0-9]{24}$`));
    // No postal code without script: the business's province (ON) is taxed, and shown before the pay button.
    expect(await page.getByTestId("summary-price").innerText()).toBe("$799");
    expect(await page.getByTestId("summary-total").innerText()).toBe("$902.87");
    await context.close();
  });

  it("a failed checkout session shows the spec's alert", async () => {
    const page = await sites.newPage();
    await page.route("**/api/create-checkout-session", (route) => route.fulfill({ status: 500, body: "boom" }));
    const dialog = new Promise<string>((resolve) => {
      page.once("dialog", (d) => {
        resolve(d.message());
        d.dismiss().catch(() => undefined);
      });
    });
    await choosePlan(page, sites.demo.baseUrl, "Basic");
    expect(await dialog).toBe("Error creating checkout session. Please try again.");
    expect(page.url()).toBe(`${sites.demo.baseUrl}/pricing`);
    expect(await page.getByRole("button", { name: "Choose Basic" }).isEnabled()).toBe(true);
    await page.context().close();
  });

  it("sends the visitor to /pricing when the payment intent cannot be created (on submit: nothing exists before)", async () => {
    const page = await sites.newPage();
    await page.route("**/api/create-payment-intent", (route) => route.fulfill({ status: 500, body: "down" }));
    await page.goto(`${sites.demo.baseUrl}/checkout?plan=standard`);
    await waitForIslands(page);
    await fillDemoCheckout(page, "K1S 2B4");
    await page.getByRole("button", { name: "Complete Payment" }).click();
    await page.waitForURL(`${sites.demo.baseUrl}/pricing`);
    await page.context().close();
  });

  it("an unpaid session shows 'Payment Verification Failed' and returns to /pricing", async () => {
    const page = await sites.newPage(PHONE);
    await page.goto(`${sites.demo.baseUrl}/property-intake?session_id=demo_cs_000000000000000000000000&plan=basic`);
    await waitForIslands(page);
    const text = await toastText(page);
    expect(text).toContain("Payment Verification Failed");
    expect(text).toContain("Please contact support if you believe this is an error.");
    await screenshotBothWidths(page, "property-intake-unverified");
    await page.waitForURL(`${sites.demo.baseUrl}/pricing`);
    await page.context().close();
  });

  it("a verification error shows the 'Error' toast and keeps the form", async () => {
    const page = await sites.newPage();
    await page.route("**/api/verify-payment**", (route) => route.fulfill({ status: 502, body: "{}" }));
    await page.goto(
      `${sites.demo.baseUrl}/property-intake?session_id=demo_cs_000000000000000000000000&plan=basic&demo=1`,
    );
    await waitForIslands(page);
    const text = await toastText(page);
    expect(text).toContain("Error");
    expect(text).toContain("Unable to verify payment. Please try again.");
    await page.getByTestId("intake-form").waitFor();
    await page.context().close();
  });
});

/** Visible text with every kind of space as one plain space (French puts non-breaking ones before $ and %). */
const plain = (text: string) => text.replace(/\s+/g, " ").trim();

describe("purchase journey in French (docs/decisions.md#65)", () => {
  it("/fr/pricing → /fr/checkout → /fr/payment-success → /fr/property-intake → /fr/schedule-inspection → /fr/booking-confirmation, all in French; the customer is stored in fr-CA", async () => {
    const page = await sites.newPage(PHONE);
    const base = sites.demo.baseUrl;
    const lang = () => page.evaluate(() => document.documentElement.lang);
    // The plan is chosen on the French pricing page, on a phone (its carousel): its checkout opens in French.
    await page.goto(`${base}/fr/pricing`);
    expect(await lang()).toBe("fr-CA");
    await page.locator("[data-carousel-ready]").waitFor({ state: "attached" });
    await page.getByRole("button", { name: "Afficher le forfait Standard" }).click();
    await waitForCarousel(page);
    await page.getByRole("button", { name: "Choisir Standard" }).click();
    await page.waitForURL(new RegExp(`^${base}/fr/demo-checkout/demo_cs_[a-f0-9]{24}$`));
    expect(await lang()).toBe("fr-CA");
    // The embedded payment form, at its French address.
    await page.goto(`${base}/fr/checkout?plan=standard`);
    await waitForIslands(page);
    expect(await lang()).toBe("fr-CA");
    await page.getByRole("heading", { name: "Finaliser votre achat" }).waitFor();
    // The form's own checks, in French, before anything is sent.
    await page.getByRole("button", { name: "Payer" }).click();
    await page.getByText("Nom sur la carte : ce champ est obligatoire").waitFor();
    expect(plain(await page.getByTestId("pay-summary").innerText())).toContain("Entrez le code postal de la propriété");

    // A home in Montréal: TPS and TVQ, amounts as Canadian French writes them.
    await page.getByLabel("Nom sur la carte").fill("Camille Tremblay");
    await page.getByLabel("Courriel").fill("camille@example.com");
    await page.getByLabel("Code postal de la propriété").fill("h2x1y4");
    await expect.poll(() => page.getByTestId("pay-total").innerText()).toBe("473,70\u00a0$");
    const summary = plain(await page.getByTestId("pay-summary").innerText());
    expect(summary).toContain("Sous-total (avant taxes) 412,00 $");
    expect(summary).toContain("TPS 5 % 20,60 $");
    expect(summary).toContain("TVQ 9,975 % 41,10 $");
    expect(plain(await page.getByTestId("pay-charge").innerText())).toBe(
      "Vous paierez 473,70 $ CA (412,00 $ + taxes) pour le forfait Standard, puis chaque mois.",
    );
    await page.getByLabel("Numéro de carte").fill("4242424242424242");
    await page.getByLabel("Date d'expiration (MM / AA)").fill("1239");
    await page.getByLabel("Code de sécurité (CVC)").fill("123");
    await expectAccessible(page);
    await screenshotBothWidths(page, "fr-checkout");
    await page.getByRole("button", { name: "Payer" }).click();

    await page.waitForURL(/\/fr\/payment-success\?plan=standard&payment_intent=demo_pi_[a-f0-9]+$/);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Paiement réussi !" }).waitFor();
    expect(await lang()).toBe("fr-CA");
    await expectAccessible(page);
    await screenshotBothWidths(page, "fr-payment-success");
    await page.getByRole("link", { name: "Continuer vers les renseignements sur la propriété" }).click();

    await page.waitForURL(/\/fr\/property-intake\?/);
    await waitForIslands(page);
    await page.getByTestId("intake-form").waitFor();
    expect(await page.getByLabel("Nom complet").inputValue()).toBe("Camille Tremblay");
    await expect.poll(() => page.locator("#intake-zipCode").inputValue()).toBe("H2X 1Y4");
    expect(await page.getByLabel("Province").inputValue()).toBe("QC");
    expect(await page.locator('#intake-state option[value="QC"]').innerText()).toBe("Québec");
    await page.getByRole("button", { name: "Enregistrer et planifier l'inspection" }).click();
    await page.getByText("Adresse : ce champ est obligatoire").waitFor();
    await page.getByLabel("Téléphone").fill("514-555-0142");
    await page.locator("#intake-address").fill("350 rue Sherbrooke Est");
    await page.getByLabel("Ville").fill("Montréal");
    await page.getByLabel("Superficie (pi²)").fill("1850");
    await page.getByLabel("Année de construction").fill("1978");
    await page.getByLabel("Type de toiture").selectOption("metal");
    expect(await page.locator('#intake-roofType option[value="metal"]').innerText()).toBe("Métal");
    await expectAccessible(page);
    await screenshotBothWidths(page, "fr-property-intake");
    const saved = page.waitForResponse((r) => r.url().endsWith("/api/customers") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Enregistrer et planifier l'inspection" }).click();
    const { id } = await (await saved).json();
    expect(await toastText(page, "Renseignements sur la propriété enregistrés")).toContain(
      "Redirection vers la planification de votre inspection",
    );
    await page.waitForURL(`${base}/fr/schedule-inspection?customer_id=${id}&plan=standard`);
    expect(await sites.demo.ctx.db("customers").where({ id }).first()).toMatchObject({
      email: "camille@example.com",
      locale: "fr-CA",
    });

    await waitForIslands(page);
    await page.getByRole("heading", { name: "Rendez-vous", exact: true }).waitFor();
    expect(await lang()).toBe("fr-CA");
    expect(await page.getByText(/^Étape \d de \d\./).innerText()).toContain("Étape 3 de 3.");
    await page.getByLabel("Type de propriété").selectOption("single-family");
    const { minDate } = sites.demo.ctx.container.bookings.calendar();
    await page.getByLabel("Date de l'inspection").fill(minDate);
    expect(await page.locator('#timeSlot option[value="9:30 AM"]').innerText()).toBe("9 h 30");
    await page.getByLabel("Heure").selectOption("9:30 AM");
    await page.getByText("Rencontrer l'inspecteur sur place").click();
    await expectAccessible(page);
    await screenshotBothWidths(page, "fr-schedule-inspection");
    await page.getByRole("button", { name: "Planifier l'inspection" }).click();
    expect(await toastText(page, "Inspection planifiée")).toContain(
      "Vous recevrez sous peu un courriel de confirmation",
    );

    await page.waitForURL(`${base}/fr/booking-confirmation`);
    await waitForIslands(page);
    await page.getByRole("heading", { name: "Votre inspection est réservée !" }).waitFor();
    expect(await lang()).toBe("fr-CA");
    expect(await page.getByTestId("confirmation-date").innerText()).toBe(formatters("fr-CA").longDate(minDate));
    expect(await page.getByTestId("confirmation-time").innerText()).toBe("9 h 30");
    expect(await page.getByTestId("confirmation-access").innerText()).toBe("Rencontrer l'inspecteur sur place");
    expect(plain(await page.getByTestId("confirmation-visit-length").innerText())).toMatch(
      /^Prévoyez d'être à la maison pendant toute la visite, environ \d heures :/,
    );
    expect(await page.getByRole("link", { name: "Ma maison" }).getAttribute("href")).toBe("/fr/my-home/sign-in");
    await expectAccessible(page);
    await screenshotBothWidths(page, "fr-booking-confirmation");
    await page.context().close();
  });
});

describe("purchase journey in Stripe mode (stand-in)", () => {
  it("without script, a failed checkout session comes back to /pricing with the spec's alert", async () => {
    const context = await sites.browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    sites.standIn.failWith = 500;
    try {
      await page.goto(`${sites.stripe.baseUrl}/pricing`);
      expect(await page.getByRole("alert").count()).toBe(0);
      // No script: the carousel is a sideways scroll, and each plan's form still posts.
      await page.getByRole("button", { name: "Choose Premium" }).click();
      await page.waitForURL(`${sites.stripe.baseUrl}/pricing?checkout_error=1`);
    } finally {
      sites.standIn.failWith = null;
    }
    expect(await page.getByTestId("checkout-error").innerText()).toBe(
      "Error creating checkout session. Please try again.",
    );
    expect(await page.getByTestId("checkout-error").getAttribute("role")).toBe("alert");
    // Trying again works once Stripe answers.
    await page.getByRole("button", { name: "Choose Premium" }).click();
    await page.waitForURL(new RegExp(`^${sites.standIn.url}/pay/cs_test_`));
    await context.close();

    // axe needs script in the page: check the same server-rendered alert in a page that has it.
    const scripted = await sites.newPage(PHONE);
    await scripted.goto(`${sites.stripe.baseUrl}/pricing?checkout_error=1`);
    await scripted.getByTestId("checkout-error").waitFor();
    await expectAccessible(scripted);
    await screenshotBothWidths(scripted, "pricing-checkout-error");
    await scripted.context().close();
  });

  it("the payment page's Payment Element is deferred: nothing at Stripe until submit, then the taxed subscription (CSP allows js.stripe.com only here)", async () => {
    const page = await sites.newPage();
    // Offline: answer Stripe.js with a tiny fake of the deferred-intent flow so the page's Stripe mode can be
    // exercised: the element shows the amount it was given, and confirmPayment records the client secret it got.
    await page.route("https://js.stripe.com/v3/", (route) =>
      route.fulfill({
        contentType: "application/javascript",
        body: `window.Stripe = (key) => {
          let el = null;
          return {
            elements: (options) => ({
              create: () => ({ mount: (node) => { el = node; node.dataset.mounted = key + '|' + options.mode + '|' + options.currency; node.dataset.amount = String(options.amount); } }),
              update: ({ amount }) => { if (el) el.dataset.amount = String(amount); },
              submit: async () => ({}),
            }),
            confirmPayment: async ({ clientSecret }) => { el.dataset.confirmed = clientSecret; return { error: { message: 'Your card was declined.' } }; },
          };
        };`,
      }),
    );
    const before = sites.standIn.apiCalls("POST", /^\/v1\/(customers|subscriptions)$/).length;
    await page.goto(`${sites.stripe.baseUrl}/checkout?plan=standard`);
    await waitForIslands(page);
    const element = page.getByTestId("stripe-payment-element");
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>("[data-testid=stripe-payment-element]")?.dataset.mounted,
    );
    expect(await element.getAttribute("data-mounted")).toBe("pk_test_stand_in|subscription|cad");
    expect(await element.getAttribute("data-amount")).toBe("41200");
    expect(await page.getByLabel("Card number").count()).toBe(0);
    await page.getByLabel("Name on card").fill("Sam Stripe");
    await page.getByLabel("Email").fill("sam@example.com");
    await page.getByLabel("Postal code of the home").fill("K1S 2B4");
    // A Standard subscriber in Ottawa: $412.00 + HST $53.56 = $465.56 before the pay button.
    await expect.poll(() => page.getByTestId("pay-total").innerText()).toBe("$465.56");
    expect(await page.getByTestId("pay-subtotal").innerText()).toBe("$412.00");
    expect(await page.getByTestId("pay-summary").innerText()).toMatch(/HST 13%\s+\$53\.56/);
    await expect.poll(() => element.getAttribute("data-amount")).toBe("46556");
    // Opening the page and typing made nothing at Stripe.
    expect(sites.standIn.apiCalls("POST", /^\/v1\/(customers|subscriptions)$/)).toHaveLength(before);
    await expectAccessible(page);
    await screenshotBothWidths(page, "checkout-stripe-taxed");

    await page.getByRole("button", { name: "Complete Payment" }).click();
    const text = await toastText(page);
    expect(text).toContain("Payment Failed");
    expect(text).toContain("Your card was declined.");
    // The submit made the customer, with the e-mail, and the taxed subscription whose secret was confirmed.
    const [customer] = sites.standIn.apiCalls("POST", "/v1/customers").slice(-1);
    expect(customer!.form).toMatchObject({ email: "sam@example.com", "metadata[postal_code]": "K1S 2B4" });
    const secret = (await element.getAttribute("data-confirmed"))!;
    expect(sites.standIn.intents.get(secret.split("_secret_")[0]!)).toMatchObject({ amount: 46_556 });
    await page.context().close();
  });
});
