// The calendar's Task Details dialog (MaintenanceCalendar.island.tsx): the task's facts, and its status, date,
// time, duration, assignee and notes changed in one save that a newer edit by someone else refuses.
import { type FormEvent, useState } from "react";
import {
  HELD_LABEL,
  STATUS_LABELS,
  type TaskStatus,
  clockToInput,
  formatDuration,
  labelOf,
  planLabel,
  taskTime,
} from "../../src/modules/maintenance/maintenance.constants";
import { ApiError, apiRequest } from "../ui/api";
import { toast } from "../ui/toast";
import { refresh, useSubmission } from "../ui/data";
import { Details, Dialog } from "./Dialog";
import { InputField, SelectField, TextAreaField, WHOLE_NUMBER, bindFields } from "./form-fields";
import { longDateLabel } from "./month-grid";
import type { FieldSetter, Fields, StaffOption, TaskView } from "./types";

/** Shown in the dialog when the task changed since it was opened (a 409 that carries the fresh task). */
const STALE_TASK_NOTICE =
  "This task was changed by someone else. The latest values are shown; review them and save again.";

/** The fresh record of a 409 `{message, current}` answer, or null for any other failure. */
function staleCurrent<T>(error: Error): T | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    return (JSON.parse(error.body) as { current?: T }).current ?? null;
  } catch {
    return null;
  }
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
type TaskForm = ReturnType<typeof taskForm>;

/** The server's rules, checked here first: 'scheduled' needs a date; a duration is whole minutes. */
function taskProblems(form: TaskForm): Fields {
  const found: Fields = {};
  if (form.status === "scheduled" && !form.scheduledDate) found.scheduledDate = "Choose a date to schedule the task";
  if (
    form.estimatedDuration.trim() &&
    !(/^\d+$/.test(form.estimatedDuration.trim()) && Number(form.estimatedDuration) >= 1)
  )
    found.estimatedDuration = "Duration must be a whole number of minutes";
  return found;
}

function TaskFacts({ task, staff }: { task: TaskView; staff: readonly StaffOption[] }) {
  return (
    <Details
      rows={[
        ["Property", `${task.propertyAddress} (${task.clientName})`],
        ["Plan", task.planType ? `${planLabel(task.planType)} service` : null],
        ["Hold", task.held ? HELD_LABEL : null],
        ["Date", task.scheduledDate ? longDateLabel(task.scheduledDate) : "Not scheduled yet"],
        ["Time", task.scheduledDate ? taskTime(task.scheduledTime) : null],
        ["Duration", formatDuration(task.estimatedDuration)],
        [
          "Assigned to",
          task.assignedTo
            ? (staff.find((s) => s.id === task.assignedTo)?.name ?? task.assignedToName ?? null)
            : "Nobody yet",
        ],
        ["Category", labelOf(task.category)],
        ["Priority", labelOf(task.priority)],
        ["Description", task.description],
      ]}
    />
  );
}

interface TaskFieldsProps {
  form: TaskForm;
  set: FieldSetter<keyof TaskForm>;
  errors: Fields;
  statuses: readonly TaskStatus[];
  staff: readonly StaffOption[];
}

function TaskFields({ form, set, errors, statuses, staff }: TaskFieldsProps) {
  const field = bindFields("task", form, set, errors);
  return (
    <>
      <SelectField label="Status" field={field("status")} options={statuses.map((s) => [s, STATUS_LABELS[s]])} />
      <div className="mc-form-row">
        <InputField label="Date" field={field("scheduledDate")} type="date" />
        <InputField label="Time" field={field("scheduledTime")} type="time" />
      </div>
      <div className="mc-form-row">
        <InputField
          label="Duration (minutes)"
          field={field("estimatedDuration")}
          {...WHOLE_NUMBER}
          placeholder="Optional"
        />
        <SelectField
          label="Assigned to"
          field={field("assignedTo")}
          empty="Nobody"
          options={staff.map((s) => [String(s.id), s.name])}
        />
      </div>
      <TextAreaField label="Notes" field={field("notes")} rows={3} maxLength={5000} />
    </>
  );
}

interface TaskDialogProps {
  task: TaskView;
  statuses: readonly TaskStatus[];
  staff: readonly StaffOption[];
  onClose: () => void;
  /** A newer record of the task than the one it opened with: what a save answered, or someone else's (409). */
  onFresh?: (task: TaskView) => void;
}

export function TaskDialog({ task: opened, statuses, staff, onClose, onFresh }: TaskDialogProps) {
  // The task as last read: the opened one, or the fresh one a stale save brought back.
  const [task, setTask] = useState(opened);
  const [form, setForm] = useState(() => taskForm(opened));
  const [errors, setErrors] = useState<Fields>({});
  const [stale, setStale] = useState(false);
  const set: FieldSetter<keyof TaskForm> = (key) => (e) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const update = useSubmission(
    () =>
      apiRequest<Partial<TaskView>>("PATCH", `/api/maintenance-tasks/${task.id}`, {
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
    {
      onSuccess: (saved) => {
        onFresh?.({ ...task, ...saved });
        toast({ title: "Task Updated", description: `${task.title} is now ${STATUS_LABELS[form.status]}.` });
        void refresh();
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) return;
        if (error instanceof ApiError && error.status === 400 && Object.keys(error.fields).length)
          return setErrors(error.fields);
        // Someone else saved first: nothing was written; show their values instead of what was typed here.
        const current = staleCurrent<TaskView>(error);
        if (current) {
          onFresh?.({ ...task, ...current });
          setTask((t) => ({ ...t, ...current }));
          setForm(taskForm({ ...task, ...current }));
          setStale(true);
          void refresh();
          return;
        }
        toast({ title: "Update failed", description: error.message, variant: "destructive" });
      },
    },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = taskProblems(form);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) return document.getElementById(`task-${first}`)?.focus();
    void update.mutate();
  };
  return (
    <Dialog title="Task Details" onClose={onClose}>
      <h3 className="text-lg font-semibold text-green-900">{task.title}</h3>
      <TaskFacts task={task} staff={staff} />
      <form className="mt-4 grid gap-3" onSubmit={submit} noValidate>
        {stale && (
          <p className="alert alert-danger" role="alert" data-stale-notice>
            {STALE_TASK_NOTICE}
          </p>
        )}
        <TaskFields form={form} set={set} errors={errors} statuses={statuses} staff={staff} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn btn-green" disabled={update.isPending}>
            {update.isPending ? "Updating..." : "Update Task"}
          </button>
          {task.scheduledDate && (
            <a
              className="btn btn-outline"
              href={`/api/maintenance-tasks/${task.id}/ics`}
              download={`haven-task-${task.id}.ics`}
            >
              Download .ics
            </a>
          )}
        </div>
      </form>
    </Dialog>
  );
}
