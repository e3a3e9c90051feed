import { type FormEvent, useState } from "react";
import {
  HELD_LABEL,
  RECURRENCE_LABELS,
  STATUS_LABELS,
  type TaskStatus,
  clockToInput,
  formatDuration,
  labelOf,
  planLabel,
  taskTime,
} from "../../src/modules/maintenance/maintenance.constants";
import { PropertyPicker, type PropertyRow, propertyLabel } from "../inspections/PropertyPicker";
import { ApiError, apiRequest } from "../ui/api";
import { toast } from "../ui/toast";
import { refreshAll } from "./data";
import { Details, Dialog } from "./Dialog";
import { longDateLabel } from "./month-grid";

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

/** Shown in the dialog when the task changed since it was opened (a 409 that carries the fresh task). */
export const STALE_TASK_NOTICE = "This task was changed by someone else. The latest values are shown; review them and save again.";

/** The fresh record of a 409 `{message, current}` answer, or null for any other failure. */
export function staleCurrent<T>(error: Error): T | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    return (JSON.parse(error.body) as { current?: T }).current ?? null;
  } catch {
    return null;
  }
}

export interface Enumerations {
  categories: readonly string[];
  priorities: readonly string[];
  recurrences: readonly string[];
  statuses: readonly TaskStatus[];
  staff: readonly StaffOption[];
}

/** A write's state: pending while it runs; `run` resolves after success or failure handling. */
export function useWrite<T>(send: () => Promise<T>, onSuccess: (result: T) => void, onError: (error: Error) => void) {
  const [isPending, setPending] = useState(false);
  const run = async () => {
    setPending(true);
    try {
      const result = await send();
      setPending(false);
      onSuccess(result);
    } catch (error) {
      setPending(false);
      onError(error instanceof Error ? error : new Error(String(error)));
    }
  };
  return { isPending, run };
}

/** The dialog's editable fields as the inputs hold them (text), from a task. */
const taskForm = (t: TaskView) => ({
  status: t.status,
  notes: t.notes ?? "",
  scheduledDate: t.scheduledDate ?? "",
  scheduledTime: t.scheduledDate ? clockToInput(t.scheduledTime) : "",
  estimatedDuration: t.estimatedDuration ? String(t.estimatedDuration) : "",
  assignedTo: t.assignedTo ? String(t.assignedTo) : "",
});

export function TaskDialog({ task: opened, statuses, staff, onClose }: { task: TaskView; statuses: readonly TaskStatus[]; staff: readonly StaffOption[]; onClose: () => void }) {
  // The task as last read: the opened one, or the fresh one a stale save brought back.
  const [task, setTask] = useState(opened);
  const [form, setForm] = useState(() => taskForm(opened));
  const [errors, setErrors] = useState<Fields>({});
  const [stale, setStale] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const update = useWrite(
    () =>
      apiRequest("PATCH", `/api/maintenance-tasks/${task.id}`, {
        id: task.id,
        status: form.status,
        notes: form.notes.trim() || null,
        scheduledDate: form.scheduledDate || null,
        scheduledTime: form.scheduledTime || null,
        estimatedDuration: form.estimatedDuration.trim() || null,
        assignedTo: form.assignedTo ? Number(form.assignedTo) : null,
        // Choosing completed also sends completedAt (staff-side §4).
        ...(form.status === "completed" && { completedAt: new Date().toISOString() }),
        version: task.version,
      }),
    () => {
      toast({ title: "Task Updated", description: `${task.title} is now ${STATUS_LABELS[form.status]}.` });
      refreshAll();
      onClose();
    },
    (error) => {
      if (error instanceof ApiError && error.status === 401) return;
      if (error instanceof ApiError && error.status === 400 && Object.keys(error.fields).length) return setErrors(error.fields);
      // Someone else saved first: nothing was written; show their values instead of what was typed here.
      const current = staleCurrent<TaskView>(error);
      if (current) {
        setTask((t) => ({ ...t, ...current }));
        setForm(taskForm({ ...task, ...current }));
        setStale(true);
        refreshAll();
        return;
      }
      toast({ title: "Update failed", description: error.message, variant: "destructive" });
    },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: Fields = {};
    // The server's rules, checked here first: 'scheduled' needs a date; a duration is whole minutes.
    if (form.status === "scheduled" && !form.scheduledDate) found.scheduledDate = "Choose a date to schedule the task";
    if (form.estimatedDuration.trim() && !(/^\d+$/.test(form.estimatedDuration.trim()) && Number(form.estimatedDuration) >= 1))
      found.estimatedDuration = "Duration must be a whole number of minutes";
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) return document.getElementById(`task-${first}`)?.focus();
    void update.run();
  };
  const error = (key: string) =>
    errors[key] ? (
      <p id={`task-${key}-error`} className="field-error">
        {errors[key]}
      </p>
    ) : null;
  const invalid = (key: string) => (errors[key] ? { "aria-invalid": true, "aria-describedby": `task-${key}-error` } : {});
  return (
    <Dialog title="Task Details" onClose={onClose}>
      <h3 className="text-lg font-semibold text-green-900">{task.title}</h3>
      <Details
        rows={[
          ["Property", `${task.propertyAddress} (${task.clientName})`],
          ["Plan", task.planType ? `${planLabel(task.planType)} service` : null],
          ["Hold", task.held ? HELD_LABEL : null],
          ["Date", task.scheduledDate ? longDateLabel(task.scheduledDate) : "Not scheduled yet"],
          ["Time", task.scheduledDate ? taskTime(task.scheduledTime) : null],
          ["Duration", formatDuration(task.estimatedDuration)],
          ["Assigned to", task.assignedTo ? (staff.find((s) => s.id === task.assignedTo)?.name ?? task.assignedToName ?? null) : "Nobody yet"],
          ["Category", labelOf(task.category)],
          ["Priority", labelOf(task.priority)],
          ["Description", task.description],
        ]}
      />
      <form className="mt-4 grid gap-3" onSubmit={submit} noValidate>
        {stale && (
          <p className="alert alert-danger" role="alert" data-stale-notice>
            {STALE_TASK_NOTICE}
          </p>
        )}
        <div className="field">
          <label htmlFor="task-status">Status</label>
          <select id="task-status" value={form.status} onChange={set("status")} {...invalid("status")}>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
          {error("status")}
        </div>
        <div className="mc-form-row">
          <div className="field">
            <label htmlFor="task-scheduledDate">Date</label>
            <input id="task-scheduledDate" type="date" value={form.scheduledDate} onChange={set("scheduledDate")} {...invalid("scheduledDate")} />
            {error("scheduledDate")}
          </div>
          <div className="field">
            <label htmlFor="task-scheduledTime">Time</label>
            <input id="task-scheduledTime" type="time" value={form.scheduledTime} onChange={set("scheduledTime")} {...invalid("scheduledTime")} />
            {error("scheduledTime")}
          </div>
        </div>
        <div className="mc-form-row">
          <div className="field">
            <label htmlFor="task-estimatedDuration">Duration (minutes)</label>
            <input id="task-estimatedDuration" type="number" min={1} step={1} inputMode="numeric" value={form.estimatedDuration} onChange={set("estimatedDuration")} placeholder="Optional" {...invalid("estimatedDuration")} />
            {error("estimatedDuration")}
          </div>
          <div className="field">
            <label htmlFor="task-assignedTo">Assigned to</label>
            <select id="task-assignedTo" value={form.assignedTo} onChange={set("assignedTo")} {...invalid("assignedTo")}>
              <option value="">Nobody</option>
              {staff.map((s) => (
                <option key={s.id} value={String(s.id)}>
                  {s.name}
                </option>
              ))}
            </select>
            {error("assignedTo")}
          </div>
        </div>
        <div className="field">
          <label htmlFor="task-notes">Notes</label>
          <textarea id="task-notes" rows={3} value={form.notes} onChange={set("notes")} maxLength={5000} {...invalid("notes")} />
          {error("notes")}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn btn-green" disabled={update.isPending}>
            {update.isPending ? "Updating..." : "Update Task"}
          </button>
          {task.scheduledDate && (
            <a className="btn btn-outline" href={`/api/maintenance-tasks/${task.id}/ics`} download={`haven-task-${task.id}.ics`}>
              Download .ics
            </a>
          )}
        </div>
      </form>
    </Dialog>
  );
}

/** The dates staff may move a booking to: the wizard's rule (at least 4 days ahead, within a year). */
interface CreatedSchedule {
  id: number;
  title: string;
  startDate: string;
  tasksCreated: number;
}

export type Fields = Record<string, string>;

export function CreateScheduleDialog({ today, enums, onClose, onCreated }: { today: string; enums: Enumerations; onClose: () => void; onCreated: (s: CreatedSchedule) => void }) {
  const [property, setProperty] = useState<PropertyRow | null>(null);
  const [form, setForm] = useState({
    title: "",
    description: "",
    category: "",
    priority: "medium",
    recurrenceType: "monthly",
    recurrenceInterval: "1",
    startDate: today,
    scheduledTime: "10:00",
    estimatedDuration: "",
  });
  const [errors, setErrors] = useState<Fields>({});
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const create = useWrite(
    () =>
      apiRequest<CreatedSchedule>("POST", "/api/maintenance-schedules", {
        propertyId: property?.id ?? null,
        title: form.title.trim(),
        description: form.description.trim() || null,
        category: form.category,
        priority: form.priority,
        estimatedDuration: form.estimatedDuration.trim() ? Number(form.estimatedDuration) : null,
        recurrenceType: form.recurrenceType,
        recurrenceInterval: Number(form.recurrenceInterval),
        startDate: form.startDate,
        scheduledTime: form.scheduledTime || null,
      }),
    (schedule) => {
      toast({ title: "Schedule Created", description: `${schedule.title}: ${schedule.tasksCreated} task(s) added to the calendar.` });
      refreshAll();
      onCreated(schedule);
    },
    (error) => {
      if (error instanceof ApiError && error.status === 400) return setErrors(error.fields);
      if (error instanceof ApiError && error.status === 401) return;
      toast({ title: "Could not create the schedule", description: error.message, variant: "destructive" });
    },
  );

  // The same rules as the server (staff-side §5), so most mistakes show before a round trip.
  const check = (): Fields => {
    const found: Fields = {};
    if (!property) found.propertyId = "Property is required";
    if (!form.category) found.category = "Category is required";
    if (!form.title.trim()) found.title = "Title is required";
    if (!form.startDate) found.startDate = "Start date is required";
    if (!/^\d+$/.test(form.recurrenceInterval) || Number(form.recurrenceInterval) < 1) found.recurrenceInterval = "Recurrence interval must be a whole number of at least 1";
    if (form.estimatedDuration.trim() && !(/^\d+$/.test(form.estimatedDuration.trim()) && Number(form.estimatedDuration) >= 1))
      found.estimatedDuration = "Duration must be a whole number of minutes";
    return found;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = check();
    setErrors(found);
    if (Object.keys(found).length) {
      const first = Object.keys(found)[0]!;
      document.getElementById(first === "propertyId" ? "schedule-property" : `schedule-${first}`)?.focus();
      return;
    }
    void create.run();
  };
  const error = (key: string) =>
    errors[key] ? (
      <p id={`schedule-${key}-error`} className="field-error">
        {errors[key]}
      </p>
    ) : null;
  const invalid = (key: string) => (errors[key] ? { "aria-invalid": true, "aria-describedby": `schedule-${key}-error` } : {});

  return (
    <Dialog title="Create Maintenance Schedule" onClose={onClose} wide>
      <form className="grid gap-4" onSubmit={submit} noValidate>
        <div id="schedule-property" tabIndex={-1} className="grid gap-1">
          <PropertyPicker selected={property} onSelect={setProperty} />
          {property && <p className="text-sm text-ink/75">Selected: {propertyLabel(property)}</p>}
          {error("propertyId")}
        </div>
        <div className="field">
          <label htmlFor="schedule-title">Title</label>
          <input id="schedule-title" value={form.title} onChange={set("title")} maxLength={200} placeholder="Furnace filter change" {...invalid("title")} />
          {error("title")}
        </div>
        <div className="field">
          <label htmlFor="schedule-description">Description</label>
          <textarea id="schedule-description" rows={2} value={form.description} onChange={set("description")} maxLength={2000} />
        </div>
        <div className="mc-form-row">
          <div className="field">
            <label htmlFor="schedule-category">Category</label>
            <select id="schedule-category" value={form.category} onChange={set("category")} {...invalid("category")}>
              <option value="">Select a category</option>
              {enums.categories.map((c) => (
                <option key={c} value={c}>
                  {labelOf(c)}
                </option>
              ))}
            </select>
            {error("category")}
          </div>
          <div className="field">
            <label htmlFor="schedule-priority">Priority</label>
            <select id="schedule-priority" value={form.priority} onChange={set("priority")}>
              {enums.priorities.map((p) => (
                <option key={p} value={p}>
                  {labelOf(p)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="mc-form-row">
          <div className="field">
            <label htmlFor="schedule-recurrenceType">Recurrence</label>
            <select id="schedule-recurrenceType" value={form.recurrenceType} onChange={set("recurrenceType")}>
              {enums.recurrences.map((r) => (
                <option key={r} value={r}>
                  {RECURRENCE_LABELS[r as keyof typeof RECURRENCE_LABELS] ?? labelOf(r)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="schedule-recurrenceInterval">Repeat every (interval)</label>
            <input id="schedule-recurrenceInterval" type="number" min={1} step={1} inputMode="numeric" value={form.recurrenceInterval} onChange={set("recurrenceInterval")} {...invalid("recurrenceInterval")} />
            {error("recurrenceInterval")}
          </div>
        </div>
        <div className="mc-form-row">
          <div className="field">
            <label htmlFor="schedule-startDate">Start date</label>
            <input id="schedule-startDate" type="date" value={form.startDate} onChange={set("startDate")} {...invalid("startDate")} />
            {error("startDate")}
          </div>
          <div className="field">
            <label htmlFor="schedule-scheduledTime">Time</label>
            <input id="schedule-scheduledTime" type="time" value={form.scheduledTime} onChange={set("scheduledTime")} {...invalid("scheduledTime")} />
            {error("scheduledTime")}
          </div>
        </div>
        <div className="mc-form-row">
          <div className="field">
            <label htmlFor="schedule-estimatedDuration">Estimated duration (minutes)</label>
            <input id="schedule-estimatedDuration" type="number" min={1} step={1} inputMode="numeric" value={form.estimatedDuration} onChange={set("estimatedDuration")} placeholder="Optional" {...invalid("estimatedDuration")} />
            {error("estimatedDuration")}
          </div>
        </div>
        <div className="flex justify-end gap-3">
          <button type="button" className="btn btn-outline" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-gold" disabled={create.isPending}>
            {create.isPending ? "Booking..." : "Book Task"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
