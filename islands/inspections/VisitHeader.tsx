// The inspection form's header: the client's phone one tap away, and what the homeowner wrote for the visit.
import { accessCodeLabel, accessMethodWords } from "../../src/modules/bookings/bookings.constants";
import type { InspectionVisit } from "../../src/modules/inspections/inspections.schemas";
import { lazyPart, useLazy } from "../ui/lazy";

/** The door code's button, in a chunk of its own, fetched only for a visit that has a code (docs/decisions.md#79). */
const accessCode = lazyPart(() => import("./AccessCode").then((m) => m.AccessCode));

/** A phone number as a dialable tel: URI (digits and a leading +). */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

export function VisitHeader({ clientName, visit }: { clientName?: string; visit?: InspectionVisit }) {
  const code = visit?.hasAccessCode && visit.bookingId ? visit.bookingId : null;
  const AccessCode = useLazy(accessCode, code !== null);
  if (!visit) return null;
  const notes = [
    ["Access", accessMethodWords(visit.accessMethod)],
    ["Access instructions", visit.accessInstructions],
    ["Special requests", visit.specialRequests],
    ["Notes for your inspector", visit.homeownerNotes],
    ["Booking notes", visit.bookingNotes],
  ].filter((n): n is [string, string] => Boolean(n[1]?.trim()));
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
            {code && AccessCode && <AccessCode bookingId={code} label={accessCodeLabel(visit.accessMethod)} />}
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
