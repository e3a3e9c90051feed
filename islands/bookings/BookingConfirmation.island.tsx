import { useState } from "react";
import {
  ACCESS_METHOD_LABELS,
  CONFIRMATION_STORAGE_KEY,
  type ConfirmationRecord,
} from "../../src/modules/bookings/bookings.constants";
import { longDate } from "../../src/shared/business-time";
import { visitLengthSentence } from "../../src/shared/visit-length";
import { ConfirmBadge } from "./form-parts";

interface Props {
  supportEmail: string;
  supportPhone: string;
}

const NEXT_STEPS = [
  {
    title: "Check your e-mail",
    text: "Your confirmation e-mail has the details and a calendar invitation. We send your inspector's contact within 24 hours.",
  },
  {
    title: "Your inspector calls ahead",
    text: "Your assigned inspector contacts you 24 hours before the inspection to confirm.",
  },
  // The spec's line; the visit's whole length follows it from the record (docs/decisions.md#59).
  { title: "The inspection", text: "Our 114-point inspection takes about 60 minutes." },
  {
    title: "Your Health Report",
    text: "Your report and Property Health Score arrive within 24 hours of the inspection.",
  },
];

/** Reads the record the booking forms saved (form-parts.tsx saveConfirmation) and removes it, so a reload shows the page without it. */
function takeConfirmation(): ConfirmationRecord | null {
  const raw = sessionStorage.getItem(CONFIRMATION_STORAGE_KEY);
  sessionStorage.removeItem(CONFIRMATION_STORAGE_KEY);
  if (!raw) return null;
  try {
    const record = JSON.parse(raw) as ConfirmationRecord;
    return typeof record?.scheduledDate === "string" ? record : null;
  } catch {
    return null;
  }
}

function Support({ supportEmail, supportPhone }: Props) {
  return (
    <p className="mt-8 text-center text-sm text-ink/80">
      Questions about your booking? Contact us at{" "}
      <a className="link" href={`mailto:${supportEmail}`}>
        {supportEmail}
      </a>{" "}
      or{" "}
      <a className="link" href={`tel:${supportPhone.replace(/[^\d+]/g, "")}`}>
        {supportPhone}
      </a>
      .
    </p>
  );
}

export default function BookingConfirmation(props: Props) {
  // Read once, then removed (customer-side §2.11): a reload shows the page without it.
  const [record] = useState<ConfirmationRecord | null>(takeConfirmation);

  if (!record) {
    return (
      <div className="card mt-6 text-center">
        <h1 className="font-serif text-3xl font-bold text-green-900">No Booking to Show</h1>
        <p className="mt-3 text-ink/80">
          This page shows a booking once, right after it is made. If you booked an inspection, your confirmation e-mail
          has every detail.
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <a href="/schedule-inspection" className="btn btn-gold">
            Schedule an Inspection
          </a>
          <a href="/" className="btn btn-outline">
            Back to Home
          </a>
        </div>
        <Support {...props} />
      </div>
    );
  }

  const place = [record.city, [record.state, record.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  const access = record.accessMethod ? (ACCESS_METHOD_LABELS[record.accessMethod] ?? record.accessMethod) : null;

  return (
    <>
      <div className="text-center">
        <ConfirmBadge />
        <h1 className="mt-4 font-serif text-3xl font-bold text-green-900 md:text-4xl">Your Inspection is Booked!</h1>
        <p className="mt-2 text-ink/80">Thank you. Your 114-point home inspection is scheduled.</p>
      </div>

      <section className="card mt-8" aria-labelledby="booking-details">
        <h2 id="booking-details" className="font-serif text-xl font-bold text-green-900">
          Booking details
        </h2>
        <dl className="booking-details mt-4">
          <dt>Date</dt>
          <dd data-testid="confirmation-date">{longDate(record.scheduledDate)}</dd>
          <dt>Time</dt>
          <dd data-testid="confirmation-time">{record.selectedTime}</dd>
          <dt>Address</dt>
          <dd data-testid="confirmation-address">
            {record.address}
            {place && <span className="block text-ink/75">{place}</span>}
          </dd>
          {access && (
            <>
              <dt>Access</dt>
              <dd data-testid="confirmation-access">{access}</dd>
            </>
          )}
        </dl>
        <p className="mt-4 rounded-lg bg-green-900/5 px-3 py-2 text-sm">
          A confirmation e-mail is on its way{record.email ? ` to ${record.email}` : ""}, with a calendar invitation.
        </p>
      </section>

      <section className="card mt-6" aria-labelledby="next-steps">
        <h2 id="next-steps" className="font-serif text-xl font-bold text-green-900">
          What Happens Next?
        </h2>
        <ol className="mt-4 space-y-4">
          {NEXT_STEPS.map((step, i) => (
            <li key={step.title} className="flex gap-3">
              <span className="wizard-step-number shrink-0" aria-hidden="true">
                {i + 1}
              </span>
              <div>
                <p className="font-semibold">{step.title}</p>
                <p className="text-sm text-ink/80">{step.text}</p>
                {step.title === "The inspection" && (
                  <p className="text-sm text-ink/80" data-testid="confirmation-visit-length">
                    {visitLengthSentence(record.visitMinutes)}
                  </p>
                )}
              </div>
            </li>
          ))}
        </ol>
      </section>

      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a href="/" className="btn btn-green">
          Back to Home
        </a>
        <a href="/pricing" className="btn btn-outline">
          View Plans
        </a>
      </div>
      <Support {...props} />
    </>
  );
}
