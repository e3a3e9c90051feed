import type { Task } from "graphile-worker";
import type { Notifications } from "./notifications.service.js";

export const NOTIFICATIONS_PAID_NEVER_BOOKED_TASK = "notifications:paid-never-booked";

/** graphile-worker crontab line (UTC): hourly, so a customer is noticed within the hour of their second day. */
export const NOTIFICATIONS_CRONTAB = `15 * * * * ${NOTIFICATIONS_PAID_NEVER_BOOKED_TASK}`;

export const paidNeverBookedTask =
  (notifications: Pick<Notifications, "paidNeverBooked">, clock: () => Date = () => new Date()): Task =>
  async (_payload, helpers) => {
    const raised = await notifications.paidNeverBooked(clock());
    if (raised) helpers.logger.info(`notifications: ${raised} paid but never booked`);
  };
