import type { Task } from "graphile-worker";
import type { MaintenanceService } from "./maintenance.service.js";

// Colons, not dots: graphile-worker crontab task names allow letters, digits, _ - and :.
export const MAINTENANCE_EXPAND_TASK = "maintenance:expand";
export const MAINTENANCE_REMINDERS_TASK = "maintenance:reminders";

/**
 * graphile-worker crontab lines (UTC). Expansion runs daily; `fill=2d` catches up a run missed while no
 * worker was up. Reminders run every hour: each item's reminder is claimed once, so repeats send nothing,
 * and a worker that was down at one hour still sends the day's reminders at the next.
 */
export const MAINTENANCE_CRONTAB = [
  `15 4 * * * ${MAINTENANCE_EXPAND_TASK} ?fill=2d`,
  `5 * * * * ${MAINTENANCE_REMINDERS_TASK} ?fill=3h`,
].join("\n");

export const maintenanceExpandTask =
  (maintenance: MaintenanceService): Task =>
  async (_payload, helpers) => {
    const result = await maintenance.expand();
    helpers.logger.info(
      `maintenance expansion: ${result.created} task(s) from ${result.schedules} schedule(s) through ${result.through}`,
    );
  };

export const maintenanceRemindersTask =
  (maintenance: MaintenanceService): Task =>
  async (_payload, helpers) => {
    const sent = await maintenance.sendReminders();
    helpers.logger.info(`maintenance reminders for ${sent.date}: ${sent.tasks} task(s), ${sent.bookings} booking(s)`);
  };
