// The calendar's 'Create Schedule' dialog (MaintenanceCalendar.island.tsx): a recurring task for a property,
// whose first tasks the server adds to the calendar at once.
import { type FormEvent, useState } from "react";
import { RECURRENCE_LABELS, labelOf } from "../../src/modules/maintenance/maintenance.constants";
import { PropertyPicker, type PropertyRow, propertyLabel } from "../inspections/PropertyPicker";
import { ApiError, apiRequest } from "../ui/api";
import { toast } from "../ui/toast";
import { refresh, useSubmission } from "../ui/data";
import { Dialog } from "./Dialog";
import { fieldErrors } from "./field-errors";
import { InputField, SelectField, TextAreaField, WHOLE_NUMBER, bindFields } from "./form-fields";
import type { Enumerations, FieldSetter, Fields } from "./types";

export interface CreatedSchedule {
  id: number;
  title: string;
  startDate: string;
  tasksCreated: number;
}

const emptySchedule = (today: string) => ({
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
type ScheduleForm = ReturnType<typeof emptySchedule>;

// The same rules as the server (staff-side §5), so most mistakes show before a round trip.
function scheduleProblems(form: ScheduleForm, property: PropertyRow | null): Fields {
  const found: Fields = {};
  if (!property) found.propertyId = "Property is required";
  if (!form.category) found.category = "Category is required";
  if (!form.title.trim()) found.title = "Title is required";
  if (!form.startDate) found.startDate = "Start date is required";
  if (!/^\d+$/.test(form.recurrenceInterval) || Number(form.recurrenceInterval) < 1)
    found.recurrenceInterval = "Recurrence interval must be a whole number of at least 1";
  if (
    form.estimatedDuration.trim() &&
    !(/^\d+$/.test(form.estimatedDuration.trim()) && Number(form.estimatedDuration) >= 1)
  )
    found.estimatedDuration = "Duration must be a whole number of minutes";
  return found;
}

interface ScheduleFieldsProps {
  form: ScheduleForm;
  set: FieldSetter<keyof ScheduleForm>;
  errors: Fields;
  enums: Enumerations;
}

/** What is to be done: title, description, category and priority. */
function TaskDescriptionFields({ form, set, errors, enums }: ScheduleFieldsProps) {
  const field = bindFields("schedule", form, set, errors);
  return (
    <>
      <InputField label="Title" field={field("title")} maxLength={200} placeholder="Furnace filter change" />
      <TextAreaField label="Description" field={field("description", false)} rows={2} maxLength={2000} />
      <div className="mc-form-row">
        <SelectField
          label="Category"
          field={field("category")}
          empty="Select a category"
          options={enums.categories.map((c) => [c, labelOf(c)])}
        />
        <SelectField
          label="Priority"
          field={field("priority", false)}
          options={enums.priorities.map((p) => [p, labelOf(p)])}
        />
      </div>
    </>
  );
}

/** When it recurs: every how many of which period, from which date, at what time, for how long. */
function RecurrenceFields({ form, set, errors, enums }: ScheduleFieldsProps) {
  const field = bindFields("schedule", form, set, errors);
  return (
    <>
      <div className="mc-form-row">
        <SelectField
          label="Recurrence"
          field={field("recurrenceType", false)}
          options={enums.recurrences.map((r) => [
            r,
            RECURRENCE_LABELS[r as keyof typeof RECURRENCE_LABELS] ?? labelOf(r),
          ])}
        />
        <InputField label="Repeat every (interval)" field={field("recurrenceInterval")} {...WHOLE_NUMBER} />
      </div>
      <div className="mc-form-row">
        <InputField label="Start date" field={field("startDate")} type="date" />
        <InputField label="Time" field={field("scheduledTime")} type="time" />
      </div>
      <div className="mc-form-row">
        <InputField
          label="Estimated duration (minutes)"
          field={field("estimatedDuration")}
          {...WHOLE_NUMBER}
          placeholder="Optional"
        />
      </div>
    </>
  );
}

interface CreateScheduleDialogProps {
  today: string;
  enums: Enumerations;
  onClose: () => void;
  onCreated: (schedule: CreatedSchedule) => void;
}

export function CreateScheduleDialog({ today, enums, onClose, onCreated }: CreateScheduleDialogProps) {
  const [property, setProperty] = useState<PropertyRow | null>(null);
  const [form, setForm] = useState(() => emptySchedule(today));
  const [errors, setErrors] = useState<Fields>({});
  const set: FieldSetter<keyof ScheduleForm> = (key) => (e) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const create = useSubmission(
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
    {
      onSuccess: (schedule) => {
        toast({
          title: "Schedule Created",
          description: `${schedule.title}: ${schedule.tasksCreated} task(s) added to the calendar.`,
        });
        void refresh();
        onCreated(schedule);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) return setErrors(error.fields);
        if (error instanceof ApiError && error.status === 401) return;
        toast({ title: "Could not create the schedule", description: error.message, variant: "destructive" });
      },
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = scheduleProblems(form, property);
    setErrors(found);
    if (Object.keys(found).length) {
      const first = Object.keys(found)[0]!;
      document.getElementById(first === "propertyId" ? "schedule-property" : `schedule-${first}`)?.focus();
      return;
    }
    void create.mutate();
  };

  return (
    <Dialog title="Create Maintenance Schedule" onClose={onClose} wide>
      <form className="grid gap-4" onSubmit={submit} noValidate>
        <div id="schedule-property" tabIndex={-1} className="grid gap-1">
          <PropertyPicker selected={property} onSelect={setProperty} />
          {property && <p className="text-sm text-ink/75">Selected: {propertyLabel(property)}</p>}
          {fieldErrors(errors, "schedule").error("propertyId")}
        </div>
        <TaskDescriptionFields form={form} set={set} errors={errors} enums={enums} />
        <RecurrenceFields form={form} set={set} errors={errors} enums={enums} />
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
