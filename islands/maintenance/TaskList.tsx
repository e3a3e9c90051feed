import { useEffect, useState } from "react";
import { STATUS_LABELS, type TaskStatus, formatDuration, labelOf, taskTime } from "../../src/modules/maintenance/maintenance.constants";
import { ApiError, handleUnauthorized } from "../ui/api";
import { useJson } from "./data";
import type { TaskView } from "./dialogs";
import { shortDateLabel } from "./month-grid";

// The calendar's List view (MaintenanceCalendar.island.tsx): every task, paged and searched on the server.

const LIST_PAGE = 25;

interface ListedTask extends TaskView {
  createdAt: string;
}

/** A page of the list and the full count (X-Total-Count). */
async function loadTaskPage(url: string): Promise<{ rows: ListedTask[]; total: number }> {
  const response = await fetch(url, { credentials: "include", headers: { Accept: "application/json" } });
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
    if (response.status === 401) handleUnauthorized();
    throw new ApiError(response.status, `${response.status}: ${text}`, text);
  }
  return { rows: (await response.json()) as ListedTask[], total: Number(response.headers.get("X-Total-Count") ?? 0) };
}

/** The list view: every task, dated or not, completed too; newest first, searched and paged on the server. */
export function TaskList({ onOpen }: { onOpen: (task: TaskView) => void }) {
  const [q, setQ] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(q.trim());
      setPage(0);
    }, 250);
    return () => clearTimeout(timer);
  }, [q]);
  const url = `/api/maintenance-tasks?${new URLSearchParams({ limit: String(LIST_PAGE), offset: String(page * LIST_PAGE), ...(search && { q: search }) })}`;
  const list = useJson(url, loadTaskPage);
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / LIST_PAGE));
  return (
    <section aria-labelledby="mc-list-title" className="grid gap-3">
      <h2 id="mc-list-title" className="sr-only">
        All maintenance tasks
      </h2>
      <div className="field max-w-md">
        <label htmlFor="mc-search">Search tasks</label>
        <input id="mc-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Title, address or client" />
      </div>
      {list.error && (
        <p className="alert alert-danger" role="alert">
          {list.error.message}
        </p>
      )}
      <div className="mc-table-wrap">
        <table className="mc-table">
          <caption className="sr-only">Maintenance tasks, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Date</th>
              <th scope="col">Property</th>
              <th scope="col">Priority</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.rows.map((t) => (
              <tr key={t.id}>
                <td>
                  <button type="button" className="link text-left font-semibold" onClick={() => onOpen(t)}>
                    {t.title}
                  </button>
                </td>
                <td>{t.scheduledDate ? `${shortDateLabel(t.scheduledDate)}, ${taskTime(t.scheduledTime)}` : "Not scheduled"}</td>
                <td>{t.propertyAddress}</td>
                <td>{labelOf(t.priority)}</td>
                <td>
                  <span className="badge" data-status={t.status}>
                    {STATUS_LABELS[t.status as TaskStatus] ?? labelOf(t.status)}
                  </span>
                </td>
                <td>{formatDuration(t.estimatedDuration)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && list.data.rows.length === 0 && <p className="p-4 text-ink/75">No maintenance tasks found.</p>}
      </div>
      <nav className="flex items-center justify-between gap-2" aria-label="Task pages">
        <button type="button" className="btn btn-outline btn-sm" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
          Previous
        </button>
        <span role="status">
          Page {page + 1} of {pages} · {list.data?.total ?? 0} tasks
        </span>
        <button type="button" className="btn btn-outline btn-sm" disabled={page + 1 >= pages} onClick={() => setPage((p) => p + 1)}>
          Next
        </button>
      </nav>
    </section>
  );
}
