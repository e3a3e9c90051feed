// Lists of a day's items (MaintenanceCalendar.island.tsx): the phone's agenda of the month, and a day's dialog
// (DayDialog.tsx).
import { HELD_LABEL, formatDuration, labelOf, planLabel } from "../../src/modules/maintenance/maintenance.constants";
import { type Item, PREVIEW_PER_DAY, itemKey, itemTitle, planData } from "./calendar-items";
import { monthLabel, shortDateLabel } from "./month-grid";

/** A task's line under its title: hold, property, plan, priority, duration and assignee. */
const taskLine = (task: Extract<Item, { kind: "task" }>["task"]) =>
  [
    task.held ? HELD_LABEL : null,
    task.propertyAddress,
    task.planType ? planLabel(task.planType) : null,
    `${labelOf(task.priority)} priority`,
    formatDuration(task.estimatedDuration),
    task.assignedToName,
  ]
    .filter(Boolean)
    .join(" · ");

export function ItemList({ items, onOpen }: { items: Item[]; onOpen: (item: Item) => void }) {
  return (
    <ul className="grid gap-2">
      {items.map((item) => (
        <li key={itemKey(item)}>
          <button
            type="button"
            className="mc-agenda-item"
            data-kind={item.kind}
            {...planData(item)}
            onClick={() => onOpen(item)}
          >
            <span className="mc-event-time">{item.time}</span>
            <span>
              <span className="block font-semibold">{itemTitle(item)}</span>
              <span className="block text-sm text-ink/75">
                {item.kind === "task"
                  ? taskLine(item.task)
                  : `Inspection booking · ${item.booking.clientName} · ${item.booking.inspectorName ?? "No inspector yet"}`}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

interface MonthAgendaProps {
  month: string;
  today: string;
  /** The month's days that have something, in order. */
  dates: string[];
  days: Map<string, Item[]>;
  totalOn: (date: string) => number;
  loading: boolean;
  onOpen: (item: Item) => void;
  onOpenDay: (date: string) => void;
}

/** On a phone the grid becomes an agenda: only the days that have something, in order. */
export function MonthAgenda({ month, today, dates, days, totalOn, loading, onOpen, onOpenDay }: MonthAgendaProps) {
  return (
    <div className="mc-agenda">
      {dates.length === 0 && !loading && <p className="text-ink/75">Nothing scheduled in {monthLabel(month)}.</p>}
      <ol>
        {dates.map((date) => (
          <li key={date}>
            <h3 className="mc-agenda-day">
              {shortDateLabel(date)}
              {date === today && <span className="badge badge-blue ml-2">Today</span>}
            </h3>
            <ItemList items={(days.get(date) ?? []).slice(0, PREVIEW_PER_DAY)} onOpen={onOpen} />
            {totalOn(date) > PREVIEW_PER_DAY && (
              <button type="button" className="mc-more mt-1" onClick={() => onOpenDay(date)}>
                +{totalOn(date) - PREVIEW_PER_DAY} more on {shortDateLabel(date)}
              </button>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
