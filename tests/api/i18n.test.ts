import { afterAll, beforeAll, describe, expect, it } from "vitest";
import supertest from "supertest";
import { type TestContext, createTestContext } from "../support/context.js";
import { expectAllTranslated, pseudoApp } from "../support/pseudo-locale.js";

// Language by address and the catalogue on the pages (docs/decisions.md#64, #65).
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: "https://haven.example", CONTACT_EMAIL: "hello@haven.test" });
  await ctx.container.plans.seed();
});
afterAll(() => ctx.close());

const get = (path: string) => ctx.agent().get(path);

describe("/fr addresses", () => {
  it("serves a homeowner page in French at /fr + its path, with <html lang>, hreflang pairs and the switch", async () => {
    const res = await get("/fr/pricing?checkout_error=1").expect(200);
    expect(res.text).toContain('<html lang="fr-CA">');
    expect(res.text).toContain('<link rel="alternate" hreflang="en-CA" href="https://haven.example/pricing">');
    expect(res.text).toContain('<link rel="alternate" hreflang="fr-CA" href="https://haven.example/fr/pricing">');
    expect(res.text).toContain('<link rel="alternate" hreflang="x-default" href="https://haven.example/pricing">');
    // The switch keeps path and query, and its text says in its own language where it leads.
    expect(res.text).toContain(
      '<a class="lang-switch" href="/pricing?checkout_error=1" hreflang="en-CA" lang="en-CA" data-language-switch>English</a>',
    );
    expect(res.text).toContain("Le paiement n&#39;a pas pu être préparé. Veuillez réessayer.");
    expect(res.text).toContain("149\u00a0$");
    expect(res.text).toContain('action="/fr/checkout/start"');
    expect(res.text).toContain('<a class="nav-link" href="/fr/pricing" aria-current="page">Tarifs</a>');

    const english = await get("/pricing?checkout_error=1").expect(200);
    expect(english.text).toContain('<html lang="en-CA">');
    expect(english.text).toContain(
      '<a class="lang-switch" href="/fr/pricing?checkout_error=1" hreflang="fr-CA" lang="fr-CA" data-language-switch>Français</a>',
    );
    // The suggestion is in French, hidden until the browser says it prefers French (islands/site/language.ts).
    expect(english.text).toMatch(/<p class="lang-suggest" lang="fr-CA" data-lang-suggest hidden>/);
    expect(english.text).toContain("$149");
  });

  it("writes the office's phone as each language does: (613) 555-0142, and 613-555-0142 in French (the glossary)", async () => {
    const french = (await get("/fr/contact").expect(200)).text;
    expect(french.match(/613-555-0142/g)?.length).toBeGreaterThanOrEqual(2);
    expect(french).not.toContain("(613) 555-0142");
    expect(french).toContain('href="tel:6135550142"');
    expect((await get("/contact").expect(200)).text).toContain(">(613) 555-0142</a>");
  });

  it("the home page is /fr; /fr/ and escaped spellings are redirected to one spelling", async () => {
    expect((await get("/fr").expect(200)).text).toContain('<html lang="fr-CA">');
    expect((await get("/fr/").expect(308)).headers.location).toBe("/fr");
    expect((await get("/fr/%70ricing?x=1").expect(308)).headers.location).toBe("/fr/pricing?x=1");
  });

  it("opens nothing the English path would not: staff pages, the API, files and other spellings are 404", async () => {
    for (const path of [
      "/FR/pricing",
      "/Fr/pricing",
      "/fr/admin",
      "/fr/admin/properties",
      "/fr/login",
      "/fr/robots.txt",
    ])
      expect((await get(path)).status, path).toBe(404);
    for (const path of ["/fr/api/plans", "/fr/api/properties", "/fr%2Fpricing"])
      expect((await get(path)).status, path).toBe(404);
    expect((await ctx.agent().post("/fr/api/customers").send({})).status).toBe(404);
    // A guarded homeowner page keeps its guard: My Home asks to sign in, in French.
    const home = await get("/fr/my-home/plan");
    expect(home.status).toBe(303);
    expect(home.headers.location).toBe(`/fr/my-home/sign-in?next=${encodeURIComponent("/fr/my-home/plan")}`);
  });

  it("keeps each language's copy apart in the page cache", async () => {
    const first = await supertest(ctx.app).get("/fr/contact").expect(200);
    const english = await supertest(ctx.app).get("/contact").expect(200);
    const again = await supertest(ctx.app).get("/fr/contact").expect(200);
    expect(first.text).toContain('<html lang="fr-CA">');
    expect(english.text).toContain('<html lang="en-CA">');
    expect(again.text).toBe(first.text);
  });
});

describe("the customer's language", () => {
  it("POST /api/customers stores the intake page's locale; a language Haven does not speak is a 400", async () => {
    const amount = (await ctx.container.plans.get("standard")).checkoutPrice;
    const intent = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount, plan: "standard", locale: "fr-CA" })
      .expect(200);
    const card = {
      name: "Camille Roy",
      email: "camille@example.ca",
      cardNumber: "4242424242424242",
      expiry: "12 / 39",
      cvc: "123",
    };
    const paid = await ctx
      .agent()
      .post("/api/demo/confirm-payment")
      .send({ ...card, clientSecret: intent.body.clientSecret })
      .expect(200);
    const sessionId = paid.body.paymentIntentId as string;
    const body = {
      stripeSessionId: sessionId,
      planType: "standard",
      email: "camille@example.ca",
      name: "Camille Roy",
      phone: "819-555-0142",
      property: {
        address: "5 rue Laurier",
        city: "Gatineau",
        province: "QC",
        postalCode: "J8X 3V8",
        squareFootage: 1500,
        yearBuilt: 1975,
      },
    };
    const bad = await ctx
      .agent()
      .post("/api/customers")
      .send({ ...body, locale: "fr" });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.locale).toBe("Locale must be en-CA or fr-CA");
    const res = await ctx
      .agent()
      .post("/api/customers")
      .send({ ...body, locale: "fr-CA" });
    expect(res.status).toBe(201);
    expect((await ctx.db("customers").where({ id: res.body.id }).first()).locale).toBe("fr-CA");
  });
});

/** The pages whose every text comes from the catalogue; a translated page is added here. */
const PSEUDO_PAGES = [
  "/",
  "/pricing",
  "/haven-health-report",
  "/health-report-explainer",
  "/contact",
  "/maintenance-hub",
  "/free-report",
  "/report-expired",
  // The buying and booking journey (checkout, intake, the wizard, the confirmation).
  "/checkout?plan=standard",
  "/payment-success?plan=premium",
  "/property-intake?plan=basic&demo=1",
  "/schedule-inspection?plan=standard",
  "/book-inspection",
  "/booking-confirmation",
  // Onboarding's page around its wizard (the wizard's own words: tests/api/my-home-pages-fr.test.ts).
  "/onboarding",
];

describe("pseudo locale: nothing left in English by accident", () => {
  it.each(PSEUDO_PAGES)("%s shows no text outside the catalogue", async (path) => {
    const res = await supertest(pseudoApp(ctx)).get(path).expect(200);
    expect(res.text).toContain('<html lang="en-XA">');
    // Data, not copy: the brand, the contact e-mail, the postal code's example.
    expectAllTranslated(res.text, path, [
      "Haven",
      "hello@haven.test",
      "K1S 2B4",
      "ads.example-listings.com",
      "forum.example-diy.net",
      "directory.example.com",
    ]);
  });
});
