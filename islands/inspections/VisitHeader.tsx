// The inspection form's header: the client's phone one tap away, and what the homeowner wrote for the visit.
import { useState } from "react";
import { accessCodeLabel, accessMethodWords } from "../../src/modules/bookings/bookings.constants";
import type { InspectionVisit } from "../../src/modules/inspections/inspections.schemas";

/** A phone number as a dialable tel: URI (digits and a leading +). */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

/**
 * The door code, fetched on a tap and held only in this component's state: never in the inspection the form keeps
 * on the device, nor in a cached response (the call answers no-store), docs/decisions.md#38.
 */
function AccessCode({ bookingId, label }: { bookingId: number; label: string }) {
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

export function VisitHeader({ clientName, visit }: { clientName?: string; visit?: InspectionVisit }) {
  if (!visit) return null;
  const notes = [
    ["Access", accessMethodWords(visit.accessMethod)],
    ["Access instructions", visit.accessInstructions],
    ["Special requests", visit.specialRequests],
    ["Notes for your inspector", visit.homeownerNotes],
    ["Booking notes", visit.bookingNotes],
  ].filter((n): n is [string, string] => Boolean(n[1]?.trim()));
  const code = visit.hasAccessCode && visit.bookingId ? visit.bookingId : null;
  // The code sits with the access lines, before the requests and notes.
  const access = notes.filter(([label]) => label.startsWith("Access"));
  const rest = notes.filter(([label]) => !label.startsWith("Access"));
  return (
    <div className="visit-header" data-testid="visit-header">
      {(clientName || visit.clientPhone) && (
        <p className="visit-client">
          {clientName && <span className="font-semibold">{clientName}</span>}
          {visit.clientPhone && (
            <a
              className="btn btn-outline btn-sm visit-call"
              href={telHref(visit.clientPhone)}
              data-testid="client-phone"
            >
              Call {visit.clientPhone}
            </a>
          )}
        </p>
      )}
      {(notes.length > 0 || code) && (
        <section className="visit-notes" aria-label="From the homeowner" data-testid="homeowner-notes">
          <h2 className="visit-notes-title">From the homeowner</h2>
          <dl>
            {access.map(([label, text]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{text}</dd>
              </div>
            ))}
            {code && <AccessCode bookingId={code} label={accessCodeLabel(visit.accessMethod)} />}
            {rest.map(([label, text]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{text}</dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </div>
  );
}
