import { z } from "zod";
import {
  MAX_ID,
  dateField,
  idInput,
  idParams as canonicalIdParams,
  isMultiLine,
  isSingleLine,
  monthField,
  multiLineMessage,
  singleLineMessage,
  timestampField,
} from "../../http/fields.js";
import {
  RECURRENCE_TYPES,
  TASK_CATEGORIES,
  TASK_PRIORITIES,
  TASK_STATUSES,
  normalizeClock,
} from "./maintenance.constants.js";

// Zod schemas of maintenance (staff-side §3, §5, §7). Islands import this file: nothing from the server.

/** The longest task a schedule may name: a week, in minutes. */
export const MAX_DURATION_MINUTES = 7 * 24 * 60;
/** A sanity bound on the recurrence interval (every 100 years at most). */
export const MAX_RECURRENCE_INTERVAL = 100;

/** Run a whole-object rule even when a field failed, so one 400 names every problem (zod skips it otherwise). */
const always = { when: () => true } as never;
const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");
/** A form sends numbers as text: digits become a number, blanks become undefined. */
const numeric = (v: unknown) =>
  blank(v) ? undefined : typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
const oneOf = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { message: `${label} must be one of ${values.join(", ")}` });
/** Missing means the default; present must be one of the values (an empty select counts as missing). */
const enumWithDefault = <T extends readonly [string, ...string[]]>(values: T, label: string, fallback: T[number]) =>
  z.preprocess((v) => (blank(v) ? undefined : v), oneOf(values, label).default(fallback as never));
/** Notes and descriptions: multi-line text (line breaks kept, other control characters refused). */
const optionalText = (label: string, max: number) =>
  z.preprocess(
    (v) => (blank(v) ? null : typeof v === "string" ? v.trim() : v),
    z
      .string({ message: `${label} must be text` })
      .max(max, `${label} must be at most ${max} characters`)
      .refine(isMultiLine, multiLineMessage(label))
      .nullable(),
  );
/** An id as a number, or as canonical text from a form ('12', never '012', ' 12' or '1.2e1'). */
const id = (label: string, required: string) =>
  z.preprocess(
    (v) => (blank(v) ? undefined : idInput(v)),
    z
      .number({ message: required })
      .int(`${label} must be a whole number`)
      .positive(`${label} must be a whole number`)
      .max(MAX_ID, `${label} is not valid`),
  );

/** 'YYYY-MM-DD' that is a real date in years 1900 to 2200 (src/http/fields.ts). */
const isoDate = dateField;

/** A clock time ('14:30', '2:30 PM'), stored as '02:30 PM'. */
const clockString = (label: string) =>
  z
    .string({ message: `${label} must be a time such as 14:30 or 2:30 PM` })
    .max(20, `${label} must be a time such as 14:30 or 2:30 PM`)
    .transform((v, ctx) => {
      const clock = normalizeClock(v);
      if (clock) return clock;
      ctx.addIssue({ code: "custom", message: `${label} must be a time such as 14:30 or 2:30 PM` });
      return z.NEVER;
    });
/** A clock time; blank means absent. */
const clockTime = (label: string) => z.preprocess((v) => (blank(v) ? undefined : v), clockString(label).optional());
/** A task's length in minutes: 1 minute to a week; numbers may come as text. */
const duration = z
  .number({ message: "Duration must be a number of minutes" })
  .int("Duration must be a whole number of minutes")
  .positive("Duration must be at least 1 minute")
  .max(MAX_DURATION_MINUTES, `Duration must be at most ${MAX_DURATION_MINUTES} minutes`);

/**
 * POST /api/maintenance-schedules (staff-side §7 payload, §5 rules). Property, category, title and the
 * start date are required; an absent start date means today (the form's default, computed by the
 * service in the business zone). With `fromTaskId`, the task's property, title, description, category and
 * priority fill in whatever the payload leaves out ('Make recurring' on a recommendation).
 */
export const scheduleCreateSchema = z
  .object({
    fromTaskId: id("Task", "Task must be a whole number").optional(),
    propertyId: id("Property", "Property is required").optional(),
    title: z.preprocess(
      (v) => (blank(v) ? undefined : v),
      z
        .string({ message: "Title must be text" })
        .trim()
        .max(200, "Title must be at most 200 characters")
        .refine(isSingleLine, singleLineMessage("Title"))
        .optional(),
    ),
    description: optionalText("Description", 2000).optional(),
    category: z.preprocess((v) => (blank(v) ? undefined : v), oneOf(TASK_CATEGORIES, "Category").optional()),
    // Medium when absent, or the source task's priority (the service decides: it knows the task).
    priority: z.preprocess((v) => (blank(v) ? undefined : v), oneOf(TASK_PRIORITIES, "Priority").optional()),
    estimatedDuration: z.preprocess(numeric, duration.nullable().default(null)),
    recurrenceType: enumWithDefault(RECURRENCE_TYPES, "Recurrence", "monthly"),
    recurrenceInterval: z.preprocess(
      numeric,
      z
        .number({ message: "Recurrence interval must be a whole number of at least 1" })
        .int("Recurrence interval must be a whole number of at least 1")
        .min(1, "Recurrence interval must be a whole number of at least 1")
        .max(MAX_RECURRENCE_INTERVAL, `Recurrence interval must be at most ${MAX_RECURRENCE_INTERVAL}`)
        .default(1),
    ),
    startDate: isoDate("Start date").optional(),
    // The occurrences' clock time (10:00 AM when absent, staff-side §9).
    scheduledTime: clockTime("Time"),
  })
  .superRefine((input, ctx) => {
    // Without a task to copy from, the form's required fields must all be there.
    if (input.fromTaskId !== undefined) return;
    if (input.propertyId === undefined)
      ctx.addIssue({ code: "custom", path: ["propertyId"], message: "Property is required" });
    if (input.category === undefined)
      ctx.addIssue({ code: "custom", path: ["category"], message: "Category is required" });
    if (input.title === undefined) ctx.addIssue({ code: "custom", path: ["title"], message: "Title is required" });
  }, always);
export type ScheduleCreateInput = z.infer<typeof scheduleCreateSchema>;

/** Present and blank means "clear it" (null); absent means "leave it". */
const clearable = <T extends z.ZodTypeAny>(inner: T) =>
  z.preprocess((v) => (v === undefined ? undefined : blank(v) ? null : v), inner.nullable().optional());

/**
 * PATCH /api/maintenance-tasks/{id}: any status (staff-side §4); completedAt only with completed. Beside the
 * spec's fields: the date, the time, the duration and the staff user assigned; an empty value
 * clears one. 'scheduled' needs a date (the one sent or the task's own: the service checks the latter).
 */
export const taskUpdateSchema = z
  .object({
    id: z.unknown().optional(),
    status: oneOf(TASK_STATUSES, "Status").optional(),
    notes: optionalText("Notes", 5000).optional(),
    completedAt: z.preprocess((v) => (blank(v) ? undefined : v), timestampField("Completed at").optional()),
    scheduledDate: clearable(isoDate("Date")),
    scheduledTime: clearable(clockString("Time")),
    estimatedDuration: z.preprocess(
      (v) => (v === undefined ? undefined : (numeric(v) ?? null)),
      duration.nullable().optional(),
    ),
    assignedTo: clearable(id("Assigned to", "Assigned to must be a staff user's id")),
    // The version the dialog was opened with: a task changed since is a 409 (optional for plain calls).
    version: z
      .number({ message: "Version must be a whole number" })
      .int("Version must be a whole number")
      .min(1, "Version must be at least 1")
      .max(MAX_ID, "Version is not valid")
      .optional(),
  })
  .superRefine((input, ctx) => {
    const fields = ["status", "notes", "scheduledDate", "scheduledTime", "estimatedDuration", "assignedTo"] as const;
    if (fields.every((f) => input[f] === undefined))
      ctx.addIssue({ code: "custom", path: ["status"], message: "Status is required" });
    if (input.completedAt !== undefined && input.status !== "completed")
      ctx.addIssue({
        code: "custom",
        path: ["completedAt"],
        message: "Completed at goes only with the status completed",
      });
    if (input.status === "scheduled" && input.scheduledDate === null)
      ctx.addIssue({ code: "custom", path: ["scheduledDate"], message: "Choose a date to schedule the task" });
  }, always);
export type TaskUpdateInput = z.infer<typeof taskUpdateSchema>;

const limit = z.preprocess(
  numeric,
  z
    .number({ message: "Limit must be a number" })
    .int("Limit must be a whole number")
    .min(1, "Limit must be at least 1")
    .max(500, "Limit must be at most 500")
    .default(100),
);
const offset = z.preprocess(
  numeric,
  z
    .number({ message: "Offset must be a number" })
    .int("Offset must be a whole number")
    .min(0, "Offset must be at least 0")
    .max(10_000_000, "Offset is too large")
    .default(0),
);
const q = z.preprocess(
  (v) => (blank(v) ? undefined : v),
  z.string({ message: "Search must be text" }).trim().max(200, "Search must be at most 200 characters").optional(),
);
const optionalDate = (label: string) => z.preprocess((v) => (blank(v) ? undefined : v), isoDate(label).optional());

/** GET /api/maintenance-tasks: the spec's list, paginated, searchable, and optionally one date range or status. */
export const taskListQuery = z
  .object({
    limit,
    offset,
    q,
    status: z.preprocess((v) => (blank(v) ? undefined : v), oneOf(TASK_STATUSES, "Status").optional()),
    category: z.preprocess((v) => (blank(v) ? undefined : v), oneOf(TASK_CATEGORIES, "Category").optional()),
    priority: z.preprocess((v) => (blank(v) ? undefined : v), oneOf(TASK_PRIORITIES, "Priority").optional()),
    assignedTo: z.preprocess(
      (v) => (blank(v) ? undefined : v),
      id("Assigned to", "Assigned to must be a staff user's id").optional(),
    ),
    propertyId: z.preprocess(
      (v) => (blank(v) ? undefined : v),
      id("Property", "Property must be a whole number").optional(),
    ),
    // newest (the spec's list) or date: by date and time, the undated last (the calendar's list view).
    sort: enumWithDefault(["newest", "date"] as const, "Sort", "newest"),
    from: optionalDate("From"),
    to: optionalDate("To"),
    month: z.preprocess((v) => (blank(v) ? undefined : v), monthField("Month").optional()),
  })
  .superRefine((input, ctx) => {
    if (input.from && input.to && input.from > input.to)
      ctx.addIssue({ code: "custom", path: ["to"], message: "To must be on or after From" });
  });

export const scheduleListQuery = z.object({ limit, offset, q, propertyId: taskListQuery.shape.propertyId });

/** GET /api/maintenance-calendar: one month ('YYYY-MM'), or an explicit range of at most 62 days. */
export const calendarQuery = z
  .object({
    month: taskListQuery.shape.month,
    from: optionalDate("From"),
    to: optionalDate("To"),
    perDay: z.preprocess(
      numeric,
      z
        .number({ message: "Per day must be a number" })
        .int("Per day must be a whole number")
        .min(1, "Per day must be at least 1")
        .max(1000, "Per day must be at most 1000")
        .optional(),
    ),
  })
  .superRefine((input, ctx) => {
    if (!input.month && !(input.from && input.to))
      ctx.addIssue({ code: "custom", path: ["month"], message: "Month is required (YYYY-MM), or From and To" });
    if (input.from && input.to) {
      const days = (Date.parse(input.to) - Date.parse(input.from)) / 86_400_000;
      if (days < 0) ctx.addIssue({ code: "custom", path: ["to"], message: "To must be on or after From" });
      else if (days > 62) ctx.addIssue({ code: "custom", path: ["to"], message: "A range may cover at most 62 days" });
    }
  });

export const idParams = canonicalIdParams;

/** `haven maintenance expand --horizon DAYS` and the service: 1 to 3 years. */
export const DEFAULT_HORIZON_DAYS = 90;
export const MAX_HORIZON_DAYS = 3 * 366;

/**
 * A plan's on-request service asked for on a date: staff, or later the homeowner's portal.
 * `service` is a plan service key ('vacation-prep'); the service checks the plan includes it.
 */
export const planServiceRequestSchema = z.object({
  service: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z.string({ message: "Service is required" }).min(1, "Service is required").max(100, "Service is not valid"),
  ),
  date: isoDate("Date"),
  notes: optionalText("Notes", 2000).optional(),
});
export type PlanServiceRequestInput = z.infer<typeof planServiceRequestSchema>;
