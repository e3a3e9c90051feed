import { useState } from "react";
import { type TaskStatus, taskTime } from "../../src/modules/maintenance/maintenance.constants";
import { TaskDialog } from "../maintenance/TaskDialog";
import { longDateLabel } from "../maintenance/month-grid";
import type { StaffOption, TaskView } from "../maintenance/types";

// The office's accepted quotes to book (docs/decisions.md#43): each opens the calendar's own Task Details dialog,
// where the office sets the date, time and who goes; the homeowner is e-mailed the booking (quotes:booked-mail).
interface Item {
  quoteRequestId: number;
  propertyAddress: string;
  clientName: string;
  taskTitle: string;
  quotedAmount: string | null;
  acceptedAt: string;
  invoiceStatus: string | null;
  task: Omit<TaskView, "status"> & { status: string };
}

interface Props {
  items: Item[];
  staff: StaffOption[];
  statuses: TaskStatus[];
}

const acceptedOn = (iso: string) =>
  new Date(iso).toLocaleDateString("en-CA", { month: "short", day: "numeric", year: "numeric" });

export default function QuotesToBook({ items: initial, staff, statuses }: Props) {
  const [items, setItems] = useState(initial);
  const [open, setOpen] = useState<TaskView | null>(null);
  const fresh = (task: TaskView) =>
    setItems((list) => list.map((i) => (i.task.id === task.id ? { ...i, task: { ...i.task, ...task } } : i)));
  const who = (id: number | null) => (id ? (staff.find((s) => s.id === id)?.name ?? "Someone") : "Nobody yet");

  if (!items.length) return <p className="card">No accepted quote is waiting to be booked.</p>;
  return (
    <>
      <ul className="mt-4 grid gap-3" data-to-book-list>
        {items.map((item) => {
          const booked = item.task.scheduledDate;
          return (
            <li key={item.quoteRequestId} className="card" data-to-book={item.quoteRequestId}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0 flex-1">
                  <h2 className="font-semibold text-green-900">
                    {item.taskTitle}{" "}
                    {booked ? (
                      <span className="ml-1 rounded-full bg-band-green px-2.5 py-0.5 text-xs font-bold uppercase text-white">
                        Booked
                      </span>
                    ) : (
                      <span className="ml-1 rounded-full bg-gold-300 px-2.5 py-0.5 text-xs font-bold uppercase text-green-950">
                        To book
                      </span>
                    )}
                  </h2>
                  <p className="text-sm text-ink/80">
                    {item.propertyAddress} · {item.clientName}
                  </p>
                  <p className="text-sm text-ink/80">
                    Accepted {acceptedOn(item.acceptedAt)}
                    {item.quotedAmount ? ` · ${item.quotedAmount} before tax` : ""}
                    {item.invoiceStatus === "paid" ? " · paid" : item.invoiceStatus ? " · not paid yet" : ""}
                  </p>
                  <p className="mt-1 text-sm font-semibold text-green-900" data-booking>
                    {booked
                      ? `${longDateLabel(booked)}, ${taskTime(item.task.scheduledTime)} · ${who(item.task.assignedTo)}`
                      : "No date yet"}
                  </p>
                </div>
                <button
                  type="button"
                  className={booked ? "btn btn-outline btn-sm" : "btn btn-green btn-sm"}
                  onClick={() => setOpen(item.task as TaskView)}
                >
                  {booked ? "Change booking" : "Book"}
                  <span className="sr-only">
                    {" "}
                    {item.taskTitle} at {item.propertyAddress}
                  </span>
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {open && (
        <TaskDialog task={open} statuses={statuses} staff={staff} onClose={() => setOpen(null)} onFresh={fresh} />
      )}
    </>
  );
}
