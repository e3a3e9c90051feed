// The day-before reminders of tasks and bookings, each sent once (maintenance_reminders).
import type { TransactionRunner } from "../../db/transaction.js";
import { DEFAULT_LOCALE, type Locale, isLocale } from "../../i18n/index.js";
import { addDays, slotWindow, todayIn } from "../../shared/business-time.js";
import type { Booking } from "../bookings/bookings.schemas.js";
import type { BookingsService } from "../bookings/index.js";
import { type MailService, mailText, slotText } from "../mail/index.js";
import { CLOSED } from "./maintenance.calendar.js";
import { bookingTime } from "./maintenance.constants.js";
import { bookingEvent, calendarFile, taskEvent, taskWindow } from "./maintenance.ics.js";
import type { MaintenanceRepository } from "./maintenance.repository.js";
import { reminderEmail } from "./reminder-email.js";
import type { DatedTask } from "./task-rows.js";
import { durationText, planServiceTitle, taskTimeText } from "./visit-text.js";

const REMINDER_CHUNK = 500;

export class MaintenanceReminders {
  constructor(
    private readonly tasks: MaintenanceRepository,
    private readonly deps: {
      bookings: BookingsService;
      mail: MailService;
      transaction: TransactionRunner;
      settings: { timeZone: string; supportEmail: string; supportPhone: string; publicUrl: string };
    },
  ) {}

  private get tz() {
    return this.deps.settings.timeZone;
  }

  /**
   * The day-before reminders: every task and booking dated tomorrow (business zone) that is neither
   * completed nor cancelled. Each is claimed in maintenance_reminders and its e-mail queued in the same
   * transaction, so it goes out once however often this runs.
   */
  async sendReminders(now: Date = new Date()): Promise<{ date: string; tasks: number; bookings: number }> {
    const date = addDays(todayIn(this.tz, now), 1);
    // A task held while its subscription is past due gets no reminder.
    // A homeowner who turned reminders off in My Home (home_preferences) gets none.
    const muted = await this.tasks.remindersOff();
    const tasks = (await this.tasks.calendar.datedTasks(date, date, undefined, true)).filter(
      (t) => !muted.has(t.clientEmail.toLowerCase()),
    );
    const bookings = (await this.deps.bookings.listBetween(date, date)).filter(
      (b) => !CLOSED.has(b.status) && !muted.has(b.clientEmail.toLowerCase()),
    );
    const sent = { date, tasks: 0, bookings: 0 };
    // Each reminder in its customer's language (docs/decisions.md#65).
    const stored = await this.tasks.customerLocales([
      ...tasks.map((t) => t.clientEmail),
      ...bookings.map((b) => b.clientEmail),
    ]);
    const localeOf = (email: string): Locale => {
      const locale = stored.get(email.toLowerCase());
      return isLocale(locale) ? locale : DEFAULT_LOCALE;
    };
    for (let i = 0; i < tasks.length; i += REMINDER_CHUNK) {
      const chunk = tasks.slice(i, i + REMINDER_CHUNK);
      sent.tasks += await this.deps.transaction(async (tx) => {
        const claimed = await this.tasks.claimReminders(
          "task",
          chunk.map((t) => ({ id: t.id, dueDate: date, email: t.clientEmail })),
          tx,
        );
        for (const task of chunk)
          if (claimed.has(task.id))
            await this.deps.mail.enqueue(tx, this.taskReminder(task, localeOf(task.clientEmail)));
        return claimed.size;
      });
    }
    for (let i = 0; i < bookings.length; i += REMINDER_CHUNK) {
      const chunk = bookings.slice(i, i + REMINDER_CHUNK);
      sent.bookings += await this.deps.transaction(async (tx) => {
        const claimed = await this.tasks.claimReminders(
          "booking",
          chunk.map((b) => ({ id: b.id, dueDate: date, email: b.clientEmail })),
          tx,
        );
        for (const booking of chunk)
          if (claimed.has(booking.id))
            await this.deps.mail.enqueue(tx, this.bookingReminder(booking, localeOf(booking.clientEmail)));
        return claimed.size;
      });
    }
    return sent;
  }

  private taskReminder(task: DatedTask, locale: Locale) {
    const { supportEmail, supportPhone } = this.deps.settings;
    const { t, f } = mailText(locale, this.tz);
    const window = taskWindow(task);
    return reminderEmail({
      to: task.clientEmail,
      name: task.clientName,
      dateLabel: f.longDate(task.scheduledDate!),
      timeLabel: taskTimeText(t, window),
      what: t("mail.reminder.what.task", { title: planServiceTitle(t, task.planService, task.title) }),
      location: task.location,
      durationLabel: task.estimatedDuration ? durationText(t, task.estimatedDuration) : null,
      locale,
      ics: calendarFile([taskEvent(task, this.tz, t)], t("maintenance-mail.ics.maintenance")),
      supportEmail,
      supportPhone,
      publicUrl: this.deps.settings.publicUrl,
    });
  }

  private bookingReminder(booking: Booking, locale: Locale) {
    const { supportEmail, supportPhone } = this.deps.settings;
    const { t, f } = mailText(locale, this.tz);
    const region = [booking.state ?? booking.province, booking.postalCode].filter(Boolean).join(" ");
    const window = slotWindow(booking.timeSlot);
    return reminderEmail({
      to: booking.clientEmail,
      name: booking.clientName,
      dateLabel: f.longDate(booking.scheduledDate),
      timeLabel: slotText(t, window ? booking.timeSlot : bookingTime(booking.timeSlot)),
      what: t("mail.reminder.what.inspection"),
      location: [booking.address, booking.city, region].filter(Boolean).join(", "),
      durationLabel: window ? durationText(t, window.minutes) : null,
      locale,
      ics: calendarFile([bookingEvent(booking, this.tz, t)], t("maintenance-mail.ics.inspection.category")),
      supportEmail,
      supportPhone,
      publicUrl: this.deps.settings.publicUrl,
    });
  }
}
