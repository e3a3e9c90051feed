// What the calendar's views and dialogs share (MaintenanceCalendar.island.tsx): a task as shown, the staff, the choices.
import type { TaskStatus } from "../../src/modules/maintenance/maintenance.constants";

/** What the Task Details dialog shows: a calendar task or a row of the list (which may have no date). */
export interface TaskView {
  id: number;
  title: string;
  description: string | null;
  category: string;
  priority: string;
  status: TaskStatus;
  scheduledDate: string | null;
  scheduledTime: string | null;
  estimatedDuration: number | null;
  notes: string | null;
  /** The staff user assigned (their id), and their name when the answer carries it. */
  assignedTo: number | null;
  assignedToName?: string | null;
  /** The task's version when it was read: sent back so a stale edit is refused (409), never applied. */
  version: number;
  propertyAddress: string;
  clientName: string;
  /** A plan service's task: held while the subscription is past due; its plan (the colour). */
  held?: boolean;
  planService?: string | null;
  planType?: string | null;
}

/** A staff user a task may be assigned to. */
export interface StaffOption {
  id: number;
  name: string;
}

export interface Enumerations {
  categories: readonly string[];
  priorities: readonly string[];
  recurrences: readonly string[];
  statuses: readonly TaskStatus[];
  staff: readonly StaffOption[];
}

/** A form's messages by field. */
export type Fields = Record<string, string>;

/** An input's change handler for one key of a dialog's form (every input holds text). */
export type FieldSetter<K extends string> = (key: K) => (e: { target: { value: string } }) => void;
