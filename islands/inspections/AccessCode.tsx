// The inspection form's door code (VisitHeader.tsx), shown on a tap.
import { useState } from "react";

/**
 * The door code, fetched on a tap and held only in this component's state: never in the inspection the form keeps
 * on the device, nor in a cached response (the call answers no-store), docs/decisions.md#38.
 */
export function AccessCode({ bookingId, label }: { bookingId: number; label: string }) {
  const [shown, setShown] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const show = async () => {
    setBusy(true);
    try {
      const res = await fetch(`/api/inspection-bookings/${bookingId}/access-code`, {
        headers: { accept: "application/json" },
        cache: "no-store",
        credentials: "same-origin",
      });
      if (!res.ok) throw new Error(String(res.status));
      const answer = (await res.json()) as { accessCode: string | null };
      setShown(answer.accessCode || "None given");
    } catch {
      setShown("The code needs a connection; try again when online.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <span aria-live="polite" data-testid="access-code">
          {shown}
        </span>
        {(shown === null || shown.startsWith("The code needs")) && (
          <button
            type="button"
            className="btn btn-outline btn-sm visit-show-code"
            onClick={show}
            disabled={busy}
            data-testid="show-access-code"
          >
            Show<span className="sr-only"> the {label.toLowerCase()}</span>
          </button>
        )}
      </dd>
    </div>
  );
}
