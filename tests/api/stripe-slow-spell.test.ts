// A slow spell at Stripe (docs/decisions.md#56): webhooks and the quote pay page call Stripe with no transaction open,
// so while the stand-in holds their calls unanswered, the rest of the site (bookings, sign-ins, pages) is served at
// once. Each kind of held call (5 webhooks, 5 quote payments) is as many as the tests' pool has connections: either,
// holding a connection each, would starve it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { EVERY_DAY, addInspector, wizardPayload } from "../support/inspectors.js";
import { quotedItem } from "../support/quote-invoices.js";
import { StripeStandIn } from "../support/stripe-stand-in.js";
import { postStripeEvent, stripeSubscription } from "../support/subscriptions.js";

let ctx: TestContext;
let stripe: StripeStandIn;

beforeAll(async () => {
  stripe = await StripeStandIn.start();
  ctx = await createTestContext(stripe.env());
  await ctx.container.plans.seed();
  await addInspector(ctx, "Spell", EVERY_DAY);
});
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

/** A homeowner's accepted quote, signed in to My Home. */
async function acceptedQuote() {
  const { quoteId, email } = await quotedItem(ctx);
  const home = await signInHome(ctx, email);
  await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
  return { quoteId, home };
}

describe("Stripe answering nothing for a while", () => {
  it("10 held webhook and quote-payment calls leave 30 other requests unharmed; released, each finishes", async () => {
    expect(ctx.db.client.config.pool.max).toBe(5);
    const subscriptions = await Promise.all(
      ["a", "b", "c", "d", "e"].map((tag) => stripeSubscription(ctx, stripe, `slow-${tag}@example.com`, "standard")),
    );
    const providerIds = await ctx.db("subscriptions").whereIn("id", subscriptions).pluck("provider_subscription_id");
    // Quotes with their PaymentIntent made (the pay page reads it back), and quotes whose pay call makes it.
    const opened = await Promise.all([1, 2, 3].map(() => acceptedQuote()));
    for (const q of opened) await q.home.post(`/api/my-home/quotes/${q.quoteId}/pay`).send({}).expect(200);
    const fresh = await Promise.all([1, 2].map(() => acceptedQuote()));
    const staff = await Promise.all(
      [1, 2].map(async (n) => {
        const email = `spell-staff-${n}@haven.test`;
        await ctx.container.users.create({
          email,
          password: "correct horse battery",
          firstName: "Sam",
          lastName: "Desk",
        });
        return email;
      }),
    );
    const { agent: desk } = await signInStaff(ctx);
    const firstDay = ctx.container.bookings.calendar().minDate;

    const spell = stripe.stall(/^\/v1\/(subscriptions|payment_intents)(\/|$)/);
    let answers: Awaited<ReturnType<typeof postStripeEvent>>[];
    try {
      const held = Promise.all([
        ...providerIds.map((id) => postStripeEvent(ctx, "customer.subscription.updated", stripe.subscription(id))),
        ...opened.map((q) => q.home.get(`/my-home/quotes/${q.quoteId}/pay`)),
        ...fresh.map((q) => q.home.post(`/api/my-home/quotes/${q.quoteId}/pay`).send({})),
      ]);
      // As many held as the pool has connections (the rest may still be on their way).
      await spell.held(5);

      const others = await Promise.allSettled(
        [
          ...[0, 1, 2, 3, 4, 5].map((n) =>
            ctx
              .agent()
              .post("/api/inspection-bookings")
              .send(wizardPayload(ctx, { scheduledDate: addDays(firstDay, n), timeSlot: "9:00 AM" })),
          ),
          ...staff.map((email) =>
            ctx.agent().post("/api/auth/login").send({ email, password: "correct horse battery" }),
          ),
          ...["/", "/pricing", "/book-inspection", "/my-home/sign-in", "/checkout"].map((path) =>
            ctx.agent().get(path),
          ),
          ...["/admin/dashboard", "/admin/subscriptions", "/admin/invoices", "/admin/properties"].map((path) =>
            desk.get(path),
          ),
          ...[0, 1, 2, 3, 4].map(() => desk.get("/api/properties")),
          ...opened.concat(opened[0]!).map((q) => q.home.get("/my-home")),
          ...opened.map((q) => q.home.get("/my-home/quotes")),
          ctx.agent().get("/login"),
        ].map((request) => request.timeout(10_000)),
      );
      expect(others).toHaveLength(30);
      const statuses = others.map((o) => (o.status === "fulfilled" ? o.value.status : String(o.reason)));
      expect(statuses.filter((s) => typeof s !== "number" || s >= 500)).toEqual([]);
      expect(statuses.slice(0, 6)).toEqual([201, 201, 201, 201, 201, 201]);
      expect(statuses.slice(6)).toEqual(Array(24).fill(200));
      spell.release();
      answers = await held;
    } finally {
      spell.release();
    }

    // Stripe answered: each held call finished and stored what it read.
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const page of answers.slice(5, 8)) expect(page.text).toContain("Pay");
    for (const pay of answers.slice(8)) {
      expect(pay.body).toMatchObject({ status: "requires_payment" });
      expect(pay.body.clientSecret).toMatch(/^pi_/);
    }
    const invoices = await ctx.db("invoices").whereIn(
      "quote_request_id",
      fresh.map((q) => q.quoteId),
    );
    expect(invoices.map((i) => i.payment_intent_id)).toEqual([
      expect.stringMatching(/^pi_/),
      expect.stringMatching(/^pi_/),
    ]);
    expect(
      Number(
        (await ctx.db("provider_events").where({ type: "customer.subscription.updated" }).count({ n: "*" }).first())!.n,
      ),
    ).toBe(5);
  });
});
