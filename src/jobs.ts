import type { TaskList } from "graphile-worker";
import type { Container } from "./container.js";
import { MAIL_SEND_TASK } from "./modules/mail/mail.schemas.js";
import { mailSendTask } from "./modules/mail/mail.tasks.js";
import { SHARE_MAIL_TASK } from "./modules/sharing/sharing.service.js";
import { shareMailTask } from "./modules/sharing/sharing.tasks.js";
import { QUOTE_REPORT_MAIL_TASK } from "./modules/quotes/quotes.service.js";
import { quoteReportMailTask } from "./modules/quotes/quotes.tasks.js";
import { PRIVACY_PURGE_TASK, privacyPurgeTask } from "./modules/privacy/privacy.tasks.js";
import { SUBSCRIPTIONS_RENEW_TASK, subscriptionsRenewTask } from "./modules/subscriptions/subscriptions.tasks.js";
import { BACKUP_TASK, backupTask } from "./ops/backup.tasks.js";
import { MAINTENANCE_EXPAND_TASK, MAINTENANCE_REMINDERS_TASK, maintenanceExpandTask, maintenanceRemindersTask } from "./modules/maintenance/maintenance.tasks.js";

/** Every job the worker runs, by name. Modules add their tasks here. */
export function taskList(container: Container): TaskList {
  return {
    [MAIL_SEND_TASK]: mailSendTask(container.mail),
    [SHARE_MAIL_TASK]: shareMailTask(container),
    [QUOTE_REPORT_MAIL_TASK]: quoteReportMailTask(container),
    [MAINTENANCE_EXPAND_TASK]: maintenanceExpandTask(container.maintenance),
    [MAINTENANCE_REMINDERS_TASK]: maintenanceRemindersTask(container.maintenance),
    [PRIVACY_PURGE_TASK]: privacyPurgeTask(container.privacy),
    [SUBSCRIPTIONS_RENEW_TASK]: subscriptionsRenewTask(container.subscriptions),
    // Daily when BACKUP_DIR is set (backupCrontab in src/ops/backup.ts; docs/operations.md, "Backups").
    [BACKUP_TASK]: backupTask(container),
  };
}
