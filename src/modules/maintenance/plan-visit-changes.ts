// A homeowner's changes to a plan visit in My Home (docs/decisions.md#44): move, skip or restore, their rules
// (plan-visit-rules.ts), the office's bell and the homeowner's confirmation (plan-visit-email.ts). PlanDeliveries
// (plan-deliveries.ts) keeps the deliveries' schedules and hands `changeVisit` here.
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import { longDate, todayIn } from "../../shared/business-time.js";
import { type MailService, mailText } from "../mail/index.js";
import { DEFAULT_LOCALE, isLocale } from "../../i18n/index.js";
import type { Notifications } from "../notifications/index.js";
import { SERVING_STATUSES } from "../subscriptions/subscriptions.constants.js";
import type { MaintenanceTask } from "./maintenance.constants.js";
import { calendarFile, taskEvent, taskWindow } from "./maintenance.ics.js";
import type { PlanDeliveriesRepository, PlanVisitRow } from "./plan-deliveries.repository.js";
import { planVisitChangeEmail } from "./plan-visit-email.js";
import { planServiceTitle, taskTimeText } from "./visit-text.js";
import {
  ANNUAL_INSPECTION_SERVICE,
  VISIT_RULE_MESSAGES,
  changeableOn,
  moveWindow,
  skippable,
} from "./plan-visit-rules.js";
import type { DatedTask } from "./task-rows.js";

/** A homeowner's change to a plan visit (docs/decisions.md#44). */
export interface PlanVisitChange {
  taskId: number;
  /** The homeowner's properties (HomeAccess): a visit of any other is a 404. */
  propertyIds: number[];
  action: "move" | "skip" | "unskip";
  /** The new date of a move. */
  date?: string;
  /** The annual inspection's time: a part of the day or a clock slot the inspectors' calendars offer. */
  timeSlot?: string;
}

/** What a change of the annual inspection asks of the bookings module (My Home passes it; maintenance sits above). */
export interface InspectionBooker {
  /** Books the inspection in the change's transaction (a 409 when the time was just taken). */
  book(
    tx: Tx,
    at: {
      propertyId: number;
      customerId: number | null;
      clientName: string;
      date: string;
      timeSlot: string;
      note: string;
    },
  ): Promise<{ id: number; scheduledDate: string; timeSlot: string }>;
  /** The booking a moved inspection became, as it is now. */
  booked(id: number): Promise<{ scheduledDate: string; timeSlot: string; status: string } | null>;
}

export interface PlanVisitChangeResult {
  task: MaintenanceTask;
  /** False when the visit already was as asked (a repeat): nothing written, nobody told again. */
  changed: boolean;
  /** The inspection booking a moved annual inspection became. */
  bookingId: number | null;
}

/** What PlanVisitChanges uses; PlanDeliveries builds it from its own deps. */
export interface PlanVisitChangesDeps {
  repo: Pick<PlanDeliveriesRepository, "lockPlanVisit" | "changeVisit" | "visitOn">;
  transaction: TransactionRunner;
  /** The business zone, and what the homeowner's confirmation names. */
  settings: { timeZone: string; supportEmail?: string; supportPhone?: string; publicUrl?: string };
  /** The staff bell: a plan visit the homeowner moved, skipped or restored (notifications README). */
  notifications?: Pick<Notifications, "raise"> | null;
  /** The homeowner's confirmation of a changed visit, in the change's transaction. */
  mail?: Pick<MailService, "enqueue"> | null;
}

/** The homeowner's moves, skips and restores of plan visits (PlanDeliveries.changeVisit). */
export class PlanVisitChanges {
  private readonly repo: PlanVisitChangesDeps["repo"];
  private readonly settings: PlanVisitChangesDeps["settings"];

  constructor(private readonly deps: PlanVisitChangesDeps) {
    this.repo = deps.repo;
    this.settings = deps.settings;
  }

  /**
   * The homeowner moves, skips or restores a plan visit (docs/decisions.md#44), under the task's row lock: a repeat
   * of a change already made answers the visit as it is (`changed: false`) and tells nobody again. Each change
   * raises the office's bell and e-mails the homeowner (a move and a restore with the visit's .ics). Moving the
   * annual inspection books it (`booker`) at a time the inspectors' calendars offer; the booking is then the visit.
   */
  async changeVisit(
    change: PlanVisitChange,
    booker: InspectionBooker | null,
    now: Date = new Date(),
  ): Promise<PlanVisitChangeResult> {
    const today = todayIn(this.settings.timeZone, now);
    const M = VISIT_RULE_MESSAGES;
    return this.deps.transaction(async (tx) => {
      const visit = await this.repo.lockPlanVisit(tx, change.taskId);
      if (!visit || !change.propertyIds.includes(visit.task.propertyId)) throw new NotFoundError("Visit not found");
      const task = visit.task;
      const date = task.scheduledDate;
      const same = (changed: boolean, bookingId = visit.bookingId) => ({ task, changed, bookingId });
      const isInspection = visit.planService === ANNUAL_INSPECTION_SERVICE;

      // Repeats: the visit is already as asked.
      if (change.action === "skip" && visit.skippedAt) return same(false);
      if (change.action === "unskip" && !visit.skippedAt && task.status !== "cancelled") return same(false);
      if (change.action === "move" && isInspection && visit.bookingId) {
        const booking = await booker?.booked(visit.bookingId);
        if (booking && booking.scheduledDate === change.date && booking.timeSlot === change.timeSlot)
          return same(false);
        throw new ConflictError(M.booked);
      }
      if (change.action === "move" && !isInspection && date === change.date && !visit.skippedAt) return same(false);

      if (visit.scheduleEnded || !SERVING_STATUSES.includes(visit.subscriptionStatus)) throw new ConflictError(M.ended);
      if (!date) throw new ConflictError(M.notOpen);

      if (change.action === "unskip") {
        if (!visit.skippedAt) throw new ConflictError(M.notSkipped);
        if (date <= today) throw new ConflictError(M.unskipTooLate);
        const restored = await this.repo.changeVisit(tx, task.id, {
          status: "scheduled",
          skipped: false,
          note: `Restored by the homeowner in My Home on ${today}.`,
        });
        await this.tell(tx, visit, "unskip", restored, date);
        return { task: restored, changed: true, bookingId: null };
      }

      if (visit.skippedAt) throw new ConflictError(change.action === "skip" ? M.notOpen : M.skipped);
      if (!["pending", "scheduled"].includes(task.status)) throw new ConflictError(M.notOpen);
      if (task.held) throw new ConflictError(M.held);
      if (!changeableOn(date, today)) throw new ConflictError(M.tooClose);

      if (change.action === "skip") {
        if (!skippable(visit.planService)) throw new ConflictError(M.inspectionSkip);
        const skipped = await this.repo.changeVisit(tx, task.id, {
          status: "cancelled",
          skipped: true,
          note: `Skipped by the homeowner in My Home on ${today}.`,
        });
        await this.tell(tx, visit, "skip", skipped, date);
        return { task: skipped, changed: true, bookingId: null };
      }

      // A move: within the window around the series date the visit stands for.
      const to = change.date!;
      const series = visit.seriesDate ?? date;
      const window = moveWindow({ planService: visit.planService, rrule: visit.rrule, seriesDate: series }, today);
      if (to < window.from || to > window.to)
        throw new ValidationError(M.outsideWindow, {
          date: `Choose a date from ${longDate(window.from)} to ${longDate(window.to)}`,
        });
      if (isInspection) {
        if (!booker || !change.timeSlot) throw new ValidationError("Choose a time", { timeSlot: "Choose a time" });
        const booking = await booker.book(tx, {
          propertyId: task.propertyId,
          customerId: visit.customerId,
          clientName: visit.clientName,
          date: to,
          timeSlot: change.timeSlot,
          note: `The plan's annual inspection, due ${date}, booked by the homeowner in My Home.`,
        });
        const moved = await this.repo.changeVisit(tx, task.id, {
          status: "cancelled",
          bookingId: booking.id,
          seriesDate: series,
          note: `Booked by the homeowner in My Home on ${today}: inspection booking ${booking.id}, ${to}.`,
        });
        await this.raiseBell(tx, visit, "visit-moved", `moved the annual inspection due ${date} to a booking on ${to}`);
        return { task: moved, changed: true, bookingId: booking.id };
      }
      if (await this.repo.visitOn(tx, task.scheduleId!, to, task.id)) throw new ConflictError(M.taken);
      const moved = await this.repo.changeVisit(tx, task.id, {
        scheduledDate: to,
        seriesDate: series,
        note: `Moved by the homeowner in My Home on ${today}: was ${date}.`,
      });
      await this.tell(tx, visit, "move", moved, date);
      return { task: moved, changed: true, bookingId: null };
    });
  }

  /** The office's bell for a homeowner's change of a plan visit. */
  private async raiseBell(
    tx: Tx,
    visit: PlanVisitRow,
    kind: "visit-moved" | "visit-skipped" | "visit-restored",
    text: string,
  ): Promise<void> {
    await this.deps.notifications?.raise(tx, {
      kind,
      recordType: "maintenance_task",
      recordId: visit.task.id,
      link: `/admin/properties/${visit.task.propertyId}`,
      text: `${visit.clientName} ${text} (${visit.task.title}, ${visit.propertyAddress})`,
    });
  }

  /** The bell and the homeowner's confirmation of a move, skip or restore. */
  private async tell(
    tx: Tx,
    visit: PlanVisitRow,
    action: "move" | "skip" | "unskip",
    after: MaintenanceTask,
    before: string,
  ): Promise<void> {
    const date = after.scheduledDate!;
    await this.raiseBell(
      tx,
      visit,
      action === "move" ? "visit-moved" : action === "skip" ? "visit-skipped" : "visit-restored",
      action === "move"
        ? `moved a plan visit from ${before} to ${date}`
        : action === "skip"
          ? `skipped the plan visit of ${date}`
          : `restored the plan visit of ${date}`,
    );
    if (!this.deps.mail) return;
    const dated: DatedTask = {
      ...after,
      notes: null,
      propertyAddress: visit.propertyAddress,
      clientName: visit.clientName,
      clientEmail: visit.clientEmail,
      location: visit.propertyAddress,
      planService: visit.planService,
    };
    const window = taskWindow(dated);
    // In the subscriber's language (docs/decisions.md#65): dates, window, the service's name and the .ics.
    const locale = isLocale(visit.clientLocale) ? visit.clientLocale : DEFAULT_LOCALE;
    const { t, f } = mailText(locale, this.settings.timeZone);
    await this.deps.mail.enqueue(
      tx,
      planVisitChangeEmail({
        to: visit.clientEmail,
        name: visit.clientName,
        action,
        what: planServiceTitle(t, visit.planService, after.title),
        location: visit.propertyAddress,
        dateLabel: f.longDate(date),
        previousDateLabel: f.longDate(before),
        timeLabel: taskTimeText(t, window),
        ics: action === "skip" ? undefined : calendarFile([taskEvent(dated, this.settings.timeZone, t)], "Haven"),
        supportEmail: this.settings.supportEmail ?? "",
        supportPhone: this.settings.supportPhone ?? "",
        publicUrl: this.settings.publicUrl,
        locale,
      }),
    );
  }
}
