// E-mails that say what happened, through a real SMTP server: a moved inspection is "rescheduled" with its old and
// new times and never carries the office's notes; undoing a cancellation is e-mailed; every message has a Reply-To
// that reaches the office. And the cancel page states the charges left, tax included (docs/decisions.md#32).
import { Logger, runOnce } from "graphile-worker";
import { type ParsedMail, simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskList } from "../../src/jobs.js";
import { billingDate } from "../../src/modules/subscriptions/index.js";
import { addDays, longDate } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { type Smtp, startSmtp } from "../support/smtp.js";

const TZ = "America/Toronto";
const DAY = 86_400_000;
const silent = new Logger(() => () => undefined);

describe("e-mails that say what happened", () => {
  let ctx: TestContext;
  let smtp: Smtp;
  let serial = 0;

  beforeAll(async () => {
    smtp = await startSmtp();
    ctx = await createTestContext({ SMTP_URL: smtp.url, BUSINESS_TZ: TZ, REPLY_TO: "office@haven.example" });
    await ctx.container.plans.seed();
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  /** Sends what is queued, as the worker would, and returns the messages received since the last call. */
  async function delivered(): Promise<ParsedMail[]> {
    await runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });
    const raw = smtp.received.splice(0);
    return Promise.all(raw.map((m) => simpleParser(m)));
  }

  async function newBooking(slot: "morning" | "afternoon") {
    serial += 1;
    const { property } = await ctx.container.customers.createWithProperty(
      {
        email: `moved-${serial}@example.ca`,
        name: `Robin Moved ${serial}`,
        phone: "613-555-0142",
        subscriptionPlan: "free-score",
      },
      { address: `${serial} Elgin Street`, city: "Ottawa", province: "ON", postalCode: "K1P 5B9", squareFootage: 1500 },
    );
    const { minDate } = ctx.container.bookings.calendar();
    const booking = (await ctx.container.bookings.bookForProperty(
      { kind: "staff" },
      { propertyId: property.id, scheduledDate: minDate, timeSlot: slot },
    ))!;
    await delivered();
    return { booking, minDate };
  }

  it("a staff move is e-mailed as rescheduled, with the old and the new time and an .ics replacing the first; Reply-To is the office", async () => {
    const staff = await signInStaff(ctx);
    const { booking, minDate } = await newBooking("afternoon");
    const newDate = addDays(minDate, 1);
    await staff.agent
      .patch(`/api/inspection-bookings/${booking.id}`)
      .send({ scheduledDate: newDate, timeSlot: "10:30 AM" })
      .expect(200);
    const [mail, ...more] = await delivered();
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`Your Haven inspection is rescheduled to ${longDate(newDate)}`);
    expect(mail!.replyTo?.text).toBe("office@haven.example");
    const text = mail!.text ?? "";
    expect(text).toContain("Your Haven inspection has been rescheduled.");
    expect(text).toContain(`New date: ${longDate(newDate)}`);
    expect(text).toContain("New time: 10:30 AM");
    expect(text).toContain(`Was: ${longDate(minDate)}, Afternoon (12:00 PM - 5:00 PM)`);
    expect(text).not.toContain("is booked");
    const ics = mail!.attachments.find((a) => a.filename === "haven-inspection.ics")!.content.toString("utf8");
    expect(ics).toContain(`UID:booking-${booking.id}@havenhomehealth.ca`);
    expect(Number(/SEQUENCE:(\d+)/.exec(ics)?.[1])).toBeGreaterThan(0);
  });

  it("a homeowner's move (noted for the office) mails the customer without the office's note", async () => {
    const { booking, minDate } = await newBooking("morning");
    const newDate = addDays(minDate, 2);
    await ctx.container.bookings.changeByStaff(
      booking.id,
      { scheduledDate: newDate, timeSlot: "evening" },
      {
        check: () => undefined,
        note: () => `Rescheduled by the homeowner in My Home on ${minDate}: was ${longDate(minDate)}, Morning.`,
      },
    );
    const saved = await ctx.db("inspection_bookings").where({ id: booking.id }).first("notes");
    expect(saved.notes).toContain("Rescheduled by the homeowner");
    const [mail] = await delivered();
    expect(mail!.subject).toContain("rescheduled");
    expect(mail!.text).toContain("New time: Evening (5:00 PM - 8:00 PM)");
    expect(mail!.text).toContain(`Was: ${longDate(minDate)}, Morning (8:00 AM - 12:00 PM)`);
    expect(mail!.text).not.toContain("Rescheduled by");
    expect(mail!.html).not.toContain("Rescheduled by");
  });

  async function subscribe(started: Date) {
    serial += 1;
    const sub = await ctx.container.subscriptions.startDemo(
      {
        checkoutRef: `what-happened-${serial}`,
        planType: "standard",
        amountCents: 37000,
        payerEmail: `payer-${serial}@example.com`,
        payerName: "Morgan Reyes",
        cardNumber: "4242424242424242",
      },
      started,
    );
    await ctx.container.subscriptions.renewDue(new Date());
    const token = ctx.container.subscriptions.billingLink(sub.id).split("/billing/")[1]!;
    await delivered();
    return { id: sub.id, token };
  }

  it("undoing a cancellation sends an e-mail saying the plan continues", async () => {
    const { id, token } = await subscribe(new Date());
    await ctx.agent().post(`/billing/${token}/cancel`).type("form").send({}).expect(303);
    expect((await delivered()).map((m) => m.subject)).toEqual([expect.stringContaining("cancellation is scheduled")]);
    await ctx.agent().post(`/billing/${token}/resume`).type("form").send({}).expect(303);
    const [mail, ...more] = await delivered();
    expect(more).toHaveLength(0);
    expect(mail!.to && !Array.isArray(mail!.to) ? mail!.to.text : "").toBe(`payer-${serial}@example.com`);
    expect(mail!.subject).toBe("Your Haven Standard plan continues: the cancellation is undone");
    expect(mail!.text).toContain("Hello Morgan Reyes,");
    expect(mail!.text).toContain("your plan and its services continue");
    expect(mail!.text).toContain("Monthly price: $370.00 CAD plus tax");
    expect(mail!.replyTo?.text).toBe("office@haven.example");
    expect((await ctx.container.subscriptions.get(id)).cancelAt).toBeNull();
  });

  it("the cancel page states the charges left, tax included, before the customer confirms", async () => {
    const { id, token } = await subscribe(new Date());
    const sub = await ctx.container.subscriptions.get(id);
    // Started today: charged again at the start of months 2 and 3, then the minimum ends (Ontario: HST 13 %).
    const page = (await ctx.agent().get(`/billing/${token}/cancel`).expect(200)).text;
    const charges = /data-testid="charges-left">([\s\S]*?)<\/p>/.exec(page)![1]!.replace(/\s+/g, " ");
    expect(charges).toContain("two more charges of $418.10 CAD ($370.00 + HST $48.10) each");
    expect(charges).toContain(billingDate(sub.currentPeriodEnd, TZ));
    expect(charges).not.toContain(billingDate(sub.minimumTermEndsAt, TZ));

    // After the minimum, the paid month runs out and nothing more is charged.
    const late = await subscribe(new Date(Date.now() - 130 * DAY));
    const latePage = (await ctx.agent().get(`/billing/${late.token}/cancel`).expect(200)).text;
    expect(/data-testid="charges-left">([\s\S]*?)<\/p>/.exec(latePage)![1]).toContain("Nothing more is charged.");
  });

  it("a receipt is addressed to the customer by name and offers the invoice's PDF, by e-mail and on My Home", async () => {
    serial += 1;
    const email = `receipt-${serial}@example.com`;
    const checkoutRef = `what-happened-receipt-${serial}`;
    const sub = await ctx.container.subscriptions.startDemo(
      {
        checkoutRef,
        planType: "standard",
        amountCents: 37000,
        payerEmail: email,
        payerName: "Rowan Receipt",
        cardNumber: "4242424242424242",
      },
      new Date(),
    );
    const { customer, property } = await ctx.container.customers.createWithProperty(
      { email, name: "Rowan Receipt", phone: "613-555-0100", subscriptionPlan: "standard" },
      { address: `${serial} Bank Street`, city: "Ottawa", province: "ON", postalCode: "K1P 5B9" },
    );
    await ctx.container.transaction((tx) =>
      ctx.container.subscriptions.attachToProperty(
        checkoutRef,
        { customerId: customer.id, propertyId: property.id },
        tx,
      ),
    );
    const receipt = (await delivered()).find((m) => m.subject?.startsWith("Your Haven receipt"))!;
    expect(receipt.text).toContain("Hello Rowan Receipt,");
    const invoice = (await ctx.container.subscriptions.customerView(sub.id)).invoices[0]!;
    expect(receipt.text).toContain(
      `Your invoice (PDF), on My Home:\n${ctx.env.PUBLIC_URL}/my-home/plan/invoices/${invoice.id}/pdf`,
    );
    expect(receipt.text).not.toMatch(/print/i);

    const home = await signInHome(ctx, email);
    const page = (await home.get(`/my-home/plan/invoices/${invoice.id}`).expect(200)).text;
    const billedTo = /data-testid="receipt-billed-to">([\s\S]*?)<\/dd>/.exec(page)![1]!;
    expect(billedTo).toContain("Rowan Receipt");
    expect(billedTo).toContain(email);
    expect(page).toContain(`href="/my-home/plan/invoices/${invoice.id}/pdf"`);
  });
});
