// Enumerations of maintenance (staff-side §4, §9). Zod-free: islands may import them.
export const TASK_STATUSES = ["pending", "scheduled", "in_progress", "completed", "cancelled"] as const;
export const TASK_CATEGORIES = ["hvac", "plumbing", "electrical", "roofing", "flooring", "exterior", "landscaping", "cleaning", "safety", "other"] as const;
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
  assignedTo: string | null;
  notes: string | null;
  completedAt: string | null;
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
