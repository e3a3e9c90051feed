// Enumerations of maintenance (staff-side §4, §9). Zod-free: islands may import them.
export const TASK_STATUSES = ["pending", "scheduled", "in_progress", "completed", "cancelled"] as const;
export const TASK_CATEGORIES = [
  "hvac",
  "plumbing",
  "electrical",
  "roofing",
  "flooring",
  "exterior",
  "landscaping",
  "cleaning",
  "safety",
  "other",
] as const;
export const TASK_PRIORITIES = ["low", "medium", "high"] as const;
export const RECURRENCE_TYPES = ["daily", "weekly", "monthly", "quarterly", "annually"] as const;

export type TaskStatus = (typeof TASK_STATUSES)[number];
export type TaskCategory = (typeof TASK_CATEGORIES)[number];
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
export type RecurrenceType = (typeof RECURRENCE_TYPES)[number];

/** Default calendar times (staff-side §9). */
export const DEFAULT_TASK_TIME = "10:00 AM";
export const DEFAULT_BOOKING_TIME = "09:00 AM";

export interface MaintenanceTask {
  id: number;
  propertyId: number;
  reportId: number | null;
  scheduleId: number | null;
  title: string;
  description: string | null;
  category: TaskCategory;
  priority: TaskPriority;
  status: TaskStatus;
  scheduledDate: string | null;
  scheduledTime: string | null;
  estimatedDuration: number | null;
  /** The staff user the task is assigned to (their id), or null. */
  assignedTo: number | null;
  notes: string | null;
  completedAt: string | null;
  /** Starts at 1 and grows with every update: a PATCH naming an older one is refused (409). */
  version: number;
  /** Held while its subscription is past due (a plan service's task; docs/decisions.md#27). */
  held: boolean;
  createdAt: string;
}

export interface NewTask {
  propertyId: number;
  reportId?: number | null;
  scheduleId?: number | null;
  title: string;
  description?: string | null;
  category?: TaskCategory;
  priority?: TaskPriority;
  status?: TaskStatus;
  scheduledDate?: string | null;
  scheduledTime?: string | null;
  estimatedDuration?: number | null;
  notes?: string | null;
}

export interface MaintenanceSchedule {
  id: number;
  propertyId: number;
  title: string;
  description: string | null;
  category: TaskCategory;
  priority: TaskPriority;
  estimatedDuration: number | null;
  recurrenceType: RecurrenceType;
  recurrenceInterval: number;
  startDate: string;
  scheduledTime: string;
  sourceTaskId: number | null;
  expandedThrough: string | null;
  /** A plan service's schedule: its subscription, service key, RFC 5545 rule, hold and end. */
  subscriptionId: number | null;
  planService: string | null;
  rrule: string | null;
  held: boolean;
  endedAt: string | null;
  createdAt: string;
  propertyAddress?: string;
  clientName?: string;
}

/** A task on the calendar (GET /api/maintenance-calendar): the fields a cell and the details dialog read. */
export interface CalendarTask {
  id: number;
  propertyId: number;
  scheduleId: number | null;
  title: string;
  description: string | null;
  category: TaskCategory;
  priority: TaskPriority;
  status: TaskStatus;
  scheduledDate: string;
  scheduledTime: string;
  estimatedDuration: number | null;
  notes: string | null;
  version: number;
  assignedTo: number | null;
  assignedToName: string | null;
  propertyAddress: string;
  clientName: string;
  /** A plan service's task: held while past due, its service key and plan (the colour); absent on older answers. */
  held?: boolean;
  planService?: string | null;
  planType?: string | null;
}

/** A booking on the calendar: its time slot, or 09:00 AM when it has none. */
export interface CalendarBooking {
  id: number;
  propertyId: number;
  scheduledDate: string;
  timeSlot: string;
  status: string;
  notes: string | null;
  accessMethod: string | null;
  specialRequests: string | null;
  propertyAddress: string;
  city: string;
  clientName: string;
  clientEmail: string;
  clientPhone: string | null;
  /** The inspector it is given to (docs/decisions.md#37): the calendar's colour and the dialog's choice. */
  inspectorId: number | null;
  inspectorName: string | null;
}

export interface CalendarMonth {
  from: string;
  to: string;
  /** Not-completed tasks by date and time: all of them, or a day's first `perDay`. */
  tasks: CalendarTask[];
  /** Every day's full number of not-completed tasks, by 'YYYY-MM-DD' (days without tasks are absent). */
  taskCounts: Record<string, number>;
  bookings: CalendarBooking[];
}

export const RECURRENCE_LABELS: Record<RecurrenceType, string> = {
  daily: "Daily",
  weekly: "Weekly",
  monthly: "Monthly",
  quarterly: "Quarterly",
  annually: "Annually",
};

export const STATUS_LABELS: Record<TaskStatus, string> = {
  pending: "Pending",
  scheduled: "Scheduled",
  in_progress: "In Progress",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** 'hvac' → 'HVAC', 'in_progress' → 'In Progress', anything else capitalised. */
export const labelOf = (value: string | null | undefined) =>
  !value
    ? ""
    : value === "hvac"
      ? "HVAC"
      : value
          .split("_")
          .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
          .join(" ");

/** Durations show as minutes or hours (staff-side §2): 45 → '45 minutes', 90 → '1.5 hours', 120 → '2 hours'. */
export function formatDuration(minutes: number | null | undefined): string {
  if (!minutes || minutes <= 0) return "Not set";
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const hours = Math.round((minutes / 60) * 100) / 100;
  return `${hours} hour${hours === 1 ? "" : "s"}`;
}

/** The calendar time of a task (10:00 AM unless set) and of a booking (09:00 AM unless its slot is a time). */
export const taskTime = (time: string | null | undefined) => (time?.trim() ? time : DEFAULT_TASK_TIME);
export const bookingTime = (slot: string | null | undefined) =>
  slot && /^\d{1,2}:\d{2}\s*(AM|PM)$/i.test(slot.trim()) ? slot.trim() : DEFAULT_BOOKING_TIME;

/**
 * A clock time as tasks store it ('02:30 PM'), from what a form sends: '14:30' (an `<input type="time">`),
 * '2:30 pm' or '02:30 PM'. Null when it is not a time of day.
 */
export function normalizeClock(value: string): string | null {
  const text = value.trim();
  const h24 = /^([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/.exec(text);
  if (h24) {
    const hour = Number(h24[1]);
    return `${String(hour % 12 || 12).padStart(2, "0")}:${h24[2]} ${hour < 12 ? "AM" : "PM"}`;
  }
  const h12 = /^(0?[1-9]|1[0-2]):([0-5]\d)\s*([AaPp][Mm])$/.exec(text);
  return h12 ? `${h12[1]!.padStart(2, "0")}:${h12[2]} ${h12[3]!.toUpperCase()}` : null;
}

/** '02:30 PM' → '14:30', for an `<input type="time">`; '' when it is not a stored clock time. */
export function clockToInput(value: string | null | undefined): string {
  const match = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(value?.trim() ?? "");
  if (!match) return "";
  const hour = (Number(match[1]) % 12) + (match[3] === "PM" ? 12 : 0);
  return `${String(hour).padStart(2, "0")}:${match[2]}`;
}

/** Why a held task is held (docs/decisions.md#27): shown on the calendar and in the list. */
export const HELD_LABEL = "Held: payment past due";
/** A plan's name for a plan service's task ('standard' → 'Standard plan'). */
export const planLabel = (planType: string | null | undefined) =>
  planType ? `${planType.charAt(0).toUpperCase()}${planType.slice(1)} plan` : "";
