// The calendar's items (MaintenanceCalendar.island.tsx): a day's tasks and inspection bookings, in time order.
import {
  type CalendarBooking,
  type CalendarMonth,
  type CalendarTask,
  DEFAULT_BOOKING_TIME,
  DEFAULT_TASK_TIME,
  formatDuration,
  planLabel,
  taskTime,
} from "../../src/modules/maintenance/maintenance.constants";
import { PLAN_VISIT_WINDOW, slotShortLabel, slotStartMinutes, windowLabel } from "../../src/shared/business-time";
import { minutesOf } from "./month-grid";

/** `time` is what the item shows ('9:30 AM', '12–5 PM'); `at` orders a day (minutes from midnight). */
export type Item =
  | { kind: "task"; time: string; at: number; task: CalendarTask }
  | { kind: "booking"; time: string; at: number; booking: CalendarBooking };

/**
 * A booking shows its slot as booked: a clock time as that time, a part of the day as its window ('12–5 PM');
 * only a booking with no slot at all falls back to the spec's 09:00 AM (staff-side enumerations).
 */
export function bookingShown(slot: string | null | undefined): { time: string; at: number } {
  const start = slot ? slotStartMinutes(slot) : null;
  if (slot && start !== null) return { time: slotShortLabel(slot), at: start };
  return { time: slotShortLabel(DEFAULT_BOOKING_TIME), at: minutesOf(DEFAULT_BOOKING_TIME) };
}

/**
 * A plan visit whose time nobody set (its schedule's default, 10:00 AM) shows its window, the working day
 * (PLAN_VISIT_WINDOW): plan services are planned by the day. Other tasks show their time, 10:00 AM unless set.
 */
export function taskShown(task: Pick<CalendarTask, "scheduledTime" | "planService">): { time: string; at: number } {
  const time = taskTime(task.scheduledTime);
  if (task.planService && minutesOf(time) === minutesOf(DEFAULT_TASK_TIME))
    return {
      time: windowLabel(PLAN_VISIT_WINDOW.start, PLAN_VISIT_WINDOW.end),
      at: minutesOf(PLAN_VISIT_WINDOW.start),
    };
  return { time: time.replace(/^0/, ""), at: minutesOf(time) };
}

/** The month asks for each day's first tasks only (10,000 in a month stay light); a day dialog asks for all. */
export const PREVIEW_PER_DAY = 3;

export const itemKey = (item: Item) => (item.kind === "task" ? `t${item.task.id}` : `b${item.booking.id}`);
export const itemTitle = (item: Item) =>
  item.kind === "task" ? item.task.title : `Inspection: ${item.booking.propertyAddress}`;
/** The number of colours the calendar gives inspectors (maintenance.css). */
const INSPECTOR_COLOURS = 6;
/** An inspector's colour: the same in every view, from their id; unassigned bookings have none. */
export const inspectorColour = (id: number | null) => (id === null ? "none" : String(id % INSPECTOR_COLOURS));
/** What a screen reader hears after an event's visible time, title and property. */
export const itemExtra = (item: Item) =>
  item.kind === "task"
    ? `, ${formatDuration(item.task.estimatedDuration)}${item.task.planType ? `, ${planLabel(item.task.planType)}` : ""}`
    : `, inspection booking for ${item.booking.clientName}, ${item.booking.inspectorName ?? "no inspector yet"}`;
/**
 * A plan service's task carries its plan's colour; a held one is marked (docs/decisions.md#27). A booking carries
 * its inspector's colour (docs/decisions.md#37).
 */
export const planData = (item: Item) =>
  item.kind === "task"
    ? { "data-plan": item.task.planType ?? undefined, "data-held": item.task.held || undefined }
    : { "data-inspector": inspectorColour(item.booking.inspectorId) };

/** The calendar's items by date, each day ordered by start (a window at its start; tasks 10:00 AM by default). */
export function byDate(data: CalendarMonth | undefined): Map<string, Item[]> {
  const days = new Map<string, Item[]>();
  if (!data) return days;
  for (const date of Object.keys(data.taskCounts ?? {})) days.set(date, []);
  const add = (date: string, item: Item) => {
    const list = days.get(date);
    if (list) list.push(item);
    else days.set(date, [item]);
  };
  for (const booking of data.bookings)
    add(booking.scheduledDate, { kind: "booking", ...bookingShown(booking.timeSlot), booking });
  for (const task of data.tasks) add(task.scheduledDate, { kind: "task", ...taskShown(task), task });
  for (const list of days.values()) list.sort((a, b) => a.at - b.at);
  return days;
}
