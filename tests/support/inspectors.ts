// Inspectors' calendars in tests (docs/decisions.md#37): inspectors with working hours, wizard bookings of a new home
// and client each, and the availability call.
import { randomBytes } from "node:crypto";
import { type TestContext, createTestContext } from "./context.js";

/** Working hours every day, 8:00 to 17:00. */
export const EVERY_DAY = { weekdays: "mon-sun", from: "08:00", to: "17:00" };

/** A test context of its own and the first date the wizard accepts in it. */
export async function bookingContext(): Promise<{ ctx: TestContext; date: string }> {
  const ctx = await createTestContext();
  return { ctx, date: ctx.container.bookings.calendar().minDate };
}

/** An active inspector '<name> Inspector' with a unique e-mail, and working hours when given. */
export async function addInspector(
  ctx: TestContext,
  name: string,
  hours?: { weekdays: string; from: string; to: string },
) {
  const email = `${name.toLowerCase()}-${randomBytes(2).toString("hex")}@haven.test`;
  const user = await ctx.container.users.create({
    email,
    password: "correct horse battery",
    firstName: name,
    lastName: "Inspector",
    role: "inspector",
  });
  if (hours) await ctx.container.inspectors.setHours(email, hours);
  return { ...user, email };
}

let n = 0;
/** A wizard payload for a new home and client each time, at the first date and 9:00 AM unless `over` says. */
export function wizardPayload(ctx: TestContext, over: Record<string, unknown> = {}) {
  n++;
  return {
    propertyAddress: `${10 + n} Elm Street, Ottawa, ON K1S 2B4`,
    propertyType: "single-family",
    propertySize: "1500",
    firstName: "Jo",
    lastName: `Client${n}`,
    email: `client${n}-${randomBytes(2).toString("hex")}@example.com`,
    phone: "613-555-0100",
    scheduledDate: ctx.container.bookings.calendar().minDate,
    timeSlot: "9:00 AM",
    accessMethod: "meet-inspector",
    ...over,
  };
}

/** POST /api/inspection-bookings of a new home (wizardPayload), as a visitor: the request, not yet awaited. */
export const postWizard = (ctx: TestContext, over: Record<string, unknown> = {}) =>
  ctx.agent().post("/api/inspection-bookings").send(wizardPayload(ctx, over));

/** postWizard, expecting `status` (201 unless told). */
export const bookByWizard = (ctx: TestContext, over: Record<string, unknown> = {}, status = 201) =>
  postWizard(ctx, over).expect(status);

/** GET /api/inspection-bookings/availability for one date (and a home size). */
export async function availabilityOn(ctx: TestContext, date: string, size?: number) {
  const res = await ctx
    .agent()
    .get("/api/inspection-bookings/availability")
    .query({ from: date, to: date, ...(size && { size }) })
    .expect(200);
  return res.body as {
    calendar: string;
    durationMinutes: number;
    days: { date: string; slots: string[]; parts: string[] }[];
  };
}
