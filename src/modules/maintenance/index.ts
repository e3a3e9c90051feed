// What other modules, the CLI and the seeds may use of maintenance (README "Interface for other modules").
export {
  type CreatedSchedule,
  type ExpandOptions,
  type ExpandResult,
  type MaintenanceDeps,
  MaintenanceService,
  type MaintenanceSettings,
  type NewScheduleInput,
  STALE_TASK_MESSAGE,
} from "./maintenance.service.js";
export {
  PlanDeliveries,
  type PlanDeliveriesDeps,
  type PlanDeliveriesSettings,
  type PlanServiceSchedule,
  type PlanServiceSubscription,
  type SyncResult,
} from "./plan-deliveries.js";
export type { InspectionBooker, PlanVisitChange, PlanVisitChangeResult } from "./plan-visit-changes.js";
export {
  MAINTENANCE_CRONTAB,
  MAINTENANCE_EXPAND_TASK,
  MAINTENANCE_REMINDERS_TASK,
  maintenanceExpandTask,
  maintenanceRemindersTask,
} from "./maintenance.tasks.js";
export { bookingEvent, calendarFile, taskEvent, taskWindow } from "./maintenance.ics.js";
export {
  ANNUAL_INSPECTION_SERVICE,
  VISIT_RULE_MESSAGES,
  changeableOn,
  moveWindow,
  skippable,
} from "./plan-visit-rules.js";
export { occurrencesBetween } from "./recurrence.js";
export { type ReminderDetails, reminderEmail } from "./reminder-email.js";
/** The task row mappings, their columns and task shapes My Home's read model shares. */
export { DATED_TASK_COLUMNS, type DatedTask, type ListedTask, toDatedTask, toTask } from "./task-rows.js";
