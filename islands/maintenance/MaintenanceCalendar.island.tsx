import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import {
  type CalendarBooking,
  type CalendarMonth,
  HELD_LABEL,
  planLabel,
} from "../../src/modules/maintenance/maintenance.constants";
import { PLAN_VISIT_WINDOW, windowLabel } from "../../src/shared/business-time";
import { ApiError } from "../ui/api";
import type { BookingWindow } from "./BookingDialog";
import { type Item, PREVIEW_PER_DAY, byDate } from "./calendar-items";
import { useData } from "../ui/data";
import { type LazyPart, lazyPart, useLazy, usePreloadOnTouch } from "../ui/lazy";
import { MonthAgenda } from "./DayItems";
import { MonthGrid, keyTarget } from "./MonthGrid";
import { monthLabel, monthOf, monthWeeks, shiftMonth } from "./month-grid";
import type { Enumerations, TaskView } from "./types";

// The month on screen is all first paint shows: the dialogs and the List view come in chunks of their own, fetched
// from the first pointer or focus on the calendar, so one is usually here by the time it opens (docs/decisions.md#79).
const taskDialog = lazyPart(() => import("./TaskDialog").then((m) => m.TaskDialog));
const bookingDialog = lazyPart(() => import("./BookingDialog").then((m) => m.BookingDialog));
const createDialog = lazyPart(() => import("./CreateScheduleDialog").then((m) => m.CreateScheduleDialog));
const taskList = lazyPart(() => import("./TaskList").then((m) => m.TaskList));
const dayDialog = lazyPart(() => import("./DayDialog").then((m) => m.DayDialog));
const PARTS: LazyPart<unknown>[] = [taskDialog, bookingDialog, createDialog, taskList, dayDialog];

interface Props extends Enumerations {
  today: string;
  bookingWindow: BookingWindow;
  /** Whether the signed-in role may create schedules (an inspector may not; docs/decisions.md#36). */
  canSchedule?: boolean;
  /** Whether it may reschedule, cancel and reassign bookings (not an inspector; docs/decisions.md#36). */
  canChangeBookings?: boolean;
  /** Whether it may export the task list as CSV (not an inspector). */
  canExport?: boolean;
}

type View = "calendar" | "list";

function Toolbar({
  view,
  onView,
  onCreate,
}: {
  view: View;
  onView: (view: View) => void;
  onCreate: (() => void) | null;
}) {
  return (
    <div className="mc-toolbar">
      <h1 className="font-serif text-2xl font-bold text-green-900 md:text-3xl">Maintenance Schedule</h1>
      <div className="flex flex-wrap items-center gap-2">
        <div className="mc-toggle">
          <button type="button" aria-pressed={view === "calendar"} onClick={() => onView("calendar")}>
            Calendar
          </button>
          <button type="button" aria-pressed={view === "list"} onClick={() => onView("list")}>
            List
          </button>
        </div>
        {onCreate && (
          <button type="button" className="btn btn-gold btn-sm" onClick={onCreate}>
            Create Schedule
          </button>
        )}
      </div>
    </div>
  );
}

function MonthNav({
  month,
  onShowMonth,
  onToday,
}: {
  month: string;
  onShowMonth: (month: string) => void;
  onToday: () => void;
}) {
  return (
    <div className="mc-nav">
      <button type="button" className="btn btn-outline btn-sm" onClick={() => onShowMonth(shiftMonth(month, -1))}>
        <span aria-hidden="true">‹</span> Previous<span className="sr-only"> month</span>
      </button>
      <h2 id="mc-month" className="mc-month" aria-live="polite">
        {monthLabel(month)}
      </h2>
      <button type="button" className="btn btn-outline btn-sm" onClick={() => onShowMonth(shiftMonth(month, 1))}>
        Next<span className="sr-only"> month</span> <span aria-hidden="true">›</span>
      </button>
      <button type="button" className="btn btn-green btn-sm" onClick={onToday}>
        Today
      </button>
    </div>
  );
}

/** What the calendar's colours mean (plans, bookings, held visits), and the times windows stand for. */
function Legend() {
  return (
    <ul className="mc-legend" aria-label="Calendar legend" data-testid="mc-legend">
      {(["basic", "standard", "premium"] as const).map((plan) => (
        <li key={plan}>
          <span className="mc-swatch" data-plan={plan} aria-hidden="true" />
          {planLabel(plan)} visit
        </li>
      ))}
      <li>
        <span className="mc-swatch" aria-hidden="true" />
        Other task
      </li>
      <li>
        <span className="mc-swatch" data-kind="booking" aria-hidden="true" />
        Inspection (border: its inspector; dashed: none yet)
      </li>
      <li>
        <span className="mc-swatch" data-held aria-hidden="true" />
        {HELD_LABEL}
      </li>
      <li className="mc-legend-note">
        Plan visits without a set time show their window,{" "}
        <span className="mc-window">{windowLabel(PLAN_VISIT_WINDOW.start, PLAN_VISIT_WINDOW.end)}</span>.
      </li>
    </ul>
  );
}

export default function MaintenanceCalendar({
  today,
  bookingWindow,
  canSchedule = true,
  canChangeBookings = true,
  canExport = true,
  ...enums
}: Props) {
  const [view, setView] = useState<View>("calendar");
  const [month, setMonth] = useState(monthOf(today));
  const [focused, setFocused] = useState(today);
  const [dayOpen, setDayOpen] = useState<string | null>(null);
  const [task, setTask] = useState<TaskView | null>(null);
  const [booking, setBooking] = useState<CalendarBooking | null>(null);
  const [creating, setCreating] = useState(false);
  const moveFocus = useRef(false);
  const grid = useRef<HTMLTableElement>(null);
  const root = useRef<HTMLDivElement>(null);
  usePreloadOnTouch(root, PARTS);
  const TaskDialog = useLazy(taskDialog, task !== null);
  const BookingDialog = useLazy(bookingDialog, booking !== null);
  const CreateScheduleDialog = useLazy(createDialog, creating);
  const TaskList = useLazy(taskList, view === "list");
  const DayDialog = useLazy(dayDialog, dayOpen !== null);

  const weeks = useMemo(() => monthWeeks(month), [month]);
  const from = weeks[0]![0]!;
  const to = weeks.at(-1)!.at(-1)!;
  const calendar = useData<CalendarMonth>(`/api/maintenance-calendar?from=${from}&to=${to}&perDay=${PREVIEW_PER_DAY}`);
  const days = useMemo(() => byDate(calendar.data), [calendar.data]);
  /** A day's full number of items: its tasks (counted on the server) and its bookings. */
  const totalOn = (date: string) => {
    const items = days.get(date) ?? [];
    return (calendar.data?.taskCounts[date] ?? 0) + items.filter((i) => i.kind === "booking").length;
  };

  // After a key press the focused cell follows the roving tabindex.
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLElement>(`[data-date="${focused}"]`)?.focus();
  }, [focused]);

  const goTo = (date: string, focus = false) => {
    moveFocus.current = focus;
    setFocused(date);
    if (monthOf(date) !== month) setMonth(monthOf(date));
  };
  const showMonth = (next: string) => {
    setMonth(next);
    setFocused(monthOf(focused) === next ? focused : `${next}-01`);
  };
  const onCellKey = (e: KeyboardEvent, date: string) => {
    const next = keyTarget(e.key, date);
    if (next) {
      e.preventDefault();
      goTo(next, true);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      setDayOpen(date);
    }
  };
  // The newest record of each task this page has saved (or been refused with): until the calendar and the list have
  // fetched again, they still show the copy from before, and a task opened again must start from what was saved, not
  // from that copy (its older values and version, which the server would refuse as someone else's change).
  const fresh = useRef(new Map<number, TaskView>());
  const openTask = (shown: TaskView) => {
    const newer = fresh.current.get(shown.id);
    setTask(newer && newer.version > shown.version ? { ...shown, ...newer } : shown);
  };
  const open = (item: Item) => {
    setDayOpen(null);
    if (item.kind === "task") openTask(item.task);
    else setBooking(item.booking);
  };

  const error =
    calendar.error instanceof ApiError
      ? calendar.error.message
      : calendar.error
        ? "Could not load the calendar."
        : null;
  // What the grid and the phone's agenda both show.
  const monthView = { month, today, days, totalOn, loading: calendar.isPending, onOpen: open, onOpenDay: setDayOpen };

  return (
    <div className="mc" ref={root}>
      <Toolbar view={view} onView={setView} onCreate={canSchedule ? () => setCreating(true) : null} />
      {view === "calendar" ? (
        <section aria-labelledby="mc-month">
          <MonthNav month={month} onShowMonth={showMonth} onToday={() => goTo(today)} />
          {error && (
            <p className="alert alert-danger" role="alert">
              {error}
            </p>
          )}
          {calendar.isPending && (
            <p className="text-ink/75" role="status">
              Loading…
            </p>
          )}
          <MonthGrid
            {...monthView}
            weeks={weeks}
            focused={focused}
            gridRef={grid}
            onCellKey={onCellKey}
            onCellFocus={setFocused}
          />
          <p id="mc-grid-help" className="mc-help">
            Arrow keys move between days, Page Up and Page Down between months; Enter lists the day's items.
          </p>
          <Legend />
          <MonthAgenda {...monthView} dates={weeks.flat().filter((d) => monthOf(d) === month && days.has(d))} />
        </section>
      ) : TaskList ? (
        <TaskList onOpen={openTask} enums={enums} canExport={canExport} />
      ) : (
        <p className="text-ink/75" role="status">
          Loading…
        </p>
      )}

      {dayOpen && DayDialog && <DayDialog date={dayOpen} onClose={() => setDayOpen(null)} onOpen={open} />}
      {task && TaskDialog && (
        <TaskDialog
          task={task}
          statuses={enums.statuses}
          staff={enums.staff}
          onClose={() => setTask(null)}
          onFresh={(t) => fresh.current.set(t.id, t)}
        />
      )}
      {booking && BookingDialog && (
        <BookingDialog
          booking={booking}
          window={bookingWindow}
          canChange={canChangeBookings}
          onClose={() => setBooking(null)}
        />
      )}
      {creating && CreateScheduleDialog && (
        <CreateScheduleDialog
          today={today}
          enums={enums}
          onClose={() => setCreating(false)}
          onCreated={(schedule) => {
            setCreating(false);
            setView("calendar");
            goTo(schedule.startDate);
          }}
        />
      )}
    </div>
  );
}
