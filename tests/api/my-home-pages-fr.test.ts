// The homeowner's remaining pages in French (docs/decisions.md#70): My Home's Visits and Plan pages, the receipt, the
// billing link's pages and onboarding, each at its /fr address (a title and a sentence) and under the pseudo locale
// (no text outside the catalogue but the data); and a homeowner call's refusal in the language it asked for.
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signBillingToken } from "../../src/modules/subscriptions/index.js";
import { addDays } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { suiteToday } from "../support/clock.js";
import { expectAllTranslated, pseudoApp } from "../support/pseudo-locale.js";

const TZ = "America/Toronto";
const EMAIL = "camille.fr@example.com";
const ADDRESS = "14 rue Principale";
let ctx: TestContext;
let paths: string[] = [];
let invoiceNumber = "";

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email: EMAIL, name: "Camille Roy", phone: "613-555-0142", subscriptionPlan: "free-score", locale: "fr-CA" },
    { address: ADDRESS, city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1800, yearBuilt: 1990 },
  );
  const owner = { customerId: customer.id, propertyId: property.id };
  const date = (await ctx.container.homeVisits.rescheduleOptions()).dates[2]!;
  const booking = await ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      { ...owner, scheduledDate: date, timeSlot: "morning", source: "booking-page" },
      { email: EMAIL, name: "Camille Roy" },
    ),
  );
  const sub = await ctx.container.subscriptions.startDemo(
    {
      checkoutRef: "cs_fr",
      planType: "premium",
      amountCents: 79900,
      payerEmail: EMAIL,
      payerName: "Camille Roy",
      cardNumber: "4242424242424242",
    },
    new Date(),
  );
  await ctx.container.transaction((tx) => ctx.container.subscriptions.attachToProperty("cs_fr", owner, tx, new Date()));
  const [task] = await ctx.container.maintenance.createTasks([
    {
      propertyId: property.id,
      title: "Replace the sump pump",
      description: null,
      category: "plumbing",
      priority: "high",
      status: "scheduled",
      scheduledDate: addDays(suiteToday(TZ), 10),
    },
  ]);
  expect(task).toBeDefined();
  const invoice = await ctx.db("invoices").where({ subscription_id: sub.id, status: "paid" }).first();
  invoiceNumber = invoice.number ?? "";
  const token = signBillingToken(sub.id, ctx.env.SESSION_SECRET);
  paths = [
    "/my-home/visits",
    `/my-home/visits/bookings/${booking.id}`,
    "/my-home/plan",
    `/my-home/plan/${sub.id}/cancel`,
    `/my-home/plan/${sub.id}/change?plan=standard`,
    `/my-home/plan/${sub.id}/card`,
    `/my-home/plan/invoices/${invoice.id}`,
    `/billing/${token}`,
    `/billing/${token}/cancel`,
    `/billing/${token}/card`,
  ];
});
afterAll(() => ctx.close());

/** Each page at /fr: its title and one sentence of its own, in French. */
const FRENCH: [RegExp, string, string][] = [
  [/^\/my-home\/visits$/, "Visites | Ma maison | Haven", "Ajouter à votre calendrier"],
  [/bookings\/\d+$/, "Modifier votre inspection", "Nous vous envoyons la nouvelle date par courriel sur-le-champ."],
  [/^\/my-home\/plan$/, "Forfait | Ma maison | Haven", "Durée minimale d’engagement de 3 mois"],
  [/plan\/\d+\/cancel$/, "Annuler votre forfait | Ma maison", "Dites-nous pourquoi (facultatif)"],
  [/change\?plan=standard$/, "Changer de forfait | Ma maison", "Passer à Haven Standard"],
  [/plan\/\d+\/card$/, "Mettre à jour votre carte | Ma maison", "Mode démo : aucune carte n’est débitée."],
  [/invoices\/\d+$/, "Reçu ", "Télécharger la facture (PDF)"],
  [/^\/billing\/[^/]+$/, "Votre forfait Haven", "Prochain paiement"],
  [/^\/billing\/[^/]+\/cancel$/, "Annuler votre forfait Haven", "sur cette page d’ici là"],
  [/^\/billing\/[^/]+\/card$/, "Mettre à jour votre carte", "par mois avant taxes"],
];

/** The page's text with its entities decoded and its no-break spaces as plain ones, apostrophes curly. */
const text = (html: string) =>
  html
    .replace(/&#39;/g, "’")
    .replace(/'/g, "’")
    .replace(/&amp;/g, "&")
    .replace(/\u00a0/g, " ");

describe("the homeowner's pages in French", () => {
  it("say their title and their words in French at /fr", async () => {
    const agent = await signInHome(ctx, EMAIL);
    for (const path of paths) {
      const [, title, sentence] = FRENCH.find(([match]) => match.test(path))!;
      const page = text((await agent.get(`/fr${path}`).expect(200)).text);
      expect(page, path).toContain('<html lang="fr-CA">');
      expect(page.match(/<title>([^<]*)<\/title>/)?.[1], path).toContain(title.replace(/'/g, "’"));
      expect(page, path).toContain(sentence.replace(/\u00a0/g, " "));
    }
    const plan = text((await agent.get("/fr/my-home/plan").expect(200)).text);
    // Amounts, dates and taxes in French: "903,87 $ CA (799,00 $ + TVH 103,87 $)".
    expect(plan).toMatch(/\d+,\d\d \$ CA \(\d+,\d\d \$ \+ TVH \d+,\d\d \$\)/);
    const onboarding = text((await supertest(ctx.app).get("/fr/onboarding").expect(200)).text);
    expect(onboarding).toContain("<title>Obtenez votre indice gratuit | Haven</title>");
    expect(onboarding).toContain("Ce formulaire a besoin de JavaScript.");
  });

  it("show no text outside the catalogue but their data (pseudo locale)", async () => {
    const agent = await signInHome(ctx, EMAIL, supertest.agent(pseudoApp(ctx)));
    const data = [
      EMAIL,
      ADDRESS,
      "Ottawa",
      invoiceNumber,
      // The seller on the receipt: its legal name and registration number.
      ctx.container.homePlan.business?.legalName ?? "",
      ctx.container.homePlan.business?.gstHstNumber ?? "",
      "Replace the sump pump",
      "Camille Roy",
      "Haven",
      ctx.env.CONTACT_EMAIL ?? "",
      // The card form's placeholder and the tax line's kind are data (a number, a tax's name).
      "HST",
      "CAD",
      "English",
    ].filter(Boolean);
    for (const path of [...paths, "/onboarding"]) {
      const page = await agent.get(path).expect(200);
      expectAllTranslated(page.text, path, data);
    }
  });

  it("answer a homeowner call's refusal in the language it asked for; staff calls stay English", async () => {
    const french = await supertest(ctx.app)
      .post("/api/onboarding")
      .set("Accept-Language", "fr-CA")
      .send({ email: "not-an-email" })
      .expect(400);
    expect(french.body.message).toMatch(/^Veuillez remplir tous les champs obligatoires/);
    const english = await supertest(ctx.app).post("/api/onboarding").send({ email: "not-an-email" }).expect(400);
    expect(english.body.message).toMatch(/^Please fill in all required fields: /);
  });
});
