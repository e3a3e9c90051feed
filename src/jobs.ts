import type { TaskList } from "graphile-worker";
import type { Container } from "./container.js";
import { MAIL_SEND_TASK, mailSendTask } from "./modules/mail/index.js";
import { SHARE_MAIL_TASK, shareMailTask } from "./modules/sharing/index.js";
import { QUOTE_REPORT_MAIL_TASK, quoteReportMailTask } from "./modules/quotes/index.js";
import { QUOTES_BOOKED_MAIL_TASK, quotesBookedMailTask } from "./modules/quotes/after-yes.tasks.js";
import { PRIVACY_PURGE_TASK, privacyPurgeTask } from "./modules/privacy/index.js";
import { NOTIFICATIONS_PAID_NEVER_BOOKED_TASK, paidNeverBookedTask } from "./modules/notifications/index.js";
import {
  SUBSCRIPTIONS_FINISH_CHANGE_TASK,
  SUBSCRIPTIONS_RENEW_TASK,
  subscriptionsFinishChangeTask,
  subscriptionsRenewTask,
} from "./modules/subscriptions/subscriptions.tasks.js";
import { SUBSCRIPTIONS_RECONCILE_TASK, subscriptionsReconcileTask } from "./modules/subscriptions/reconcile.tasks.js";
import { SUBSCRIPTIONS_RECEIPT_TASK, subscriptionsReceiptTask } from "./modules/subscriptions/renewal-receipts.js";
import { REFUNDS_FINISH_TASK, refundsFinishTask } from "./modules/invoices/refunds.tasks.js";
import {
  HOME_MOVED_TASK,
  HOME_TAX_RATES_TASK,
  HOME_TAX_TASK,
  homeMovedTask,
  homeTaxRatesTask,
  homeTaxTask,
} from "./modules/subscriptions/home-tax.tasks.js";
import { CUSTOMER_LOCALE_TASK, customerLocaleTask } from "./modules/subscriptions/stripe-locale.tasks.js";
import { BACKUP_TASK, backupTask } from "./ops/backup.tasks.js";
import {
  MAINTENANCE_EXPAND_TASK,
  MAINTENANCE_REMINDERS_TASK,
  maintenanceExpandTask,
  maintenanceRemindersTask,
} from "./modules/maintenance/index.js";

/** Every job the worker runs, by name. Modules add their tasks here. */
export function taskList(container: Container): TaskList {
  return {
    [MAIL_SEND_TASK]: mailSendTask(container.mail),
    [SHARE_MAIL_TASK]: shareMailTask({
      reports: container.reports,
      mail: container.mail,
      settings: { supportEmail: container.env.SUPPORT_EMAIL },
    }),
    [QUOTE_REPORT_MAIL_TASK]: quoteReportMailTask({
      quotes: container.quotes,
      mail: container.mail,
      settings: { supportEmail: container.env.SUPPORT_EMAIL },
    }),
    [QUOTES_BOOKED_MAIL_TASK]: quotesBookedMailTask(container.quotePayments),
    [MAINTENANCE_EXPAND_TASK]: maintenanceExpandTask(container.maintenance),
    [MAINTENANCE_REMINDERS_TASK]: maintenanceRemindersTask(container.maintenance),
    [PRIVACY_PURGE_TASK]: privacyPurgeTask(container.privacy),
    [NOTIFICATIONS_PAID_NEVER_BOOKED_TASK]: paidNeverBookedTask(container.notifications),
    [SUBSCRIPTIONS_RENEW_TASK]: subscriptionsRenewTask(container.subscriptions),
    [SUBSCRIPTIONS_FINISH_CHANGE_TASK]: subscriptionsFinishChangeTask(container.subscriptions),
    [SUBSCRIPTIONS_RECONCILE_TASK]: subscriptionsReconcileTask(container.invoiceSide.reconcile),
    [SUBSCRIPTIONS_RECEIPT_TASK]: subscriptionsReceiptTask(container.invoiceSide.renewalReceipts, container.mail),
    [REFUNDS_FINISH_TASK]: refundsFinishTask(container.invoiceSide.refunds),
    // The tax follows the home (docs/decisions.md#57): intake, a staff address change, a rate's first day.
    [HOME_TAX_TASK]: homeTaxTask(container.invoiceSide.homeTax),
    [HOME_MOVED_TASK]: homeMovedTask(container.invoiceSide.homeTax),
    [HOME_TAX_RATES_TASK]: homeTaxRatesTask(container.invoiceSide.homeTax, container.env.BUSINESS_TZ),
    // A customer's new language goes to their Stripe customers (docs/decisions.md#65).
    [CUSTOMER_LOCALE_TASK]: customerLocaleTask({
      subscriptions: container.subscriptions,
      stripe: container.stripe?.billing.stripe ?? null,
    }),
    // Daily when BACKUP_DIR is set (backupCrontab in src/ops/backup.ts; docs/operations.md, "Backups").
    [BACKUP_TASK]: backupTask(container),
  };
}
