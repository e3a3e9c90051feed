// The calendar's month as a table with the ARIA grid pattern (MaintenanceCalendar.island.tsx): one cell in the
// tab order, arrow keys move between days; each cell shows its first items, then '+n more'.
import type { KeyboardEvent, Ref } from "react";
import { HELD_LABEL } from "../../src/modules/maintenance/maintenance.constants";
import { type Item, itemExtra, itemKey, itemTitle, planData } from "./calendar-items";
import { WEEKDAYS, longDateLabel, monthOf, shiftDate, shiftDateByMonths, weekEnd, weekStart } from "./month-grid";

/** A cell shows at most this many items, then '+n more' (staff-side §2). */
const CELL_ITEMS = 2;

/** The property beside a task's title in a cell: its street line, cut at the first comma. */
const shortAddress = (address: string) => address.split(",")[0]!.trim();

/** Where a key moves the grid's focus from `date` (the ARIA grid pattern), or null for other keys. */
export function keyTarget(key: string, date: string): string | null {
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

/** An item in a cell: its time, title and (a task's) property; a screen reader hears the rest. */
function CellEvent({ item, onOpen }: { item: Item; onOpen: (item: Item) => void }) {
  return (
    <button
      type="button"
      tabIndex={-1}
      className="mc-event"
      data-kind={item.kind}
      data-priority={item.kind === "task" ? item.task.priority : undefined}
      {...planData(item)}
      onClick={() => onOpen(item)}
    >
      <span className="mc-event-time">{item.time}</span> {itemTitle(item)}
      {item.kind === "booking" && (
        // The inspector's name under the title, in their colour's border (docs/decisions.md#37).
        <span className="mc-event-where">
          <span className="sr-only">, </span>
          {item.booking.inspectorName ?? "No inspector yet"}
        </span>
      )}
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
  );
}

interface MonthGridProps {
  weeks: string[][];
  month: string;
  today: string;
  /** The cell in the tab order. */
  focused: string;
  /** Each day's items (the first few of its tasks) and its full count. */
  days: Map<string, Item[]>;
  totalOn: (date: string) => number;
  loading: boolean;
  gridRef: Ref<HTMLTableElement>;
  onCellKey: (e: KeyboardEvent, date: string) => void;
  onCellFocus: (date: string) => void;
  onOpen: (item: Item) => void;
  onOpenDay: (date: string) => void;
}

export function MonthGrid({
  weeks,
  month,
  today,
  focused,
  days,
  totalOn,
  loading,
  gridRef,
  onCellKey,
  onCellFocus,
  onOpen,
  onOpenDay,
}: MonthGridProps) {
  return (
    <table
      ref={gridRef}
      className="mc-grid"
      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA APG date grid is a table with role grid.
      role="grid"
      aria-labelledby="mc-month"
      aria-describedby="mc-grid-help"
      aria-busy={loading}
    >
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
              const total = totalOn(date);
              return (
                <td
                  key={date}
                  data-date={date}
                  className="mc-cell"
                  data-outside={monthOf(date) !== month || undefined}
                  data-today={date === today || undefined}
                  aria-current={date === today ? "date" : undefined}
                  tabIndex={date === focused ? 0 : -1}
                  onKeyDown={(e) => onCellKey(e, date)}
                  onFocus={() => onCellFocus(date)}
                >
                  <div className="mc-cell-body">
                    <span className="mc-daynum" aria-hidden="true">
                      {Number(date.slice(8))}
                    </span>
                    <span className="sr-only" data-testid="cell-label">
                      {`${longDateLabel(date)}${date === today ? ", today" : ""}: ${total ? `${total} item${total === 1 ? "" : "s"}` : "nothing scheduled"}`}
                    </span>
                    {(days.get(date) ?? []).slice(0, CELL_ITEMS).map((item) => (
                      <CellEvent key={itemKey(item)} item={item} onOpen={onOpen} />
                    ))}
                    {total > CELL_ITEMS && (
                      <button type="button" tabIndex={-1} className="mc-more" onClick={() => onOpenDay(date)}>
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
  );
}
