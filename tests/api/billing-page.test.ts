// The customer's billing page and its JSON calls: the signed link is the only
// credential and names one subscription; cancellation says when it takes effect before it is done (the
// minimum term, docs/decisions.md#25) and can be undone; demo mode's card page pays a past-due invoice. Start dates are
// given to the service; nothing waits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingDate, signBillingToken } from "../../src/modules/subscriptions/index.js";
import { redactLinkTokens } from "../../src/shared/one-time-links.js";
import { type TestContext, createTestContext } from "../support/context.js";

const TZ = "America/Toronto";
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

describe("the billing page /billing/{token}", () => {
  let ctx: TestContext;
  let serial = 0;
  beforeAll(async () => {
    ctx = await createTestContext({ BUSINESS_TZ: TZ });
    await ctx.container.plans.seed();
  });
  afterAll(() => ctx.close());

  /** A demo subscription to Standard that started `started` ago, billed up to today, and its link's token. */
  async function subscribe(options: { started?: Date; cardNumber?: string } = {}) {
    serial += 1;
    const ref = `billing-page-${serial}`;
    const sub = await ctx.container.subscriptions.startDemo(
      {
        checkoutRef: ref,
        planType: "standard",
        amountCents: 37000,
        payerEmail: `${ref}@example.com`,
        payerName: "Morgan Reyes",
        cardNumber: options.cardNumber ?? "4242424242424242",
      },
      options.started ?? new Date(),
    );
    if (options.started) await ctx.container.subscriptions.renewDue(new Date());
    const link = ctx.container.subscriptions.billingLink(sub.id);
    const token = link.split("/billing/")[1]!;
    return { id: sub.id, token, link };
  }

  const date = (iso: string) => billingDate(iso, TZ);
  const eventCount = async () => Number((await ctx.db("subscription_events").count({ n: "*" }).first())!.n);
  const mailCount = async () =>
    Number(
      (
        await ctx.db.raw(
          "select count(*) as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send'",
        )
      ).rows[0].n,
    );

  it("the 3-month minimum is stated on /pricing and next to the pay button of /checkout and the demo hosted checkout", async () => {
    const line = "Billed monthly. 3-month minimum subscription, cancel anytime afterwards.";
    expect((await ctx.agent().get("/pricing").expect(200)).text).toContain(line);
    expect((await ctx.agent().get("/checkout?plan=basic").expect(200)).text).toContain(line);
    const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "premium" }).expect(200);
    const hosted = (await ctx.agent().get(body.url).expect(200)).text;
    // Right after the card form's island, in the same card as the Subscribe button.
    expect(hosted.indexOf(line)).toBeGreaterThan(hosted.indexOf('data-island="checkout/PaymentForm"'));
  });

  it("shows the plan, status, next charge, minimum-term end and invoices; the JSON call carries nothing staff-only; nothing is cached", async () => {
    const { id, token, link } = await subscribe();
    expect(link).toMatch(/^http:\/\/localhost:\d+\/billing\/\d+\.\d+\.[\w-]{43}$/);
    const sub = await ctx.container.subscriptions.get(id);
    const page = await ctx.agent().get(`/billing/${token}`).expect(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.text).toContain("Haven Standard, $370.00 CAD a month before tax");
    expect(page.text).toContain(`${date(sub.currentPeriodEnd)}, $418.10 CAD ($370.00 + HST $48.10)`);
    expect(page.text).toContain(`Ends on ${date(sub.minimumTermEndsAt)}`);
    expect(page.text).toContain("Ending in 4242");
    expect(page.text).toContain(`href="/billing/${token}/cancel"`);
    const api = await ctx.agent().get(`/api/billing/${token}`).expect(200);
    expect(api.headers["cache-control"]).toBe("no-store");
    expect(api.body.subscription).toMatchObject({
      id,
      planName: "Standard",
      status: "active",
      statusLabel: "Active",
      monthlyAmount: 370,
      cancelAt: null,
    });
    expect(api.body.invoices).toHaveLength(1);
    expect(api.body.invoices[0]).toMatchObject({ subtotal: 370, amount: 418.1, status: "paid" });
    expect(api.body.cancellation).toEqual({ takesEffectAt: sub.minimumTermEndsAt, atMinimumTerm: true });
    for (const staffOnly of ["cancellationReason", "customerEmail", "customerId", "providerSubscriptionId", "version"])
      expect(api.body.subscription).not.toHaveProperty(staffOnly);
  });

  it("an expired link is 410 and a forged or unknown one 404, each with a page saying what to do", async () => {
    const { id, token } = await subscribe();
    const secret = ctx.env.SESSION_SECRET;
    const expired = signBillingToken(id, secret, daysAgo(31));
    const page = await ctx.agent().get(`/billing/${expired}`).expect(410);
    expect(page.text).toContain(
      "This billing link has expired. Please use the link in your latest Haven e-mail, or contact us.",
    );
    expect(page.text).toContain(ctx.env.CONTACT_PHONE);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect((await ctx.agent().get(`/api/billing/${expired}`).expect(410)).body.message).toMatch(/expired/);
    await ctx.agent().post(`/api/billing/${expired}/cancel`).send({}).expect(410);

    const forged = `${token.slice(0, -4)}${token.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    const forgedPage = await ctx.agent().get(`/billing/${forged}`).expect(404);
    expect(forgedPage.text).toContain("This billing link is not valid");
    await ctx.agent().get(`/api/billing/${forged}`).expect(404);
    await ctx.agent().get("/billing/not-a-token").expect(404);
    await ctx
      .agent()
      .get(`/billing/${"x".repeat(300)}`)
      .expect(404);
    await ctx
      .agent()
      .get(`/api/billing/${signBillingToken(99_999, secret)}`)
      .expect(404);
    // Another secret's signature is no signature.
    await ctx
      .agent()
      .get(`/api/billing/${signBillingToken(id, "another-secret-of-at-least-32-characters")}`)
      .expect(404);
  });

  it("a link opens its own subscription only: another id under its signature is refused", async () => {
    const mine = await subscribe();
    const theirs = await subscribe();
    const [, expires, mac] = mine.token.split(".");
    await ctx.agent().get(`/api/billing/${theirs.id}.${expires}.${mac}`).expect(404);
    await ctx.agent().post(`/api/billing/${theirs.id}.${expires}.${mac}/cancel`).send({}).expect(404);
    expect((await ctx.agent().get(`/api/billing/${mine.token}`).expect(200)).body.subscription.id).toBe(mine.id);
    expect((await ctx.container.subscriptions.get(theirs.id)).cancelAt).toBeNull();
  });

  it("before the minimum: the page says the plan ends when the 3-month minimum ends, the form cancels then, and the undo button takes it back", async () => {
    const { id, token } = await subscribe();
    const sub = await ctx.container.subscriptions.get(id);
    const ends = date(sub.minimumTermEndsAt);
    const confirm = await ctx.agent().get(`/billing/${token}/cancel`).expect(200);
    expect(confirm.text).toContain(`Your plan will end on ${ends}, when the 3-month minimum ends.`);
    expect(confirm.text).toContain(`you can undo the cancellation on this page until then`);
    expect(await ctx.container.subscriptions.get(id)).toMatchObject({ cancelAt: null });

    const posted = await ctx
      .agent()
      .post(`/billing/${token}/cancel`)
      .type("form")
      .send({ reason: "Moving away" })
      .expect(303);
    expect(posted.headers.location).toBe(`/billing/${token}?done=canceled`);
    expect(await ctx.container.subscriptions.get(id)).toMatchObject({
      cancelAt: sub.minimumTermEndsAt,
      status: "active",
    });
    const after = await ctx.agent().get(String(posted.headers.location)).expect(200);
    expect(after.text).toContain("Your cancellation is scheduled");
    expect(after.text).toContain(`Your plan will end on ${ends}.`);
    expect(after.text).toContain("Undo cancellation");
    expect(after.text).not.toContain(`href="/billing/${token}/cancel"`);
    // The confirmation page of a plan already cancelling goes back to the plan.
    await ctx.agent().get(`/billing/${token}/cancel`).expect(303);

    const undone = await ctx.agent().post(`/billing/${token}/resume`).type("form").send({}).expect(303);
    expect(undone.headers.location).toBe(`/billing/${token}?done=resumed`);
    expect(await ctx.container.subscriptions.get(id)).toMatchObject({ cancelAt: null });
    // Nothing left to undo: the page says so with the 409, and changes nothing.
    const again = await ctx.agent().post(`/billing/${token}/resume`).type("form").send({}).expect(409);
    expect(again.text).toContain("This subscription has no cancellation to undo");
  });

  it("after the minimum: the cancellation takes effect at the end of the paid period; the JSON calls cancel and resume", async () => {
    const { id, token } = await subscribe({ started: daysAgo(130) });
    const sub = await ctx.container.subscriptions.get(id);
    expect(new Date(sub.minimumTermEndsAt).getTime()).toBeLessThan(Date.now());
    expect(new Date(sub.currentPeriodEnd).getTime()).toBeGreaterThan(Date.now());
    const confirm = await ctx.agent().get(`/billing/${token}/cancel`).expect(200);
    expect(confirm.text).toContain(
      `Your plan will end on ${date(sub.currentPeriodEnd)}, at the end of the month you have paid for.`,
    );

    const canceled = await ctx.agent().post(`/api/billing/${token}/cancel`).send({ when: "period_end" }).expect(200);
    expect(canceled.body.subscription.cancelAt).toBe(sub.currentPeriodEnd);
    expect(canceled.body.subscription.status).toBe("active");
    const resumed = await ctx.agent().post(`/api/billing/${token}/resume`).send({}).expect(200);
    expect(resumed.body.subscription.cancelAt).toBeNull();
    await ctx.agent().post(`/api/billing/${token}/resume`).send({}).expect(409);
  });

  it("bad input is a 400 naming the field and writes nothing; a customer can never cancel at once", async () => {
    const { id, token } = await subscribe();
    const [events, mails] = [await eventCount(), await mailCount()];
    const now = await ctx.agent().post(`/api/billing/${token}/cancel`).send({ when: "now" }).expect(400);
    expect(Object.keys(now.body.fields)).toEqual(["when"]);
    const long = await ctx
      .agent()
      .post(`/api/billing/${token}/cancel`)
      .send({ reason: "x".repeat(1001) })
      .expect(400);
    expect(long.body.fields.reason).toMatch(/at most 1000/);
    const formLong = await ctx
      .agent()
      .post(`/billing/${token}/cancel`)
      .type("form")
      .send({ reason: "x".repeat(1001) })
      .expect(400);
    expect(formLong.text).toContain('aria-invalid="true"');
    expect(formLong.text).toMatch(/Reason must be at most 1000 characters/);
    const card = await ctx.agent().post(`/api/billing/${token}/card`).send({ cardNumber: "1234 5678" }).expect(400);
    expect(card.body.fields.cardNumber).toBe("Your card number is invalid.");
    await ctx.agent().post(`/api/billing/${token}/card`).send({}).expect(400);
    const declined = await ctx
      .agent()
      .post(`/api/billing/${token}/card`)
      .send({ cardNumber: "4000 0000 0000 0002" })
      .expect(400);
    expect(declined.body.fields.cardNumber).toBe("Your card was declined.");
    const formCard = await ctx
      .agent()
      .post(`/billing/${token}/card`)
      .type("form")
      .send({ cardNumber: "4242 4242 4242 4242", expiry: "01 / 20", cvc: "" })
      .expect(400);
    expect(formCard.text).toContain("Your card&#39;s expiration date is in the past.");
    expect(formCard.text).toContain("CVC is required");
    expect(formCard.text).toContain('value="4242 4242 4242 4242"');
    await ctx.agent().post(`/api/billing/${token}/portal`).send({ flow: "elsewhere" }).expect(400);
    expect([await eventCount(), await mailCount()]).toEqual([events, mails]);
    expect(await ctx.container.subscriptions.get(id)).toMatchObject({ cancelAt: null, cardLast4: "4242" });
  });

  it("demo mode: the card page pays a past-due subscription's invoice and makes it active again", async () => {
    // Started 40 days ago on the card whose renewals fail: the second month's charge failed.
    const { id, token } = await subscribe({ started: daysAgo(40), cardNumber: "4000000000000341" });
    expect(await ctx.container.subscriptions.get(id)).toMatchObject({
      status: "past_due",
      lastPaymentError: "Your card was declined.",
    });
    const page = await ctx.agent().get(`/billing/${token}`).expect(200);
    expect(page.text).toContain("Your last payment failed: Your card was declined.");
    const cardPage = await ctx.agent().get(`/billing/${token}/card`).expect(200);
    expect(cardPage.text).toContain("The new card pays the unpaid invoice at once.");
    expect(cardPage.text).toContain('name="cardNumber"');

    const declined = await ctx
      .agent()
      .post(`/billing/${token}/card`)
      .type("form")
      .send({ cardNumber: "4000 0000 0000 0002", expiry: "12 / 39", cvc: "123" })
      .expect(400);
    expect(declined.text).toContain('id="card-number-error"');
    expect(declined.text).toContain("Your card was declined.");
    expect(await ctx.container.subscriptions.get(id)).toMatchObject({ status: "past_due", cardLast4: "0341" });

    const saved = await ctx
      .agent()
      .post(`/billing/${token}/card`)
      .type("form")
      .send({ cardNumber: "4242 4242 4242 4242", expiry: "12 / 39", cvc: "123" })
      .expect(303);
    expect(saved.headers.location).toBe(`/billing/${token}?done=card`);
    const api = await ctx.agent().get(`/api/billing/${token}`).expect(200);
    expect(api.body.subscription).toMatchObject({ status: "active", cardLast4: "4242", lastPaymentError: null });
    expect(api.body.invoices.every((invoice: { status: string }) => invoice.status === "paid")).toBe(true);
    expect(api.body.invoices).toHaveLength(2);
  });

  it("an ended plan shows its invoices and offers nothing to change; the portal is Stripe's only", async () => {
    const { id, token } = await subscribe();
    await ctx.agent().post(`/api/billing/${token}/portal`).send({ flow: "card" }).expect(409);
    await ctx.container.subscriptions.cancel(id, {
      when: "now",
      reason: "Staff: duplicate purchase",
      actor: "staff:1",
    });
    const page = await ctx.agent().get(`/billing/${token}`).expect(200);
    expect(page.text).toContain("This plan has ended");
    expect(page.text).not.toContain("Cancel my plan");
    expect(page.text).not.toContain("duplicate purchase");
    const api = await ctx.agent().get(`/api/billing/${token}`).expect(200);
    expect(api.body).toMatchObject({ ended: true, cancellation: null });
    await ctx.agent().post(`/api/billing/${token}/cancel`).send({}).expect(409);
    await ctx.agent().get(`/billing/${token}/card`).expect(303);
  });

  it("the receipt e-mail's link opens the page; request logs never carry a billing token", async () => {
    const { token } = await subscribe();
    const receipt = (
      await ctx.db.raw(
        "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id desc",
      )
    ).rows
      .map((r: { payload: { subject: string; to: string; text: string } }) => r.payload)
      .find(
        (m: { to: string; subject: string }) =>
          m.to === `billing-page-${serial}@example.com` && /receipt/i.test(m.subject),
      );
    const emailed = /\/billing\/(\S+)/.exec(receipt.text)![1];
    expect(emailed).toBe(token);
    await ctx.agent().get(`/billing/${emailed}`).expect(200);
    expect(redactLinkTokens(`/billing/${token}`)).toBe("/billing/[token]");
    expect(redactLinkTokens(`/billing/${token}/card?x=1`)).toBe("/billing/[token]/card?x=1");
    expect(redactLinkTokens(`/api/billing/${token}/cancel`)).toBe("/api/billing/[token]/cancel");
  });
});
