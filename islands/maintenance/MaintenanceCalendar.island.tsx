import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import {
  type CalendarBooking,
  type CalendarMonth,
  type CalendarTask,
  HELD_LABEL,
  bookingTime,
  formatDuration,
  labelOf,
  planLabel,
  taskTime,
} from "../../src/modules/maintenance/maintenance.constants";
import { ApiError } from "../ui/api";
import { useJson } from "./data";
import { Dialog } from "./Dialog";
import { BookingDialog, type BookingWindow } from "./BookingDialog";
import { CreateScheduleDialog, type Enumerations, TaskDialog, type TaskView } from "./dialogs";
import { TaskList } from "./TaskList";
import { WEEKDAYS, longDateLabel, minutesOf, monthLabel, monthOf, monthWeeks, shiftDate, shiftDateByMonths, shiftMonth, shortDateLabel, weekEnd, weekStart } from "./month-grid";

interface Props extends Enumerations {
  today: string;
  bookingWindow: BookingWindow;
}

type Item = { kind: "task"; time: string; task: CalendarTask } | { kind: "booking"; time: string; booking: CalendarBooking };

/** A cell shows at most this many items, then '+n more' (staff-side §2). */
const CELL_ITEMS = 2;
/** The month asks for each day's first tasks only (10,000 in a month stay light); a day dialog asks for all. */
const PREVIEW_PER_DAY = 3;

const itemKey = (item: Item) => (item.kind === "task" ? `t${item.task.id}` : `b${item.booking.id}`);
const itemTitle = (item: Item) => (item.kind === "task" ? item.task.title : `Inspection: ${item.booking.propertyAddress}`);
/** The property beside a task's title in a cell: its street line, cut at the first comma (issue 18). */
const shortAddress = (address: string) => address.split(",")[0]!.trim();
/** What a screen reader hears after an event's visible time, title and property. */
const itemExtra = (item: Item) =>
  item.kind === "task"
    ? `, ${formatDuration(item.task.estimatedDuration)}${item.task.planType ? `, ${planLabel(item.task.planType)}` : ""}`
    : `, inspection booking for ${item.booking.clientName}`;
/** A plan service's task carries its plan's colour; a held one is marked (DESIGN.md decision 27). */
const planData = (item: Item) => (item.kind === "task" ? { "data-plan": item.task.planType ?? undefined, "data-held": item.task.held || undefined } : {});

/** The calendar's items by date, each day ordered by time (tasks 10:00 AM and bookings 09:00 AM by default). */
function byDate(data: CalendarMonth | undefined): Map<string, Item[]> {
  const days = new Map<string, Item[]>();
  if (!data) return days;
  for (const date of Object.keys(data.taskCounts ?? {})) days.set(date, []);
  const add = (date: string, item: Item) => {
    const list = days.get(date);
    if (list) list.push(item);
    else days.set(date, [item]);
  };
  for (const booking of data.bookings) add(booking.scheduledDate, { kind: "booking", time: bookingTime(booking.timeSlot), booking });
  for (const task of data.tasks) add(task.scheduledDate, { kind: "task", time: taskTime(task.scheduledTime), task });
  for (const list of days.values()) list.sort((a, b) => minutesOf(a.time) - minutesOf(b.time));
  return days;
}

/** Where a key moves the grid's focus from `date` (the ARIA grid pattern), or null for other keys. */
function keyTarget(key: string, date: string): string | null {
  switch (key) {
    case "ArrowLeft":
      return shiftDate(date, -1);
    case "ArrowRight":
      return shiftDate(date, 1);
    case "ArrowUp":
      return shiftDate(date, -7);
    case "ArrowDown":
      return shiftDate(date, 7);
    case "Home":
      return weekStart(date);
    case "End":
      return weekEnd(date);
    case "PageUp":
      return shiftDateByMonths(date, -1);
    case "PageDown":
      return shiftDateByMonths(date, 1);
    default:
      return null;
  }
}

export default function MaintenanceCalendar({ today, bookingWindow, ...enums }: Props) {
  const [view, setView] = useState<"calendar" | "list">("calendar");
  const [month, setMonth] = useState(monthOf(today));
  const [focused, setFocused] = useState(today);
  const [dayOpen, setDayOpen] = useState<string | null>(null);
  const [task, setTask] = useState<TaskView | null>(null);
  const [booking, setBooking] = useState<CalendarBooking | null>(null);
  const [creating, setCreating] = useState(false);
  const moveFocus = useRef(false);
  const grid = useRef<HTMLTableElement>(null);

  const weeks = useMemo(() => monthWeeks(month), [month]);
  const from = weeks[0]![0]!;
  const to = weeks.at(-1)!.at(-1)!;
  const calendar = useJson<CalendarMonth>(`/api/maintenance-calendar?from=${from}&to=${to}&perDay=${PREVIEW_PER_DAY}`);
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

  const open = (item: Item) => {
    setDayOpen(null);
    if (item.kind === "task") setTask(item.task);
    else setBooking(item.booking);
  };

  const error = calendar.error instanceof ApiError ? calendar.error.message : calendar.error ? "Could not load the calendar." : null;
  const monthDays = weeks.flat().filter((d) => monthOf(d) === month && days.has(d));

  return (
    <div className="mc">
      <div className="mc-toolbar">
        <h1 className="font-serif text-2xl font-bold text-green-900 md:text-3xl">Maintenance Schedule</h1>
        <div className="flex flex-wrap items-center gap-2">
          <div className="mc-toggle">
            <button type="button" aria-pressed={view === "calendar"} onClick={() => setView("calendar")}>
              Calendar
            </button>
            <button type="button" aria-pressed={view === "list"} onClick={() => setView("list")}>
              List
            </button>
          </div>
          <button type="button" className="btn btn-gold btn-sm" onClick={() => setCreating(true)}>
            Create Schedule
          </button>
        </div>
      </div>

      {view === "calendar" ? (
        <section aria-labelledby="mc-month">
          <div className="mc-nav">
            <button type="button" className="btn btn-outline btn-sm" onClick={() => showMonth(shiftMonth(month, -1))}>
              <span aria-hidden="true">‹</span> Previous<span className="sr-only"> month</span>
            </button>
            <h2 id="mc-month" className="mc-month" aria-live="polite">
              {monthLabel(month)}
            </h2>
            <button type="button" className="btn btn-outline btn-sm" onClick={() => showMonth(shiftMonth(month, 1))}>
              Next<span className="sr-only"> month</span> <span aria-hidden="true">›</span>
            </button>
            <button type="button" className="btn btn-green btn-sm" onClick={() => goTo(today)}>
              Today
            </button>
          </div>
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

          {/* A table with the ARIA grid pattern: one cell in the tab order, arrow keys move between days. */}
          {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA APG date grid is a table with role grid. */}
          <table ref={grid} className="mc-grid" role="grid" aria-labelledby="mc-month" aria-describedby="mc-grid-help" aria-busy={calendar.isPending}>
            <thead>
              <tr>
                {WEEKDAYS.map(([short, long]) => (
                  <th key={short} scope="col" className="mc-weekday">
                    <abbr title={long}>{short}</abbr>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week[0]}>
                  {week.map((date) => {
                    const items = days.get(date) ?? [];
                    const total = totalOn(date);
                    const outside = monthOf(date) !== month;
                    return (
                      <td
                        key={date}
                        data-date={date}
                        className="mc-cell"
                        data-outside={outside || undefined}
                        data-today={date === today || undefined}
                        aria-current={date === today ? "date" : undefined}
                        tabIndex={date === focused ? 0 : -1}
                        onKeyDown={(e) => onCellKey(e, date)}
                        onFocus={() => setFocused(date)}
                      >
                        <div className="mc-cell-body">
                          <span className="mc-daynum" aria-hidden="true">
                            {Number(date.slice(8))}
                          </span>
                          <span className="sr-only" data-testid="cell-label">
                            {`${longDateLabel(date)}${date === today ? ", today" : ""}: ${total ? `${total} item${total === 1 ? "" : "s"}` : "nothing scheduled"}`}
                          </span>
                          {items.slice(0, CELL_ITEMS).map((item) => (
                            <button
                              key={itemKey(item)}
                              type="button"
                              tabIndex={-1}
                              className="mc-event"
                              data-kind={item.kind}
                              data-priority={item.kind === "task" ? item.task.priority : undefined}
                              {...planData(item)}
                              onClick={() => open(item)}
                            >
                              <span className="mc-event-time">{item.time.replace(/^0/, "")}</span> {itemTitle(item)}
                              {item.kind === "task" && (
                                <span className="mc-event-where">
                                  <span className="sr-only">, </span>
                                  {item.task.held && (
                                    // 'Held' fits a cell; screen readers hear why.
                                    <span className="mc-held">
                                      Held<span className="sr-only">{HELD_LABEL.slice(4)}</span>
                                    </span>
                                  )}
                                  {shortAddress(item.task.propertyAddress)}
                                </span>
                              )}
                              <span className="sr-only">{itemExtra(item)}</span>
                            </button>
                          ))}
                          {total > CELL_ITEMS && (
                            <button type="button" tabIndex={-1} className="mc-more" onClick={() => setDayOpen(date)}>
                              +{total - CELL_ITEMS} more
                            </button>
                          )}
                        </div>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          <p id="mc-grid-help" className="mc-help">
            Arrow keys move between days, Page Up and Page Down between months; Enter lists the day's items.
          </p>

          {/* On a phone the grid becomes an agenda: only the days that have something, in order. */}
          <div className="mc-agenda">
            {monthDays.length === 0 && !calendar.isPending && <p className="text-ink/75">Nothing scheduled in {monthLabel(month)}.</p>}
            <ol>
              {monthDays.map((date) => (
                <li key={date}>
                  <h3 className="mc-agenda-day">
                    {shortDateLabel(date)}
                    {date === today && <span className="badge badge-blue ml-2">Today</span>}
                  </h3>
                  <ItemList items={(days.get(date) ?? []).slice(0, PREVIEW_PER_DAY)} onOpen={open} />
                  {totalOn(date) > PREVIEW_PER_DAY && (
                    <button type="button" className="mc-more mt-1" onClick={() => setDayOpen(date)}>
                      +{totalOn(date) - PREVIEW_PER_DAY} more on {shortDateLabel(date)}
                    </button>
                  )}
                </li>
              ))}
            </ol>
          </div>
        </section>
      ) : (
        <TaskList onOpen={setTask} enums={enums} />
      )}

      {dayOpen && <DayDialog date={dayOpen} onClose={() => setDayOpen(null)} onOpen={open} />}
      {task && <TaskDialog task={task} statuses={enums.statuses} staff={enums.staff} onClose={() => setTask(null)} />}
      {booking && <BookingDialog booking={booking} window={bookingWindow} onClose={() => setBooking(null)} />}
      {creating && (
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

function ItemList({ items, onOpen }: { items: Item[]; onOpen: (item: Item) => void }) {
  return (
    <ul className="grid gap-2">
      {items.map((item) => (
        <li key={itemKey(item)}>
          <button type="button" className="mc-agenda-item" data-kind={item.kind} {...planData(item)} onClick={() => onOpen(item)}>
            <span className="mc-event-time">{item.time}</span>
            <span>
              <span className="block font-semibold">{itemTitle(item)}</span>
              <span className="block text-sm text-ink/75">
                {item.kind === "task"
                  ? [
                      item.task.held ? HELD_LABEL : null,
                      item.task.propertyAddress,
                      item.task.planType ? planLabel(item.task.planType) : null,
                      `${labelOf(item.task.priority)} priority`,
                      formatDuration(item.task.estimatedDuration),
                      item.task.assignedToName,
                    ]
                      .filter(Boolean)
                      .join(" · ")
                  : `Inspection booking · ${item.booking.clientName}`}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A day's items, all of them (the month only holds each day's first few). */
function DayDialog({ date, onClose, onOpen }: { date: string; onClose: () => void; onOpen: (item: Item) => void }) {
  const day = useJson<CalendarMonth>(`/api/maintenance-calendar?from=${date}&to=${date}`);
  const items = day.data ? (byDate(day.data).get(date) ?? []) : [];
  return (
    <Dialog title={longDateLabel(date)} onClose={onClose}>
      {day.isPending && <p role="status">Loading…</p>}
      {day.error && (
        <p className="alert alert-danger" role="alert">
          {day.error.message}
        </p>
      )}
      {day.data && items.length === 0 && <p className="text-ink/75">Nothing scheduled on this day.</p>}
      <ItemList items={items} onOpen={onOpen} />
    </Dialog>
  );
}

