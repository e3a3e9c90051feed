// The notifications module's interface (README "Interface for other modules").
export { Notifications, type NewNotification } from "./notifications.service.js";
export { NotificationsRepository } from "./notifications.repository.js";
export { notificationsApi, notificationsPages } from "./notifications.routes.js";
export {
  NOTIFICATIONS_CRONTAB,
  NOTIFICATIONS_PAID_NEVER_BOOKED_TASK,
  paidNeverBookedTask,
} from "./notifications.tasks.js";
export type { Notification } from "./notifications.schemas.js";
