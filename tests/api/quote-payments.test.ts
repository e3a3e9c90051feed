// Paying an accepted quote (docs/decisions.md#43): its invoice at acceptance, the demo card and Stripe's
// PaymentIntent (the real SDK against the stand-in), one charge for two parallel pays, the receipt e-mail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIL_SEND_TASK } from "../../src/modules/mail/index.js";
import { addDays } from "../../src/shared/business-time.js";
import { redactLinkTokens } from "../../src/shared/one-time-links.js";
import { suiteToday } from "../support/clock.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { quotedItem } from "../support/quote-invoices.js";
import { type Smtp, startSmtp } from "../support/smtp.js";
import { StripeStandIn } from "../support/stripe-stand-in.js";
import { jobCount, pdfText, runJobs } from "./sharing-fixtures.js";

const CARD = {
  name: "Odette Tremblay",
  email: "odette@example.ca",
  cardNumber: "4242 4242 4242 4242",
  expiry: "12 / 34",
  cvc: "123",
};

describe("paying an accepted quote (demo payments)", () => {
  let ctx: TestContext;
  let smtp: Smtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_URL: "https://haven.example", PAYMENTS_MODE: "demo" });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it("accepting in My Home invoices the quote with Ontario's HST, and e-mails a pay link", async () => {
    const { quoteId, taskId, email } = await quotedItem(ctx);
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    expect((await ctx.db("maintenance_tasks").where({ id: taskId }).first()).status).toBe("scheduled");
    const invoice = await ctx.db("invoices").where({ quote_request_id: quoteId }).first();
    expect(invoice).toMatchObject({
      subscription_id: null,
      status: "open",
      subtotal_cents: 65000,
      tax_cents: 8450,
      amount_cents: 73450,
      tax_province: "ON",
    });
    expect(invoice.number).toMatch(/^HAV-\d{4}-\d{6}$/);
    expect(invoice.pay_token_hash).toMatch(/^[0-9a-f]{64}$/);
    await runJobs(ctx);
    const [mail] = await smtp.mailsTo(email);
    expect(mail?.subject).toBe("Quote accepted: Replace the water heater");
    expect(mail?.text).toContain("HST 13%: $84.50");
    expect(mail?.text).toContain("Total: $734.50");
    const link = mail?.text?.match(/https:\/\/haven\.example\/quote-pay\/([A-Za-z0-9_-]{43})/);
    expect(link).toBeTruthy();
    // Only the link's SHA-256 is stored.
    expect(JSON.stringify(invoice)).not.toContain(link![1]!);
  });

  it("pays by card from My Home: the invoice is paid, a receipt with the figures, registration number and PDF link", async () => {
    const { quoteId, email } = await quotedItem(ctx);
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    const page = await home.get(`/my-home/quotes/${quoteId}/pay`).expect(200);
    expect(page.text).toContain("$734.50");
    expect(page.text).toContain("HST 13%");
    const res = await home.post(`/api/my-home/quotes/${quoteId}/pay`).send(CARD).expect(200);
    expect(res.body).toMatchObject({
      status: "paid",
      alreadyPaid: false,
      invoice: { amount: 734.5, quoteRequestId: quoteId },
    });
    const invoice = await ctx.db("invoices").where({ quote_request_id: quoteId }).first();
    expect(invoice.status).toBe("paid");
    expect(invoice.paid_at).not.toBeNull();
    await runJobs(ctx);
    const receipt = (await smtp.mailsTo(email)).find((m) => m.subject?.startsWith("Receipt"));
    expect(receipt?.subject).toBe(`Receipt ${invoice.number}: Replace the water heater`);
    expect(receipt?.text).toContain(`Receipt for invoice ${invoice.number}`);
    expect(receipt?.text).toContain("Price before tax: $650");
    expect(receipt?.text).toContain("HST 13%: $84.50");
    expect(receipt?.text).toContain("Total: $734.50");
    expect(receipt?.text).toMatch(/GST\/HST registration: \d{9} ?RT\d{4}/);
    expect(receipt?.text).toContain(`https://haven.example/my-home/quotes/${quoteId}/invoice.pdf`);
    // The PDF names the work, the number and the tax; the paid page says so.
    const pdf = await home.get(`/my-home/quotes/${quoteId}/invoice.pdf`).buffer(true).expect(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const text = await pdfText(pdf.body as Buffer);
    expect(text).toContain(invoice.number);
    expect(text).toContain("Replace the water heater");
    expect(text).toContain("$734.50");
    const paid = await home.get(`/my-home/quotes/${quoteId}/pay`).expect(200);
    expect(paid.text).toContain("data-quote-paid");
    // Staff's invoice list has it, named by its quote; subscription invoices stay as they were.
    const staff = (await signInStaff(ctx)).agent;
    const list = await staff.get("/api/invoices?limit=100").expect(200);
    const row = (list.body.invoices ?? list.body).find((i: { id: number }) => i.id === invoice.id);
    expect(row).toMatchObject({ quoteRequestId: quoteId, number: invoice.number, status: "paid", amount: 734.5 });
    // Named by its task, with no price list: it was never sold from /pricing or /checkout.
    expect(row.priceList).toBeNull();
    expect(row.quoteTitle).toBeTruthy();
    // The staff invoices page lists it too, as a quote.
    const adminPage = await staff.get("/admin/invoices").expect(200);
    expect(adminPage.text).toContain(invoice.number);
    expect(adminPage.text).toContain(`Quote: ${row.quoteTitle}`);
    // "I never got the receipt": the office sends it again, to the homeowner, once per click.
    const resent = await staff
      .post(`/api/invoices/${invoice.id}/resend-receipt`)
      .set("Idempotency-Key", "quote-resend-1")
      .send({});
    expect(resent.status, JSON.stringify(resent.body)).toBe(201);
    expect(resent.body).toMatchObject({ repeated: false, resend: { sentTo: email } });
    await runJobs(ctx);
    const receipts = (await smtp.mailsTo(email)).filter((m) => m.subject === receipt?.subject);
    expect(receipts).toHaveLength(2);
    expect(receipts[1]!.text).toContain("Total: $734.50");
    expect(await ctx.db("receipt_resends").where({ invoice_id: invoice.id })).toMatchObject([{ sent_to: email }]);
    // Refunded like a subscription's invoice, a credit note of its own (docs/decisions.md#52).
    const refunded = await staff.post(`/api/invoices/${invoice.id}/refund`).send({ amountCents: 1000, reason: "Test" });
    expect(refunded.status).toBe(201);
    expect(refunded.body.refund.number).toMatch(/^HAV-CN-\d{4}-\d{6}$/);
    expect(await ctx.db("refunds").where({ invoice_id: invoice.id })).toHaveLength(1);
  });

  it("two parallel pays charge once: one pays, the other finds it paid; one receipt", async () => {
    const { quoteId, email } = await quotedItem(ctx);
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    const before = await jobCount(ctx, MAIL_SEND_TASK);
    const answers = await Promise.all([
      home.post(`/api/my-home/quotes/${quoteId}/pay`).send(CARD),
      home.post(`/api/my-home/quotes/${quoteId}/pay`).send(CARD),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.alreadyPaid).sort()).toEqual([false, true]);
    expect(await jobCount(ctx, MAIL_SEND_TASK)).toBe(before + 1);
    const invoice = await ctx.db("invoices").where({ quote_request_id: quoteId }).first();
    expect(invoice.attempt_count).toBe(1);
  });

  it("a Quebec home pays GST and QST; the e-mailed link pays without My Home, and a declined card changes nothing", async () => {
    const { quoteId, email } = await quotedItem(ctx, { postalCode: "G1R 4P5", province: "QC", amount: "$1,000" });
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    await runJobs(ctx);
    const mail = (await smtp.mailsTo(email)).find((m) => m.subject?.startsWith("Quote accepted"));
    const token = mail!.text!.match(/\/quote-pay\/([A-Za-z0-9_-]{43})/)![1]!;
    const stranger = ctx.agent();
    const page = await stranger.get(`/quote-pay/${token}`).expect(200);
    expect(page.text).toContain("GST 5%");
    expect(page.text).toContain("QST 9.975%");
    expect(page.text).toContain("$1,149.75");
    const declined = await stranger
      .post(`/api/quote-pay/${token}`)
      .send({ ...CARD, cardNumber: "4000 0000 0000 0002" })
      .expect(402);
    expect(declined.body.message).toBe("Your card was declined.");
    expect((await ctx.db("invoices").where({ quote_request_id: quoteId }).first()).status).toBe("open");
    const paid = await stranger.post(`/api/quote-pay/${token}`).send(CARD).expect(200);
    expect(paid.body).toMatchObject({ status: "paid", invoice: { amount: 1149.75, subtotal: 1000 } });
    await stranger.get(`/quote-pay/${token}/invoice.pdf`).expect(200);
    // A made-up or malformed link is a 404 or a 400, never a payment.
    await stranger
      .post(`/api/quote-pay/${"x".repeat(43)}`)
      .send(CARD)
      .expect(404);
    await stranger.post("/api/quote-pay/short").send(CARD).expect(400);
    // Log lines never carry the link's token.
    for (const url of [`/quote-pay/${token}`, `/api/quote-pay/${token}/confirm`, `/quote-pay/${token}/invoice.pdf`])
      expect(redactLinkTokens(url)).not.toContain(token);
  });

  it("another homeowner's quote is a 404; an unaccepted quote a 409; a refused card form a 400 that writes nothing", async () => {
    const mine = await quotedItem(ctx);
    const theirs = await quotedItem(ctx);
    const home = await signInHome(ctx, mine.email);
    await signInHome(ctx, theirs.email).then((a) => a.post(`/api/my-home/quotes/${theirs.quoteId}/accept`).expect(200));
    await home.post(`/api/my-home/quotes/${theirs.quoteId}/pay`).send(CARD).expect(404);
    await home.get(`/my-home/quotes/${theirs.quoteId}/pay`).expect(404);
    await home.get(`/my-home/quotes/${theirs.quoteId}/invoice.pdf`).expect(404);
    const unaccepted = await home.post(`/api/my-home/quotes/${mine.quoteId}/pay`).send(CARD).expect(409);
    expect(unaccepted.body.message).toBe("Accept this quote before paying it.");
    await home.post(`/api/my-home/quotes/${mine.quoteId}/accept`).expect(200);
    const refused = await home
      .post(`/api/my-home/quotes/${mine.quoteId}/pay`)
      .send({ ...CARD, cardNumber: "4242 4242 4242 4241" })
      .expect(400);
    expect(refused.body.fields.cardNumber).toBe("Your card number is invalid.");
    expect((await ctx.db("invoices").where({ quote_request_id: mine.quoteId }).first()).status).toBe("open");
    // Signed out: the call is a 401, the page sends to sign-in.
    await ctx.agent().post(`/api/my-home/quotes/${mine.quoteId}/pay`).send(CARD).expect(401);
    const page = await ctx.agent().get(`/my-home/quotes/${mine.quoteId}/pay`).expect(303);
    expect(page.headers.location).toContain("/my-home/sign-in?next=");
  });

  it("an expired quote cannot be paid (409)", async () => {
    const { quoteId, email } = await quotedItem(ctx);
    await ctx.db("quote_requests").where({ id: quoteId }).update({ valid_until: "2020-01-31" });
    const home = await signInHome(ctx, email);
    const res = await home.post(`/api/my-home/quotes/${quoteId}/pay`).send(CARD).expect(409);
    expect(res.body.message).toBe("This quote expired on January 31, 2020; ask us for a new one");
    // The French pay page's island names its language (src/i18n/api-locale.ts); nothing else is read as French.
    const french = await home
      .post(`/api/my-home/quotes/${quoteId}/pay`)
      .set("Accept-Language", "fr-CA")
      .send(CARD)
      .expect(409);
    expect(french.body.message).toBe(
      "Cette soumission a expiré le 31 janvier 2020\u00a0; demandez-nous-en une nouvelle",
    );
    const other = await home.post(`/api/my-home/quotes/${quoteId}/pay`).set("Accept-Language", "fr").send(CARD);
    expect(other.body.message).toBe("This quote expired on January 31, 2020; ask us for a new one");
  });

  it("an accepted quote past its last valid day: 409 on My Home's and the link's pay and confirm; the pages say it expired", async () => {
    const { quoteId, email } = await quotedItem(ctx);
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    await runJobs(ctx);
    const mail = (await smtp.mailsTo(email)).find((m) => m.subject?.startsWith("Quote accepted"));
    const token = mail!.text!.match(/\/quote-pay\/([A-Za-z0-9_-]{43})/)![1]!;
    const today = suiteToday(ctx.env.BUSINESS_TZ);
    await ctx
      .db("quote_requests")
      .where({ id: quoteId })
      .update({ valid_until: addDays(today, -1) });
    const jobs = await jobCount(ctx, MAIL_SEND_TASK);
    const link = ctx.agent();
    for (const [agent, url] of [
      [home, `/api/my-home/quotes/${quoteId}/pay`],
      [home, `/api/my-home/quotes/${quoteId}/pay/confirm`],
      [link, `/api/quote-pay/${token}`],
      [link, `/api/quote-pay/${token}/confirm`],
    ] as const) {
      const refused = await agent.post(url).send(CARD).expect(409);
      expect(refused.body.message).toMatch(/^This quote expired on \w+ \d+, \d{4}; ask us for a new one$/);
    }
    expect((await ctx.db("invoices").where({ quote_request_id: quoteId }).first()).status).toBe("open");
    expect(await jobCount(ctx, MAIL_SEND_TASK)).toBe(jobs);
    for (const [agent, url] of [
      [home, `/my-home/quotes/${quoteId}/pay`],
      [link, `/quote-pay/${token}`],
    ] as const) {
      const page = await agent.get(url).expect(200);
      expect(page.text).toContain("data-quote-expired");
      expect(page.text).not.toContain("quote-pay/QuotePay");
      const french = await agent.get(`/fr${url}`).expect(200);
      expect(french.text).toContain('<html lang="fr-CA">');
      expect(french.text).toMatch(/Cette soumission a expiré le \d+ \p{L}+ \d{4}/u);
    }
    const list = await home.get("/my-home/quotes").expect(200);
    expect(list.text).toContain('data-quote-invoice="expired"');
    expect(list.text).not.toContain(`href="/my-home/quotes/${quoteId}/pay"`);
    // Valid through its whole last day: on that day it is paid.
    await ctx.db("quote_requests").where({ id: quoteId }).update({ valid_until: today });
    expect((await link.post(`/api/quote-pay/${token}`).send(CARD).expect(200)).body.status).toBe("paid");
  });

  it("the last valid day ends at midnight in BUSINESS_TZ, for My Home's payer and the link's (a clock, not a sleep)", async () => {
    const { quoteId, propertyId, email } = await quotedItem(ctx);
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    await runJobs(ctx);
    const mail = (await smtp.mailsTo(email)).find((m) => m.subject?.startsWith("Quote accepted"));
    const token = mail!.text!.match(/\/quote-pay\/([A-Za-z0-9_-]{43})/)![1]!;
    // January 31 in Toronto (EST, UTC-5) ends at 05:00 UTC on February 1.
    expect(ctx.env.BUSINESS_TZ).toBe("America/Toronto");
    await ctx.db("quote_requests").where({ id: quoteId }).update({ valid_until: "2031-01-31" });
    const lastMinute = new Date("2031-02-01T04:59:59Z");
    const nextDay = new Date("2031-02-01T05:00:00Z");
    const payments = ctx.container.quotePayments;
    const homePayer = { quoteRequestId: quoteId, mayPay: () => true };
    const card = { cardNumber: "4242424242424242" };
    for (const payer of [homePayer, { token }])
      await expect(payments.payDemo(payer, card, nextDay)).rejects.toMatchObject({
        status: 409,
        message: "This quote expired on January 31, 2031; ask us for a new one",
      });
    expect((await payments.view({ token }, nextDay)).expired).toMatchObject({ validUntil: "2031-01-31" });
    expect((await payments.view(homePayer, lastMinute)).expired).toBeNull();
    expect((await payments.afterYesOfHomes([propertyId], nextDay)).get(quoteId)?.expired).toBe(true);
    expect((await payments.payDemo({ token }, card, lastMinute)).status).toBe("paid");
    // Paid, it is no longer "expired" anywhere, and a repeat pay answers paid without a charge.
    expect((await payments.view(homePayer, nextDay)).expired).toBeNull();
    expect(await payments.payDemo(homePayer, card, nextDay)).toMatchObject({ status: "paid", alreadyPaid: true });
  });

  it("a quote without a single price gets no invoice and cannot be paid online", async () => {
    const { quoteId, email } = await quotedItem(ctx, { amount: "$800-1,200" });
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    expect(await ctx.db("invoices").where({ quote_request_id: quoteId }).first()).toBeUndefined();
    const res = await home.post(`/api/my-home/quotes/${quoteId}/pay`).send(CARD).expect(409);
    expect(res.body.message).toContain("cannot be paid online");
  });

  it("My Home's quotes show Pay $X on an accepted quote, then the paid invoice; the office's booking is e-mailed once and shown", async () => {
    const { quoteId, taskId, email } = await quotedItem(ctx);
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    let page = await home.get("/my-home/quotes").expect(200);
    expect(page.text).toContain(`href="/my-home/quotes/${quoteId}/pay"`);
    expect(page.text).toMatch(/data-pay-quote>Pay \$734\.50/);
    expect(page.text).toContain("within 2 business days");
    await home.post(`/api/my-home/quotes/${quoteId}/pay`).send(CARD).expect(200);
    page = await home.get("/my-home/quotes").expect(200);
    expect(page.text).toContain('data-quote-invoice="paid"');
    expect(page.text).not.toContain(`href="/my-home/quotes/${quoteId}/pay"`);
    const invoices = await home.get("/api/my-home/quote-invoices").expect(200);
    expect(invoices.body.invoices).toEqual([
      expect.objectContaining({
        quoteRequestId: quoteId,
        status: "paid",
        pdfUrl: `/my-home/quotes/${quoteId}/invoice.pdf`,
      }),
    ]);
    // The office books it in the task dialog: date, time, assignee.
    const { agent: staff, user } = await signInStaff(ctx);
    await staff
      .patch(`/api/maintenance-tasks/${taskId}`)
      .send({ scheduledDate: "2031-03-04", scheduledTime: "1:30 PM", assignedTo: user.id })
      .expect(200);
    const now = new Date("2031-03-01T15:00:00Z");
    expect(await ctx.container.quotePayments.mailBookings(now)).toBeGreaterThanOrEqual(1);
    expect(await ctx.container.quotePayments.mailBookings(now)).toBe(0);
    await runJobs(ctx);
    const booked = (await smtp.mailsTo(email)).filter((m) => m.subject?.startsWith("Booked"));
    expect(booked).toHaveLength(1);
    expect(booked[0]!.subject).toBe("Booked: Replace the water heater on Tuesday, March 4, 2031, 01:30 PM");
    expect(booked[0]!.text).toContain("Sam comes at that time.");
    page = await home.get("/my-home/quotes").expect(200);
    expect(page.text).toContain("data-quote-booked");
    expect(page.text).toContain("Booked for Tuesday, March 4, 2031, 01:30 PM: Sam comes.");
    // Moved to another day: e-mailed again, once.
    await staff.patch(`/api/maintenance-tasks/${taskId}`).send({ scheduledDate: "2031-03-05" }).expect(200);
    expect(await ctx.container.quotePayments.mailBookings(now)).toBe(1);
    expect(await ctx.container.quotePayments.mailBookings(now)).toBe(0);
  });

  it("staff accepting on the homeowner's behalf invoices it too, and the office lists it to book", async () => {
    const { quoteId } = await quotedItem(ctx);
    const staff = (await signInStaff(ctx)).agent;
    await staff.patch(`/api/quote-requests/${quoteId}`).send({ status: "accepted" }).expect(200);
    expect((await ctx.db("invoices").where({ quote_request_id: quoteId }).first()).status).toBe("open");
    const toBook = await staff.get("/api/quotes-to-book?booked=false").expect(200);
    expect(toBook.body.find((q: { quoteRequestId: number }) => q.quoteRequestId === quoteId)).toMatchObject({
      taskTitle: "Replace the water heater",
      scheduledDate: null,
      invoiceStatus: "open",
    });
    await staff.get("/api/quotes-to-book?booked=maybe").expect(400);
  });
});

describe("paying an accepted quote (Stripe)", () => {
  let ctx: TestContext;
  let smtp: Smtp;
  let stripe: StripeStandIn;

  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    smtp = await startSmtp();
    ctx = await createTestContext({ ...stripe.env(), SMTP_URL: smtp.url, PUBLIC_URL: "https://haven.example" });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
    await stripe?.close();
  });

  it("one PaymentIntent for the total, keyed by the invoice, even for two parallel pays; the return marks it paid once", async () => {
    const { quoteId, email } = await quotedItem(ctx);
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    const invoice = await ctx.db("invoices").where({ quote_request_id: quoteId }).first();
    expect(invoice.provider).toBe("stripe");
    const made = stripe.apiCalls("POST", "/v1/payment_intents").length;
    const answers = await Promise.all([
      home.post(`/api/my-home/quotes/${quoteId}/pay`).send({}),
      home.post(`/api/my-home/quotes/${quoteId}/pay`).send({}),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0]!.body.status).toBe("requires_payment");
    expect(answers[0]!.body.clientSecret).toBe(answers[1]!.body.clientSecret);
    // Each pay calls Stripe outside the invoice's lock (docs/decisions.md#56), with the invoice's key: one intent.
    const calls = stripe.apiCalls("POST", "/v1/payment_intents").slice(made);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(new Set(calls.map((c) => c.idempotencyKey))).toEqual(new Set([`haven-quote-invoice-${invoice.id}`]));
    const ofInvoice = [...stripe.intents.values()].filter(
      (i) => (i.metadata as Record<string, string>).haven_quote_invoice === String(invoice.id),
    );
    expect(ofInvoice).toHaveLength(1);
    const stored = await ctx.db("invoices").where({ id: invoice.id }).first();
    const intent = await ctx.container.stripe!.billing.stripe.paymentIntents.retrieve(stored.payment_intent_id);
    expect(intent).toMatchObject({
      amount: 73450,
      currency: "cad",
      metadata: { haven_quote_invoice: String(invoice.id) },
    });
    // Not paid yet: the return finds it open.
    expect((await home.post(`/api/my-home/quotes/${quoteId}/pay/confirm`).expect(200)).body.status).toBe("open");
    stripe.succeedIntent(stored.payment_intent_id, email);
    const before = await jobCount(ctx, MAIL_SEND_TASK);
    const [a, b] = await Promise.all([
      home.post(`/api/my-home/quotes/${quoteId}/pay/confirm`),
      home.get(`/my-home/quotes/${quoteId}/pay`),
    ]);
    expect(a.body.status).toBe("paid");
    expect(b.text).toContain("data-quote-paid");
    expect(await jobCount(ctx, MAIL_SEND_TASK)).toBe(before + 1);
    // Paying again answers paid and makes nothing at Stripe.
    const again = await home.post(`/api/my-home/quotes/${quoteId}/pay`).send({}).expect(200);
    expect(again.body).toMatchObject({ status: "paid", alreadyPaid: true });
    expect(stripe.apiCalls("POST", "/v1/payment_intents").slice(made)).toHaveLength(calls.length);
    await runJobs(ctx);
    const receipt = (await smtp.mailsTo(email)).find((m) => m.subject?.startsWith("Receipt"));
    expect(receipt?.text).toContain("Total: $734.50");
  });

  it("past the quote's last day: no PaymentIntent and 409; a charge Stripe already took is still recorded", async () => {
    const { quoteId, email } = await quotedItem(ctx);
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    const payments = ctx.container.quotePayments;
    const payer = { quoteRequestId: quoteId, mayPay: () => true };
    await ctx.db("quote_requests").where({ id: quoteId }).update({ valid_until: "2031-01-31" });
    const made = stripe.apiCalls("POST", "/v1/payment_intents").length;
    const nextDay = new Date("2031-02-01T05:00:00Z");
    await expect(payments.startStripe(payer, nextDay)).rejects.toMatchObject({ status: 409 });
    expect(stripe.apiCalls("POST", "/v1/payment_intents").length).toBe(made);
    // An intent made on the last day and confirmed at Stripe after midnight: the money moved, so it is recorded.
    const started = await payments.startStripe(payer, new Date("2031-02-01T04:59:00Z"));
    expect(started.status).toBe("requires_payment");
    await expect(payments.confirmStripe(payer, nextDay)).rejects.toMatchObject({ status: 409 });
    const invoice = await ctx.db("invoices").where({ quote_request_id: quoteId }).first();
    stripe.succeedIntent(invoice.payment_intent_id, email);
    expect((await payments.confirmStripe(payer, nextDay)).status).toBe("paid");
  });

  it("Stripe's payment_intent.succeeded webhook pays the invoice it names, once; a replay records nothing", async () => {
    const { quoteId, email } = await quotedItem(ctx);
    const home = await signInHome(ctx, email);
    await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
    await home.post(`/api/my-home/quotes/${quoteId}/pay`).send({}).expect(200);
    const invoice = await ctx.db("invoices").where({ quote_request_id: quoteId }).first();
    const intent = stripe.succeedIntent(invoice.payment_intent_id, email);
    const deliver = () => {
      const delivery = StripeStandIn.signedEvent("payment_intent.succeeded", structuredClone(intent));
      return ctx
        .agent()
        .post("/api/stripe/webhook")
        .set("Content-Type", "application/json")
        .set("Stripe-Signature", delivery.header)
        .send(delivery.payload)
        .expect(200);
    };
    expect((await deliver()).body).toEqual({ received: true, recorded: true });
    expect((await ctx.db("invoices").where({ id: invoice.id }).first()).status).toBe("paid");
    const before = await jobCount(ctx, MAIL_SEND_TASK);
    expect((await deliver()).body).toEqual({ received: true, recorded: false });
    expect(await jobCount(ctx, MAIL_SEND_TASK)).toBe(before);
    // Nothing else is recorded for it: no one-time payment row.
    expect(await ctx.db("payments").where({ provider_id: invoice.payment_intent_id }).first()).toBeUndefined();
  });
});
