import { describe, expect, it } from "vitest";
import type { CalendarBooking, CalendarTask } from "../../src/modules/maintenance/maintenance.constants";
import { bookingShown, byDate, taskShown } from "./calendar-items";

const booking = (id: number, timeSlot: string) => ({ id, scheduledDate: "2027-01-12", timeSlot }) as CalendarBooking;
const task = (id: number, scheduledTime: string, planService: string | null = null) =>
  ({ id, scheduledDate: "2027-01-12", scheduledTime, planService }) as CalendarTask;

describe("the calendar's times", () => {
  it("a booking shows as booked: a window as the window, an exact time as the time", () => {
    expect(bookingShown("afternoon")).toEqual({ time: "12–5 PM", at: 720 });
    expect(bookingShown("10:30 AM")).toEqual({ time: "10:30 AM", at: 630 });
    // Only a booking with no slot falls back to the spec's default (staff-side: 09:00 AM).
    expect(bookingShown("")).toEqual({ time: "9:00 AM", at: 540 });
  });

  it("a plan visit without a set time shows its window; one with a time, and other tasks, their time", () => {
    expect(taskShown(task(1, "10:00 AM", "snow-removal"))).toEqual({ time: "8 AM–5 PM", at: 480 });
    expect(taskShown(task(2, "02:30 PM", "snow-removal"))).toEqual({ time: "2:30 PM", at: 870 });
    expect(taskShown(task(3, "10:00 AM"))).toEqual({ time: "10:00 AM", at: 600 });
  });

  it("orders each day by where its items start", () => {
    const days = byDate({
      from: "2027-01-12",
      to: "2027-01-12",
      taskCounts: { "2027-01-12": 3 },
      tasks: [task(1, "10:00 AM"), task(2, "10:00 AM", "gutter-cleaning"), task(3, "01:00 PM")],
      bookings: [booking(9, "afternoon")],
    });
    expect(days.get("2027-01-12")!.map((i) => i.time)).toEqual(["8 AM–5 PM", "10:00 AM", "12–5 PM", "1:00 PM"]);
  });
});
