import { z } from "zod";
import { DAY_PART_VALUES, TIME_SLOTS } from "../../shared/business-time.js";
import { type BookingCalendar, leadDate } from "./bookings.schemas.js";

// Staff changes to a booking from the calendar's dialog. Islands may import this file.

/** Every slot a booking may hold: the wizard's times and the booking page's parts of the day. */
export const BOOKING_SLOTS = [...TIME_SLOTS, ...DAY_PART_VALUES] as [string, ...string[]];

/**
 * PATCH /api/inspection-bookings/{id} (staff): `{scheduledDate, timeSlot?}` moves a scheduled booking under the
 * wizard's date rule (at least 4 days ahead, within a year); `{inspectorId}` (with or without a move) gives it to
 * that inspector; `{status: 'cancelled'}` cancels it, alone.
 */
export const bookingChangeSchema = (calendar: BookingCalendar) =>
  z
    .object({
      scheduledDate: leadDate(calendar, "Inspection date").optional(),
      timeSlot: z
        .enum(BOOKING_SLOTS, { message: "Time slot must be a time such as 9:30 AM, or morning, afternoon or evening" })
        .optional(),
      status: z.literal("cancelled", { message: "Status may only be cancelled" }).optional(),
      // The office gives the booking to another inspector (null: to nobody), docs/decisions.md#37.
      inspectorId: z
        .number({ message: "Inspector must be an inspector's id" })
        .int("Inspector must be an inspector's id")
        .positive("Inspector must be an inspector's id")
        .max(2_147_483_647, "Inspector must be an inspector's id")
        .nullable()
        .optional(),
    })
    .superRefine((input, ctx) => {
      const moves =
        input.scheduledDate !== undefined || input.timeSlot !== undefined || input.inspectorId !== undefined;
      if (input.status && moves)
        ctx.addIssue({ code: "custom", path: ["status"], message: "Cancel or reschedule, not both" });
      if (!input.status && input.scheduledDate === undefined && input.inspectorId === undefined)
        ctx.addIssue({ code: "custom", path: ["scheduledDate"], message: "Inspection date is required" });
    });
export type BookingChangeInput = z.infer<ReturnType<typeof bookingChangeSchema>>;
