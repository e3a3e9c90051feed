// The inspection form's header: the client's phone one tap away, and what the homeowner wrote for the visit.
import { ACCESS_METHOD_LABELS } from "../../src/modules/bookings/bookings.constants";
import type { InspectionVisit } from "../../src/modules/inspections/inspections.schemas";

/** A phone number as a dialable tel: URI (digits and a leading +). */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

export function VisitHeader({ clientName, visit }: { clientName?: string; visit?: InspectionVisit }) {
  if (!visit) return null;
  const notes = [
    ["Access", visit.accessMethod ? (ACCESS_METHOD_LABELS[visit.accessMethod] ?? visit.accessMethod) : null],
    ["Access instructions", visit.accessInstructions],
    ["Special requests", visit.specialRequests],
    ["Booking notes", visit.bookingNotes],
  ].filter((n): n is [string, string] => Boolean(n[1]?.trim()));
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
      {notes.length > 0 && (
        <section className="visit-notes" aria-label="From the homeowner" data-testid="homeowner-notes">
          <h2 className="visit-notes-title">From the homeowner</h2>
          <dl>
            {notes.map(([label, text]) => (
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
