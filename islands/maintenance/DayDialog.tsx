// A day's dialog (MaintenanceCalendar.island.tsx), a chunk of its own: the month shows each day's first few items.
import type { CalendarMonth } from "../../src/modules/maintenance/maintenance.constants";
import { useData } from "../ui/data";
import { type Item, byDate } from "./calendar-items";
import { ItemList } from "./DayItems";
import { Dialog } from "./Dialog";
import { longDateLabel } from "./month-grid";

/** A day's items, all of them (the month only holds each day's first few). */
export function DayDialog({
  date,
  onClose,
  onOpen,
}: {
  date: string;
  onClose: () => void;
  onOpen: (item: Item) => void;
}) {
  const day = useData<CalendarMonth>(`/api/maintenance-calendar?from=${date}&to=${date}`);
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
