// The calendar's items (MaintenanceCalendar.island.tsx): a day's tasks and inspection bookings, in time order.
import {
  type CalendarBooking,
  type CalendarMonth,
  type CalendarTask,
  bookingTime,
  formatDuration,
  planLabel,
  taskTime,
} from "../../src/modules/maintenance/maintenance.constants";
import { minutesOf } from "./month-grid";

export type Item =
  | { kind: "task"; time: string; task: CalendarTask }
  | { kind: "booking"; time: string; booking: CalendarBooking };

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

/** The calendar's items by date, each day ordered by time (tasks 10:00 AM and bookings 09:00 AM by default). */
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
    add(booking.scheduledDate, { kind: "booking", time: bookingTime(booking.timeSlot), booking });
  for (const task of data.tasks) add(task.scheduledDate, { kind: "task", time: taskTime(task.scheduledTime), task });
  for (const list of days.values()) list.sort((a, b) => minutesOf(a.time) - minutesOf(b.time));
  return days;
}
