import { z } from "zod";
import { apiCalls, dateString, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import {
  type CalendarBooking,
  type CalendarTask,
  type MaintenanceSchedule,
  type MaintenanceTask,
  RECURRENCE_TYPES,
  TASK_CATEGORIES,
  TASK_PRIORITIES,
  TASK_STATUSES,
} from "./maintenance.constants.js";
import {
  calendarQuery,
  idParams,
  scheduleCreateSchema,
  scheduleListQuery,
  taskListQuery,
  taskUpdateSchema,
} from "./maintenance.schemas.js";

// OpenAPI entries of maintenance.routes.ts; see docs/api.md.

const text = z.string().nullable();
const time = z.string().meta({ example: "10:00 AM" });
const rowVersion = z
  .number()
  .int()
  .min(1)
  .meta({ description: "Grows with every update; send it back in PATCH to refuse a stale edit" });
const taskFields = {
  id: idNumber,
  propertyId: idNumber,
  reportId: idNumber.nullable(),
  scheduleId: idNumber.nullable(),
  title: z.string(),
  description: text,
  category: z.enum(TASK_CATEGORIES),
  priority: z.enum(TASK_PRIORITIES),
  status: z.enum(TASK_STATUSES),
  scheduledDate: dateString.nullable().meta({ description: "Null until scheduled (a recommendation's task)" }),
  scheduledTime: time.nullable(),
  estimatedDuration: z.number().int().nullable().meta({ description: "Minutes" }),
  assignedTo: idNumber.nullable().meta({ description: "The staff user assigned (their id), or null" }),
  notes: text,
  completedAt: dateTimeString.nullable(),
  version: rowVersion,
  held: z
    .boolean()
    .meta({ description: "Held while the plan's subscription is past due (shown as 'Held: payment past due')" }),
  createdAt: dateTimeString,
};
const planFields = {
  planService: z.string().nullable().meta({
    description: "The plan service this task delivers ('window-cleaning', 'hvac-maintenance/furnace'), or null",
  }),
  planType: z
    .string()
    .nullable()
    .meta({ description: "The plan of that service's subscription ('basic', 'standard', 'premium'), or null" }),
};
const task: z.ZodType<MaintenanceTask> = z.object(taskFields).meta({ id: "MaintenanceTask" });
const listedTask = z
  .object({
    ...taskFields,
    propertyAddress: z.string(),
    clientName: z.string(),
    assignedToName: z.string().nullable(),
    ...planFields,
  })
  .meta({ id: "MaintenanceTaskListed" });

const scheduleFields = {
  id: idNumber,
  propertyId: idNumber,
  title: z.string(),
  description: text,
  category: z.enum(TASK_CATEGORIES),
  priority: z.enum(TASK_PRIORITIES),
  estimatedDuration: z.number().int().nullable(),
  recurrenceType: z.enum(RECURRENCE_TYPES),
  recurrenceInterval: z.number().int().min(1),
  startDate: dateString,
  scheduledTime: time,
  sourceTaskId: idNumber.nullable(),
  expandedThrough: dateString.nullable().meta({ description: "Tasks exist up to this date (the expansion horizon)" }),
  subscriptionId: idNumber.nullable().meta({ description: "A plan service's schedule: its subscription" }),
  planService: z
    .string()
    .nullable()
    .meta({ description: "A plan service's schedule: the service ('window-cleaning')" }),
  rrule: z
    .string()
    .nullable()
    .meta({ description: "An RFC 5545 RRULE whose DTSTART is startDate; when set it decides the dates" }),
  held: z.boolean().meta({ description: "Its tasks are held (subscription past due)" }),
  endedAt: dateTimeString
    .nullable()
    .meta({ description: "The plan service ended (downgrade, cancellation): nothing more is expanded" }),
  createdAt: dateTimeString,
  propertyAddress: z.string().optional(),
  clientName: z.string().optional(),
};
const schedule: z.ZodType<MaintenanceSchedule> = z.object(scheduleFields).meta({ id: "MaintenanceSchedule" });
const createdSchedule = z.object({ ...scheduleFields, tasksCreated: z.number().int().min(0) });

const calendarTask: z.ZodType<CalendarTask> = z.object({
  id: idNumber,
  propertyId: idNumber,
  scheduleId: idNumber.nullable(),
  title: z.string(),
  description: text,
  category: z.enum(TASK_CATEGORIES),
  priority: z.enum(TASK_PRIORITIES),
  status: z.enum(TASK_STATUSES),
  scheduledDate: dateString,
  scheduledTime: time,
  estimatedDuration: z.number().int().nullable(),
  notes: text,
  assignedTo: idNumber.nullable(),
  assignedToName: z.string().nullable(),
  version: rowVersion,
  propertyAddress: z.string(),
  clientName: z.string(),
  held: z.boolean().optional(),
  ...planFields,
});
const calendarBooking: z.ZodType<CalendarBooking> = z.object({
  id: idNumber,
  propertyId: idNumber,
  scheduledDate: dateString,
  timeSlot: z.string(),
  status: z.string(),
  notes: text,
  accessMethod: text,
  specialRequests: text,
  propertyAddress: z.string(),
  city: z.string(),
  clientName: z.string(),
  clientEmail: z.string(),
  clientPhone: text,
  inspectorId: idNumber.nullable(),
  inspectorName: text,
});

export const maintenanceCalls = apiCalls([
  {
    method: "get",
    path: "/api/maintenance-tasks",
    summary:
      "Maintenance tasks, newest first (or by date with sort=date, undated last); filters: status, category, priority, assignee, property, date range or month",
    tags: ["Maintenance"],
    access: "staff",
    query: taskListQuery,
    list: true,
    csv: true,
    responses: { 200: z.array(listedTask) },
  },
  {
    method: "patch",
    path: "/api/maintenance-tasks/{id}",
    summary: "Update a task's status, notes, date, time, duration and assignee",
    description:
      "Any status may be chosen; completedAt goes only with completed. Beside the spec's fields: scheduledDate, " +
      "scheduledTime ('14:30' or '2:30 PM', kept as '02:30 PM'), estimatedDuration (minutes) and assignedTo (a staff " +
      "user's id); an empty value clears one. 'scheduled' needs a date, sent or already on the task (400 otherwise). With `version` (the one the caller read), a task " +
      "changed since is a 409 `{message, current}` whose `current` is the task as it is now, and nothing is written; " +
      "without it the last write wins.",
    tags: ["Maintenance"],
    access: "staff",
    params: idParams,
    body: taskUpdateSchema,
    responses: { 200: task },
    errors: [404, 409],
  },
  {
    method: "get",
    path: "/api/maintenance-tasks/{id}/ics",
    summary: "A dated task as an iCalendar file",
    tags: ["Maintenance"],
    access: "staff",
    params: idParams,
    responses: {
      200: { description: "The .ics file (an attachment)", contentType: "text/calendar", schema: z.string() },
    },
    errors: [404, 409],
  },
  {
    method: "get",
    path: "/api/maintenance-schedules",
    summary: "Recurring maintenance schedules, newest first",
    tags: ["Maintenance"],
    access: "staff",
    query: scheduleListQuery,
    list: true,
    responses: { 200: z.array(schedule) },
  },
  {
    method: "post",
    path: "/api/maintenance-schedules",
    summary: "Create a recurring schedule and expand its tasks up to the horizon",
    description:
      "Property, category, title are required unless fromTaskId names a task to copy them from ('Make recurring'). " +
      "Defaults: priority medium, recurrence monthly every 1, start date today (BUSINESS_TZ), duration null.",
    tags: ["Maintenance"],
    access: "staff",
    body: scheduleCreateSchema,
    responses: { 201: { description: "Created", schema: createdSchedule } },
  },
  {
    method: "get",
    path: "/api/maintenance-calendar",
    summary: "The calendar: a month (or a range of at most 62 days) of open tasks and bookings",
    description:
      "perDay keeps each day's first tasks by time (a cell shows two); taskCounts has every day's full count.",
    tags: ["Maintenance"],
    access: "staff",
    query: calendarQuery,
    responses: {
      200: z.object({
        from: dateString,
        to: dateString,
        bookings: z.array(calendarBooking),
        taskCounts: z
          .record(z.string(), z.number().int())
          .meta({ description: "Open tasks per 'YYYY-MM-DD'; days without tasks are absent" }),
        tasks: z.array(calendarTask),
      }),
    },
  },
]);
