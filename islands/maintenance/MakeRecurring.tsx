import { useId, useState } from "react";
import {
  RECURRENCE_LABELS,
  RECURRENCE_TYPES,
  type RecurrenceType,
} from "../../src/modules/maintenance/maintenance.constants";
import { ApiError, apiRequest } from "../ui/api";
import { toast } from "../ui/toast";

/**
 * 'Make recurring' for a recommendation (its id is its maintenance task's): one step turns a 'Monitor'
 * finding into a recurring schedule of the property (quarterly unless chosen otherwise), starting today.
 * Used by the report viewer (islands/reports); the server copies the task's title, category and priority.
 */
export function MakeRecurring({ taskId, label }: { taskId: number; label: string }) {
  const id = useId();
  const [recurrence, setRecurrence] = useState<RecurrenceType>("quarterly");
  const [state, setState] = useState<"idle" | "saving" | "done">("idle");
  const submit = async () => {
    setState("saving");
    try {
      const schedule = await apiRequest<{ tasksCreated: number }>("POST", "/api/maintenance-schedules", {
        fromTaskId: taskId,
        recurrenceType: recurrence,
      });
      toast({
        title: "Schedule Created",
        description: `${label}: ${RECURRENCE_LABELS[recurrence].toLowerCase()} check, ${schedule.tasksCreated} task(s) on the calendar.`,
      });
      setState("done");
    } catch (error) {
      setState("idle");
      if (error instanceof ApiError && error.status === 401) return;
      toast({
        title: "Could not create the schedule",
        description: error instanceof Error ? error.message : String(error),
        variant: "destructive",
      });
    }
  };
  if (state === "done")
    return (
      <p className="text-sm font-semibold text-green-800" role="status">
        Recurring check scheduled.{" "}
        <a className="link" href="/admin/maintenance-schedule">
          Open the calendar
        </a>
      </p>
    );
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2">
      <label htmlFor={`${id}-recurrence`} className="text-sm font-semibold">
        Repeat
      </label>
      <select
        id={`${id}-recurrence`}
        className="rounded-md border border-ink/30 px-2 py-1 text-sm"
        value={recurrence}
        onChange={(e) => setRecurrence(e.target.value as RecurrenceType)}
      >
        {RECURRENCE_TYPES.map((r) => (
          <option key={r} value={r}>
            {RECURRENCE_LABELS[r]}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn-outline btn-sm" onClick={submit} disabled={state === "saving"}>
        {state === "saving" ? "Scheduling..." : "Make recurring"}
      </button>
    </div>
  );
}
