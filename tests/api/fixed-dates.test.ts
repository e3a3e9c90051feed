// The date-sensitive rules at fixed dates (docs/decisions.md#48): the suite's clock (tests/support/clock.ts) is
// moved to each of SUITE_DATES in turn, and the app, which reads the same clock, must give the same answers there
// as on any other day. Lean on purpose (one database, a few calls a date): CI runs it on every run; the whole
// files run at a chosen date with HAVEN_TEST_NOW (tests/README.md).
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_MESSAGE } from "../../src/modules/bookings/bookings.constants.js";
import { addDays, dayOfWeek } from "../../src/shared/business-time.js";
import {
  SUITE_DATES,
  SUITE_TZ,
  parseSuiteNow,
  restoreSuiteTime,
  setSuiteTime,
  suiteNow,
  suiteToday,
} from "../support/clock.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { addInspector, wizardPayload } from "../support/inspectors.js";
import { runJobs } from "../support/jobs.js";
import { type Smtp, startSmtp } from "../support/smtp.js";

let ctx: TestContext;
let smtp: Smtp;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({ SMTP_URL: smtp.url, BUSINESS_TZ: SUITE_TZ });
  // One inspector, every day from 8:00 AM to 8:00 PM: each part of the day is whole for them.
  await addInspector(ctx, "Dana", { weekdays: "mon-sun", from: "08:00", to: "20:00" });
});
afterAll(async () => {
  restoreSuiteTime();
  await ctx?.close();
  await smtp?.close();
});

/** The wall-clock date and time an instant reads in the business zone: '2027-03-15 17:00'. */
const wallClock = (instant: Date) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: SUITE_TZ,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
};

/** The invitation of a booking, found by its UID, never by a date two bookings may share. */
async function invitationOf(bookingId: number): Promise<{ mail: ParsedMail; start: Date; duration: string }> {
  await runJobs(ctx);
  for (const mail of await smtp.mails()) {
    const ics = mail.attachments.find((a) => a.filename === "haven-inspection.ics")?.content.toString("utf8") ?? "";
    const text = ics.replace(/\r\n[ \t]/g, "");
    if (!text.includes(`UID:booking-${bookingId}@`)) continue;
    const stamp = /DTSTART:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(text);
    expect(stamp, "the invitation's DTSTART, in UTC").not.toBeNull();
    const [, y, mo, d, h, mi, s] = stamp!.map(Number) as number[];
    return {
      mail,
      start: new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!)),
      duration: /DURATION:(\S+)/.exec(text)?.[1] ?? "",
    };
  }
  throw new Error(`No invitation for booking ${bookingId}`);
}

const bookedDates = async () =>
  (await ctx.db("inspection_bookings").distinct(ctx.db.raw("scheduled_date::text as date"))).map(
    (r: { date: string }) => r.date,
  );

describe.each(SUITE_DATES)("on $label ($at)", ({ at }) => {
  beforeAll(() => setSuiteTime(parseSuiteNow(at)));
  afterAll(() => restoreSuiteTime());

  it("the booking calendar counts from today in the business zone: 4 days' lead, 14 weekdays from tomorrow", () => {
    const today = suiteToday();
    expect(today).toBe(at.slice(0, 10));
    const calendar = ctx.container.bookings.calendar();
    expect(calendar.today).toBe(today);
    expect(calendar.minDate).toBe(addDays(today, 4));
    expect(calendar.maxDate).toBe(addDays(today, 365));
    // Each weekday after today, in order, none skipped and none twice, whichever clocks change between.
    const weekdays: string[] = [];
    for (let date = addDays(today, 1); weekdays.length < 14; date = addDays(date, 1)) {
      if (dayOfWeek(date) !== 0 && dayOfWeek(date) !== 6) weekdays.push(date);
    }
    expect(calendar.bookingDates).toEqual(weekdays);
  });

  it("the wizard books its first date at the wall-clock time chosen, and refuses the day before it", async () => {
    const { minDate } = ctx.container.bookings.calendar();
    const early = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizardPayload(ctx, { scheduledDate: addDays(minDate, -1), timeSlot: "10:30 AM" }))
      .expect(400);
    expect(JSON.stringify(early.body)).toContain(LEAD_MESSAGE);
    const { body: booking } = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizardPayload(ctx, { scheduledDate: minDate, timeSlot: "10:30 AM" }))
      .expect(201);
    expect(booking.scheduledDate).toBe(minDate);
    const { start } = await invitationOf(booking.id);
    expect(wallClock(start)).toBe(`${minDate} 10:30`);
  });

  it("the booking page offers tomorrow to the last weekday, never today, and books an evening's whole window", async () => {
    const agent = ctx.agent();
    const { body: first } = await agent
      .post("/api/inspection-bookings")
      .send(wizardPayload(ctx, { timeSlot: "1:00 PM" }))
      .expect(201);
    const calendar = ctx.container.bookings.calendar();
    const today = suiteToday();
    // The free times, day by day from yesterday: today and before offer nothing, every later day the same.
    const { body: free } = await agent
      .get("/api/inspection-bookings/availability")
      .query({ from: addDays(today, -1), to: calendar.bookingDates.at(-1) })
      .expect(200);
    const days = free.days as { date: string; slots: string[]; parts: string[] }[];
    const span: string[] = [];
    for (let date = addDays(today, -1); date <= calendar.bookingDates.at(-1)!; date = addDays(date, 1)) span.push(date);
    expect(days.map((d) => d.date)).toEqual(span);
    for (const day of days.filter((d) => d.date <= today)) expect(day.parts, day.date).toEqual([]);
    const booked = new Set(await bookedDates());
    const later = days.filter((d) => d.date > today && !booked.has(d.date));
    expect(later.length).toBeGreaterThan(10);
    for (const day of later) expect(day.slots, day.date).toEqual(later[0]!.slots);

    await agent
      .post("/api/inspection-bookings")
      .send({ propertyId: first.propertyId, scheduledDate: today, timeSlot: "evening" })
      .expect(400);
    // The last offered date whose evening is still free (another date of this file may have taken one).
    const date = calendar.bookingDates.findLast((d) => days.find((day) => day.date === d)?.parts.includes("evening"))!;
    const { body: evening } = await agent
      .post("/api/inspection-bookings")
      .send({ propertyId: first.propertyId, scheduledDate: date, timeSlot: "evening" })
      .expect(201);
    const { mail, start, duration } = await invitationOf(evening.id);
    expect(mail.text).toContain("Time: Evening (5:00 PM - 8:00 PM)");
    expect(wallClock(start)).toBe(`${date} 17:00`);
    expect(duration).toMatch(/^PT(3H|180M)$/);
  });

  it("a new maintenance schedule starts today and falls on the same day of each month, or the month's last", async () => {
    const { body: booking } = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizardPayload(ctx, { timeSlot: "3:30 PM" }))
      .expect(201);
    const today = suiteToday();
    const schedule = await ctx.container.maintenance.createSchedule({
      propertyId: booking.propertyId,
      title: "Furnace filter",
      category: "hvac",
      recurrenceType: "monthly",
    });
    expect(schedule.startDate).toBe(today);
    const dates = (
      await ctx
        .db("maintenance_tasks")
        .where({ schedule_id: schedule.id })
        .orderBy("scheduled_date")
        .select(ctx.db.raw("scheduled_date::text as date"))
    ).map((r: { date: string }) => r.date);
    const day = Number(today.slice(8, 10));
    const expected = dates.map((_, n) => {
      const month = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 + n, 1));
      const last = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 0)).getUTCDate();
      return `${month.toISOString().slice(0, 8)}${String(Math.min(day, last)).padStart(2, "0")}`;
    });
    expect(dates.length).toBeGreaterThanOrEqual(3);
    expect(dates).toEqual(expected);
    expect(suiteNow().getTime()).toBeGreaterThanOrEqual(parseSuiteNow(at).getTime());
  });
});
