import { type FormEvent, useState } from "react";
import {
  type CalendarBooking,
  RECURRENCE_LABELS,
  STATUS_LABELS,
  type TaskStatus,
  bookingTime,
  formatDuration,
  labelOf,
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
  /** The task's version when it was read: sent back so a stale edit is refused (409), never applied. */
  version: number;
  propertyAddress: string;
  clientName: string;
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
}

/** A write's state: pending while it runs; `run` resolves after success or failure handling. */
function useWrite<T>(send: () => Promise<T>, onSuccess: (result: T) => void, onError: (error: Error) => void) {
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

export function TaskDialog({ task: opened, statuses, onClose }: { task: TaskView; statuses: readonly TaskStatus[]; onClose: () => void }) {
  // The task as last read: the opened one, or the fresh one a stale save brought back.
  const [task, setTask] = useState(opened);
  const [status, setStatus] = useState<TaskStatus>(opened.status);
  const [notes, setNotes] = useState(opened.notes ?? "");
  const [stale, setStale] = useState(false);
  const update = useWrite(
    () =>
      apiRequest("PATCH", `/api/maintenance-tasks/${task.id}`, {
        id: task.id,
        status,
        notes: notes.trim() || null,
        // Choosing completed also sends completedAt (staff-side §4).
        ...(status === "completed" && { completedAt: new Date().toISOString() }),
        version: task.version,
      }),
    () => {
      toast({ title: "Task Updated", description: `${task.title} is now ${STATUS_LABELS[status]}.` });
      refreshAll();
      onClose();
    },
    (error) => {
      if (error instanceof ApiError && error.status === 401) return;
      // Someone else saved first: nothing was written; show their values instead of what was typed here.
      const current = staleCurrent<TaskView>(error);
      if (current) {
        setTask((t) => ({ ...t, ...current }));
        setStatus(current.status);
        setNotes(current.notes ?? "");
        setStale(true);
        refreshAll();
        return;
      }
      toast({ title: "Update failed", description: error.message, variant: "destructive" });
    },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void update.run();
  };
  return (
    <Dialog title="Task Details" onClose={onClose}>
      <h3 className="text-lg font-semibold text-green-900">{task.title}</h3>
      <Details
        rows={[
          ["Property", `${task.propertyAddress} (${task.clientName})`],
          ["Date", task.scheduledDate ? longDateLabel(task.scheduledDate) : "Not scheduled yet"],
          ["Time", task.scheduledDate ? taskTime(task.scheduledTime) : null],
          ["Duration", formatDuration(task.estimatedDuration)],
          ["Category", labelOf(task.category)],
          ["Priority", labelOf(task.priority)],
          ["Description", task.description],
        ]}
      />
      <form className="mt-4 grid gap-3" onSubmit={submit}>
        {stale && (
          <p className="alert alert-danger" role="alert" data-stale-notice>
            {STALE_TASK_NOTICE}
          </p>
        )}
        <div className="field">
          <label htmlFor="task-status">Status</label>
          <select id="task-status" value={status} onChange={(e) => setStatus(e.target.value as TaskStatus)}>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="task-notes">Notes</label>
          <textarea id="task-notes" rows={3} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={5000} />
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

export function BookingDialog({ booking, onClose }: { booking: CalendarBooking; onClose: () => void }) {
  const time = bookingTime(booking.timeSlot);
  return (
    <Dialog title="Inspection Booking Details" onClose={onClose}>
      <h3 className="text-lg font-semibold text-green-900">Inspection at {booking.propertyAddress}</h3>
      <Details
        rows={[
          ["Client", booking.clientName],
          ["Email", <a key="e" className="link" href={`mailto:${booking.clientEmail}`}>{booking.clientEmail}</a>],
          ["Phone", booking.clientPhone],
          ["Property", [booking.propertyAddress, booking.city].filter(Boolean).join(", ")],
          ["Date", longDateLabel(booking.scheduledDate)],
          ["Time", time === booking.timeSlot ? time : `${time} (${labelOf(booking.timeSlot)})`],
          // Booking status defaults to display 'Pending' (staff-side §4).
          ["Status", labelOf(booking.status) || "Pending"],
          ["Access", booking.accessMethod ? labelOf(booking.accessMethod.replace(/-/g, "_")) : null],
          ["Special requests", booking.specialRequests],
          ["Notes", booking.notes],
        ]}
      />
    </Dialog>
  );
}

interface CreatedSchedule {
  id: number;
  title: string;
  startDate: string;
  tasksCreated: number;
}

type Fields = Record<string, string>;

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
