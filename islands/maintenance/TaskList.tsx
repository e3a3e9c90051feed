import { useEffect, useState } from "react";
import {
  HELD_LABEL,
  STATUS_LABELS,
  type TaskStatus,
  formatDuration,
  labelOf,
  planLabel,
  taskTime,
} from "../../src/modules/maintenance/maintenance.constants";
import { ApiError, handleUnauthorized } from "../ui/api";
import { useData } from "../ui/data";
import { InputField, SelectField, bindFields } from "./form-fields";
import type { Enumerations, TaskView } from "./types";
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

const NO_FILTERS = { status: "", category: "", priority: "", assignedTo: "", from: "", to: "" };

type Filters = typeof NO_FILTERS;

interface TaskFiltersProps {
  filters: Filters;
  filter: (key: keyof Filters) => (e: { target: { value: string } }) => void;
  /** From is after To: the range is left out of the query and To says why. */
  badRange: boolean;
  enums: Enumerations;
}

function TaskFilters({ filters, filter, badRange, enums }: TaskFiltersProps) {
  const field = bindFields("mc-filter", filters, filter, badRange ? { to: "To must be on or after From" } : {});
  // Each select's first choice is "any".
  const selects: [keyof Filters, string, string, [string, string][]][] = [
    ["status", "Status", "Any status", enums.statuses.map((s) => [s, STATUS_LABELS[s]])],
    ["category", "Category", "Any category", enums.categories.map((c) => [c, labelOf(c)])],
    ["priority", "Priority", "Any priority", enums.priorities.map((p) => [p, labelOf(p)])],
    ["assignedTo", "Assigned to", "Anyone", enums.staff.map((m) => [String(m.id), m.name])],
  ];
  return (
    <fieldset className="mc-filters">
      <legend className="sr-only">Filter tasks</legend>
      {selects.map(([name, label, any, options]) => (
        <SelectField key={name} label={label} field={field(name)} empty={any} options={options} />
      ))}
      <InputField label="From" field={field("from")} type="date" />
      <InputField label="To" field={field("to")} type="date" />
    </fieldset>
  );
}

function TaskTable({ rows, onOpen }: { rows: ListedTask[] | undefined; onOpen: (task: TaskView) => void }) {
  return (
    <div className="mc-table-wrap">
      <table className="mc-table">
        <caption className="sr-only">Maintenance tasks by date, the undated last</caption>
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Date</th>
            <th scope="col">Property</th>
            <th scope="col">Assigned to</th>
            <th scope="col">Priority</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
          </tr>
        </thead>
        <tbody>
          {rows?.map((t) => (
            <tr key={t.id}>
              <td>
                <button type="button" className="link text-left font-semibold" onClick={() => onOpen(t)}>
                  {t.title}
                </button>
                {t.planType && <span className={`plan-badge plan-${t.planType} ml-2`}>{planLabel(t.planType)}</span>}
                {t.held && <span className="mc-held">{HELD_LABEL}</span>}
              </td>
              <td>
                {t.scheduledDate ? `${shortDateLabel(t.scheduledDate)}, ${taskTime(t.scheduledTime)}` : "Not scheduled"}
              </td>
              <td>{t.propertyAddress}</td>
              <td>{t.assignedToName ?? "—"}</td>
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
      {rows && rows.length === 0 && <p className="p-4 text-ink/75">No maintenance tasks found.</p>}
    </div>
  );
}

/**
 * The list view: every task, dated or not, completed too; in date and time order with the undated last
 *, filtered, searched and paged on the server.
 */
export function TaskList({
  onOpen,
  enums,
  canExport = true,
}: {
  onOpen: (task: TaskView) => void;
  enums: Enumerations;
  /** False for an inspector, whose CSV export the server refuses (docs/decisions.md#36). */
  canExport?: boolean;
}) {
  const [q, setQ] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(0);
  const [filters, setFilters] = useState(NO_FILTERS);
  const filter = (key: keyof Filters) => (e: { target: { value: string } }) => {
    setFilters((f) => ({ ...f, [key]: e.target.value }));
    setPage(0);
  };
  const chosen = Object.fromEntries(Object.entries(filters).filter(([, v]) => v));
  const badRange = Boolean(filters.from && filters.to && filters.from > filters.to);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(q.trim());
      setPage(0);
    }, 250);
    return () => clearTimeout(timer);
  }, [q]);
  const url = `/api/maintenance-tasks?${new URLSearchParams({ limit: String(LIST_PAGE), offset: String(page * LIST_PAGE), sort: "date", ...(search && { q: search }), ...(badRange ? {} : chosen) })}`;
  const list = useData(url, loadTaskPage);
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / LIST_PAGE));
  return (
    <section aria-labelledby="mc-list-title" className="grid gap-3">
      <h2 id="mc-list-title" className="sr-only">
        All maintenance tasks
      </h2>
      <div className="field max-w-md">
        <label htmlFor="mc-search">Search tasks</label>
        <input
          id="mc-search"
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="Title, address or client"
        />
      </div>
      {/* Every task of this filter and search as a CSV download, not just this page. */}
      {canExport && (
        <a
          className="btn btn-outline btn-sm justify-self-start"
          href={`/api/maintenance-tasks?${new URLSearchParams({ format: "csv", sort: "date", ...(search && { q: search }), ...(badRange ? {} : chosen) })}`}
          download
          data-export-csv
        >
          Export CSV
        </a>
      )}
      <TaskFilters filters={filters} filter={filter} badRange={badRange} enums={enums} />
      {list.error && (
        <p className="alert alert-danger" role="alert">
          {list.error.message}
        </p>
      )}
      <TaskTable rows={list.data?.rows} onOpen={onOpen} />
      <nav className="flex items-center justify-between gap-2" aria-label="Task pages">
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={page === 0}
          onClick={() => setPage((p) => p - 1)}
        >
          Previous
        </button>
        <span role="status">
          Page {page + 1} of {pages} · {list.data?.total ?? 0} tasks
        </span>
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={page + 1 >= pages}
          onClick={() => setPage((p) => p + 1)}
        >
          Next
        </button>
      </nav>
    </section>
  );
}
