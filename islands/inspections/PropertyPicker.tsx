import { useEffect, useId, useState } from "react";
import type { Property } from "../../src/modules/customers/customers.constants";
import type { UpcomingProperty } from "../../src/modules/inspections/form.routes";
import { ApiError, handleUnauthorized } from "../ui/api";

type PropertyRow = Pick<Property, "id" | "address" | "city" | "province" | "postalCode" | "clientName">;

const PAGE = 20;
const SEARCH_DELAY_MS = 250;

/** Search on the server (there may be thousands of properties, docs/decisions.md#15). */
async function searchProperties(q: string, signal: AbortSignal): Promise<{ rows: PropertyRow[]; total: number }> {
  const response = await fetch(`/api/properties?${new URLSearchParams({ q, limit: String(PAGE) })}`, {
    credentials: "include",
    headers: { Accept: "application/json" },
    signal,
  });
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
    throw new ApiError(response.status, `${response.status}: ${text}`, text);
  }
  const rows = (await response.json()) as PropertyRow[];
  return { rows: rows.slice(0, PAGE), total: Number(response.headers.get("X-Total-Count") ?? rows.length) };
}

export const propertyLabel = (p: Pick<PropertyRow, "address" | "city" | "province">) =>
  [p.address, p.city, p.province].filter(Boolean).join(", ");

/** One radio choice: the address, then what tells it apart (a booking's time, or the postal code), the client and id. */
function PropertyChoice(props: {
  group: string;
  property: PropertyRow;
  detail: string | null;
  selected: boolean;
  onSelect: () => void;
}) {
  const { property: p } = props;
  return (
    <li>
      <label className="property-choice">
        <input type="radio" name={props.group} checked={props.selected} onChange={props.onSelect} />
        <span>
          <span className="block font-semibold">{propertyLabel(p)}</span>
          <span className="block text-sm text-ink/75">
            {props.detail} · {p.clientName} · #{p.id}
          </span>
        </span>
      </label>
    </li>
  );
}

/**
 * The searchable property picker: a search box and a list of radio choices (native keyboard use).
 * Before any search, today's and this week's bookings come first (the inspector's day).
 */
export function PropertyPicker({
  selected,
  onSelect,
  upcoming = [],
}: {
  selected: PropertyRow | null;
  onSelect: (p: PropertyRow) => void;
  upcoming?: UpcomingProperty[];
}) {
  const id = useId();
  const [q, setQ] = useState("");
  const [result, setResult] = useState<{ rows: PropertyRow[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchProperties(q.trim(), controller.signal).then(
        (r) => {
          setResult(r);
          setError(null);
        },
        (e: unknown) => {
          if (controller.signal.aborted) return;
          if (e instanceof ApiError && e.status === 401) return handleUnauthorized();
          setError(
            navigator.onLine ? "Could not load properties." : "You are offline: properties cannot be searched now.",
          );
        },
      );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q]);

  const showUpcoming = q.trim() === "" && upcoming.length > 0;
  const upcomingIds = new Set(upcoming.map((p) => p.id));

  return (
    <div className="grid gap-3">
      <div className="field">
        <label htmlFor={`${id}-q`} className="font-semibold">
          Search properties
        </label>
        <input
          id={`${id}-q`}
          type="search"
          className="input"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="Address, city, postal code or client"
          autoComplete="off"
        />
      </div>
      {error && (
        <p className="alert alert-danger" role="alert">
          {error}
        </p>
      )}
      <fieldset className="property-choices">
        <legend className="font-semibold">Property</legend>
        {result && result.rows.length === 0 && <p className="text-ink/75">No property matches.</p>}
        {showUpcoming && (
          <>
            <p className="mt-1 text-sm font-semibold text-green-900" id={`${id}-upcoming`}>
              Booked today and this week
            </p>
            <ul className="mb-3 grid gap-2" aria-labelledby={`${id}-upcoming`} data-testid="upcoming-properties">
              {upcoming.map((p) => (
                <PropertyChoice
                  key={p.id}
                  group={`${id}-property`}
                  property={p}
                  detail={p.timeLabel}
                  selected={selected?.id === p.id}
                  onSelect={() => onSelect(p)}
                />
              ))}
            </ul>
          </>
        )}
        <ul className="grid gap-2">
          {result?.rows
            .filter((p) => !(showUpcoming && upcomingIds.has(p.id)))
            .map((p) => (
              <PropertyChoice
                key={p.id}
                group={`${id}-property`}
                property={p}
                detail={p.postalCode}
                selected={selected?.id === p.id}
                onSelect={() => onSelect(p)}
              />
            ))}
        </ul>
        {result && result.total > result.rows.length && (
          <p className="mt-2 text-sm text-ink/75" role="status">
            Showing {result.rows.length} of {result.total}: type to narrow the search.
          </p>
        )}
      </fieldset>
    </div>
  );
}

export type { PropertyRow };
