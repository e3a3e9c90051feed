// Calendar files of maintenance (the task download, the reminder attachment, the staff feed), with the
// `ics` package as the booking confirmation does. Times are the business zone's, written in UTC.
import { type EventAttributes, createEvents } from "ics";
import type { Booking } from "../bookings/bookings.schemas.js";
import { PLAN_VISIT_WINDOW, slotLabel, slotWindow, windowLabel } from "../../shared/business-time.js";
import {
  DEFAULT_BOOKING_TIME,
  DEFAULT_TASK_TIME,
  formatDuration,
  labelOf,
  normalizeClock,
  taskTime,
} from "./maintenance.constants.js";
import type { DatedTask } from "./task-rows.js";
import { occurrenceInstant } from "./recurrence.js";
import { DEFAULT_LOCALE, type Translator, translator } from "../../i18n/index.js";
import { durationText, planServiceTitle, taskTimeText } from "./visit-text.js";
import { slotText } from "../mail/index.js";

/** The staff feed's words: English, as the spec writes them. A customer's file gets the customer's translator. */
const ENGLISH = translator(DEFAULT_LOCALE);

const UID_DOMAIN = "havenhomehealth.ca";
/** A task without an estimate blocks an hour in a calendar app. */
const DEFAULT_TASK_MINUTES = 60;

const minutesOfDay = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When a task happens: a plan visit whose time nobody set is planned by the day, so it holds the plan-visit
 * window (8 AM–5 PM, PLAN_VISIT_WINDOW), as the calendar shows it; any other task starts at its clock time
 * (10:00 AM unless set) and lasts its estimate.
 */
export function taskWindow(task: Pick<DatedTask, "scheduledTime" | "estimatedDuration" | "planService">): {
  start: string;
  minutes: number;
  label: string;
} {
  const time = taskTime(task.scheduledTime);
  if (task.planService && normalizeClock(time) === normalizeClock(DEFAULT_TASK_TIME))
    return {
      start: PLAN_VISIT_WINDOW.start,
      minutes: minutesOfDay(PLAN_VISIT_WINDOW.end) - minutesOfDay(PLAN_VISIT_WINDOW.start),
      label: windowLabel(PLAN_VISIT_WINDOW.start, PLAN_VISIT_WINDOW.end),
    };
  return { start: time, minutes: task.estimatedDuration ?? DEFAULT_TASK_MINUTES, label: time.replace(/^0/, "") };
}

export function taskEvent(task: DatedTask, timeZone: string, t: Translator = ENGLISH): EventAttributes {
  const window = taskWindow(task);
  const start = occurrenceInstant(task.scheduledDate!, window.start, timeZone);
  const english = t.locale === DEFAULT_LOCALE;
  const category = english ? labelOf(task.category) : t(`maintenance-mail.category.${task.category}`);
  const priority = english ? labelOf(task.priority) : t(`maintenance-mail.priority.${task.priority}`);
  const details = [
    task.description,
    task.planService
      ? t("maintenance-mail.ics.time", { time: english ? window.label : taskTimeText(t, window) })
      : null,
    t("maintenance-mail.ics.categoryPriority", { category, priority }),
    task.estimatedDuration
      ? t("maintenance-mail.ics.duration", {
          duration: english ? formatDuration(task.estimatedDuration) : durationText(t, task.estimatedDuration),
        })
      : null,
    task.notes ? t("maintenance-mail.ics.notes", { notes: task.notes }) : null,
  ].filter(Boolean);
  return {
    uid: `maintenance-task-${task.id}@${UID_DOMAIN}`,
    start: start.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: window.minutes },
    title: t("maintenance-mail.ics.title", {
      title: planServiceTitle(t, task.planService, task.title),
      address: task.propertyAddress,
    }),
    description: details.join("\n"),
    location: task.location,
    status: task.status === "cancelled" ? "CANCELLED" : "CONFIRMED",
    busyStatus: "BUSY",
    categories: [t("maintenance-mail.ics.maintenance"), category],
  };
}

export function bookingEvent(booking: Booking, timeZone: string, t: Translator = ENGLISH): EventAttributes {
  // A clock slot or a part of the day; anything else starts at 09:00 AM (staff-side §9).
  const window = slotWindow(booking.timeSlot) ?? { start: "09:00", minutes: 60 };
  const start = occurrenceInstant(booking.scheduledDate, window.start ?? DEFAULT_BOOKING_TIME, timeZone);
  const region = [booking.state ?? booking.province, booking.postalCode].filter(Boolean).join(" ");
  return {
    uid: `booking-${booking.id}@${UID_DOMAIN}`,
    start: start.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: window.minutes },
    title: t("maintenance-mail.ics.inspection.title", { address: booking.address }),
    description: [
      t("maintenance-mail.ics.inspection.client", { name: booking.clientName }),
      t("maintenance-mail.ics.inspection.time", {
        time: t.locale === DEFAULT_LOCALE ? slotLabel(booking.timeSlot) : slotText(t, booking.timeSlot),
      }),
      booking.specialRequests
        ? t("maintenance-mail.ics.inspection.requests", { requests: booking.specialRequests })
        : null,
    ]
      .filter(Boolean)
      .join("\n"),
    location: [booking.address, booking.city, region].filter(Boolean).join(", "),
    status: "CONFIRMED",
    busyStatus: "BUSY",
    categories: [t("maintenance-mail.ics.inspection.category")],
  };
}

/**
 * One VCALENDAR; `name` becomes the calendar's name in subscribing apps. A subscribed feed also asks them
 * to refresh hourly (REFRESH-INTERVAL is the standard, X-PUBLISHED-TTL what Outlook and Apple read).
 */
export function calendarFile(
  events: EventAttributes[],
  name: string,
  options: { subscription?: boolean } = {},
): string {
  const { error, value } = createEvents(events, { productId: "haven/maintenance", method: "PUBLISH", calName: name });
  if (error || !value) throw error ?? new Error("Could not build the calendar file");
  if (!options.subscription) return value;
  return value.replace(
    "BEGIN:VCALENDAR\r\n",
    "BEGIN:VCALENDAR\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\nX-PUBLISHED-TTL:PT1H\r\n",
  );
}
