import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Logger, runOnce } from "graphile-worker";
import { type ParsedMail, simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wizardBookingSchema } from "../../src/modules/bookings/bookings.schemas.js";
import { longDate, zonedInstant } from "../../src/shared/business-time.js";
import { taskList } from "../../src/jobs.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { type Smtp, startSmtp } from "../support/smtp.js";

const silent = new Logger(() => () => undefined);

const wizard = (ctx: TestContext, over: Record<string, unknown> = {}) => ({
  propertyAddress: "12 Elm Street, Saskatoon, SK S7K 1A1",
  propertyType: "townhouse",
  propertySize: "1600",
  firstName: "Mo",
  lastName: "Client",
  email: "mo@example.com",
  phone: "306-555-0111",
  scheduledDate: ctx.container.bookings.calendar().minDate,
  timeSlot: "10:30 AM",
  accessMethod: "lockbox",
  accessCode: "7391",
  accessInstructions: "Lockbox on the back gate",
  ...over,
});

const mailJobs = async (ctx: TestContext) =>
  Number(
    (await ctx.db.raw("select count(*)::int as n from graphile_worker.jobs where task_identifier = 'mail.send'"))
      .rows[0].n,
  );

/** Runs every queued job once with the app's real task list, as the worker would. */
const runJobs = (ctx: TestContext) =>
  runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });

const icsStamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

function calendarOf(mail: ParsedMail): string {
  const ics = mail.attachments.find((a) => a.filename === "haven-inspection.ics");
  expect(ics?.contentType).toBe("text/calendar");
  return ics!.content.toString("utf8");
}

describe("booking confirmation e-mail through SMTP", () => {
  let ctx: TestContext;
  let smtp: Smtp;
  let received: Buffer[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    received = smtp.received;
    ctx = await createTestContext({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it("is queued with the booking, sent by the mail.send job, and carries the date, time, address, access notes and an .ics", async () => {
    const before = await mailJobs(ctx);
    const { body: booking } = await ctx.agent().post("/api/inspection-bookings").send(wizard(ctx)).expect(201);
    expect(await mailJobs(ctx)).toBe(before + 1);

    await runJobs(ctx);
    expect(await mailJobs(ctx)).toBe(0);
    expect(received).toHaveLength(1);
    const mail = await simpleParser(received[0]!);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("mo@example.com");
    expect(mail.from?.text).toContain("no-reply@havenhomehealth.ca");
    expect(mail.subject).toBe(`Your Haven inspection is booked for ${longDate(booking.scheduledDate)}`);
    const text = mail.text ?? "";
    expect(text).toContain(`Date: ${longDate(booking.scheduledDate)}`);
    expect(text).toContain("Time: 10:30 AM");
    expect(text).toContain("Address: 12 Elm Street, Saskatoon, SK S7K 1A1");
    expect(text).toContain("Access: Lockbox access");
    expect(text).toContain("Access instructions: Lockbox on the back gate");
    // The code itself stays out of the e-mail.
    expect(text).not.toContain("7391");
    expect(mail.html).toContain("Lockbox on the back gate");

    const ics = calendarOf(mail).replace(/\r\n[ \t]/g, "");
    const start = zonedInstant(booking.scheduledDate, "10:30", ctx.env.BUSINESS_TZ);
    expect(ics).toContain("BEGIN:VEVENT");
    expect(ics).toContain(`DTSTART:${icsStamp(start)}`);
    // A 1,600 sq ft home's visit takes 2 hours (docs/decisions.md#37), the inspection itself 60 minutes (the spec's
    // line), and the e-mail and the invitation say which is which (docs/decisions.md#59).
    expect(ics).toMatch(/DURATION:PT(2H|120M)\b/);
    const told = "Plan to be home for the whole visit, about 2 hours: the inspection itself takes about 60 minutes";
    expect(text).toContain(told);
    expect(ics.replace(/\\,/g, ",")).toContain(told);
    expect(ics).toContain(`UID:booking-${booking.id}@havenhomehealth.ca`);
    expect(ics).toContain("LOCATION:12 Elm Street\\, Saskatoon\\, SK S7K 1A1");
    expect(ics).toContain("SUMMARY:Haven home inspection");
  });

  it("gives a part of the day its whole window in the invitation", async () => {
    received.length = 0;
    const agent = ctx.agent();
    const { body: first } = await agent
      .post("/api/inspection-bookings")
      .send(wizard(ctx, { email: "window@example.com", accessMethod: "meet-inspector" }))
      .expect(201);
    // Any offered date other than the wizard's: both e-mails go to one address, so each is told by its booking's
    // invitation (UID), never by the date in its subject, which two bookings may share.
    const date = ctx.container.bookings.calendar().bookingDates.find((d) => d !== first.scheduledDate)!;
    const { body: second } = await agent
      .post("/api/inspection-bookings")
      .send({ propertyId: first.propertyId, scheduledDate: date, timeSlot: "evening" })
      .expect(201);
    await runJobs(ctx);
    const mails = await Promise.all(received.map((raw) => simpleParser(raw)));
    expect(mails).toHaveLength(2);
    const evening = mails.find((m) => calendarOf(m).includes(`UID:booking-${second.id}@havenhomehealth.ca`))!;
    expect(evening.subject).toBe(`Your Haven inspection is booked for ${longDate(date)}`);
    expect(evening.text).toContain("Time: Evening (5:00 PM - 8:00 PM)");
    expect(evening.text).not.toContain("Access:");
    const ics = calendarOf(evening);
    expect(ics).toContain(`DTSTART:${icsStamp(zonedInstant(date, "17:00", ctx.env.BUSINESS_TZ))}`);
    expect(ics).toMatch(/DURATION:PT(3H|180M)\b/);
    // The window is the arrival window; the visit takes the home's length.
    expect(evening.text).toContain("Plan to be home for the whole visit, about 2 hours");
  });

  it("exists only when the booking commits", async () => {
    const before = {
      jobs: await mailJobs(ctx),
      bookings: Number((await ctx.db("inspection_bookings").count({ n: "*" }).first())!.n),
    };
    const input = wizardBookingSchema(ctx.container.bookings.calendar()).parse(wizard(ctx));
    await expect(
      ctx.container.transaction(async (tx) => {
        await ctx.container.bookings.bookFromWizard({ kind: "staff" }, input, tx);
        expect(await mailJobs(ctx)).toBe(before.jobs); // not visible outside the transaction yet
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard(ctx, { accessCode: "", accessInstructions: "" }))
      .expect(400);
    expect(await mailJobs(ctx)).toBe(before.jobs);
    expect(Number((await ctx.db("inspection_bookings").count({ n: "*" }).first())!.n)).toBe(before.bookings);
  });
});

describe("booking confirmation e-mail without SMTP_URL", () => {
  let ctx: TestContext;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "haven-mail-"));
    ctx = await createTestContext({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lands as an .eml file in DATA_DIR/outbox", async () => {
    const { body: booking } = await ctx
      .agent()
      .post("/api/onboarding")
      .send({
        firstName: "Ola",
        lastName: "Nordmann",
        email: "ola@example.com",
        phone: "306-555-0123",
        address: "9 Birch Ave",
        city: "Warman",
        province: "SK",
        postalCode: "S0K 4S0",
        squareFootage: "1400",
        yearBuilt: "1995",
        bedrooms: "3",
        bathrooms: "2",
        ownershipType: "owner",
        householdIncome: "100k-150k",
        occupation: "retired",
        preferredDate: ctx.container.bookings.calendar().minDate,
        preferredTime: "morning",
        accessMethod: "owner-present",
        completedAt: new Date().toISOString(),
      })
      .expect(201);
    expect(booking.bookingId).toEqual(expect.any(Number));
    await runJobs(ctx);
    const outbox = path.join(dataDir, "outbox");
    const files = readdirSync(outbox).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(readFileSync(path.join(outbox, files[0]!)));
    expect(mail.text).toContain("Address: 9 Birch Ave, Warman, SK S0K 4S0");
    expect(mail.text).toContain("Time: Morning (8:00 AM - 12:00 PM)");
    expect(mail.text).toContain("Access: Owner present");
    expect(calendarOf(mail)).toContain("BEGIN:VCALENDAR");
  });
});
