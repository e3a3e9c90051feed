// A My Home visit as the Visits list, the calendar and a plan visit's page show it (docs/decisions.md#29 and #44),
// and a booking's move options: shared by VisitsService (visits.service.ts) and PlanVisits (plan-visits.ts).
import { ConflictError } from "../../http/errors.js";
import { SLOT_TAKEN_MESSAGE } from "../bookings/index.js";
import { changeableOn, skippable, taskWindow } from "../maintenance/index.js";
import type { HomeTask } from "./visits.repository.js";

/**
 * How many dates My Home offers to move a booking to: the first 14 from the 4-day lead on at which an inspector
 * is free, looking at most 31 days ahead (docs/decisions.md#37, "one booking rule").
 */
export const RESCHEDULE_DATES = 14;
export const RESCHEDULE_LOOK_AHEAD = 31;

export type VisitKind = "inspection" | "plan-visit" | "maintenance";

/** One entry of the Visits list and calendar. */
export interface VisitItem {
  kind: VisitKind;
  /** The booking's or the task's id. */
  id: number;
  propertyId: number;
  propertyAddress: string;
  date: string;
  /** '10:00 AM', or a part of the day as 'Morning (8:00 AM - 12:00 PM)'. */
  time: string;
  title: string;
  status: string;
  /** A plan visit held while the plan's payment is past due. */
  held: boolean;
  /** The plan service of a plan visit ('window-cleaning'). */
  service: string | null;
  /** A booking the homeowner may still move or cancel here (scheduled, at least 4 days away). */
  changeable: boolean;
  /** A booking's slot as stored ('morning', '9:30 AM'). */
  timeSlot: string | null;
  /** A plan visit the homeowner skipped (docs/decisions.md#44). */
  skipped: boolean;
  /** What the homeowner may do to a plan visit now (docs/decisions.md#44); all false for other items. */
  canMove: boolean;
  canSkip: boolean;
  canRestore: boolean;
}

/**
 * Where a booking may move to: `days` are the offered dates, each with the parts of the day (and the booking's own
 * clock slot) at which an inspector is free; `dates` and `slots` list them flat.
 */
export interface RescheduleOptions {
  dates: string[];
  slots: readonly string[];
  days: { date: string; slots: string[] }[];
}

/** A move that lost its time (docs/decisions.md#37): a 409 with the times still free. */
export class RescheduleTakenError extends ConflictError {
  constructor(readonly reschedule: RescheduleOptions) {
    super(SLOT_TAKEN_MESSAGE, { timeSlot: SLOT_TAKEN_MESSAGE });
  }
}

/** A task as a visit; a plan visit says what the homeowner may do to it now (docs/decisions.md#44). */
export function taskItem(t: HomeTask, today: string): VisitItem {
  const plan = Boolean(t.planService) && t.scheduleId !== null;
  const open = (t.status === "scheduled" || t.status === "pending") && !t.skippedAt && !t.held;
  const far = Boolean(t.scheduledDate) && changeableOn(t.scheduledDate!, today);
  return {
    kind: plan ? "plan-visit" : "maintenance",
    id: t.id,
    propertyId: t.propertyId,
    propertyAddress: t.propertyAddress,
    date: t.scheduledDate!,
    time: taskWindow(t).label,
    title: t.title,
    status: t.status,
    held: t.held,
    service: t.planService,
    changeable: false,
    timeSlot: null,
    skipped: Boolean(t.skippedAt),
    canMove: plan && open && far,
    canSkip: plan && open && far && skippable(t.planService!),
    canRestore: plan && Boolean(t.skippedAt) && t.scheduledDate! > today,
  };
}
