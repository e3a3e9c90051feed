import { Fragment, type ReactNode, useMemo, useState } from "react";
import { intlLocale } from "../../src/i18n/locales";
import { localePath } from "../../src/i18n/routing";
import {
  ACCESS_METHODS,
  CONFIRMATION_STORAGE_KEY,
  type ConfirmationRecord,
} from "../../src/modules/bookings/bookings.constants";
import { type IslandMessages, type IslandT, islandTranslator } from "../ui/i18n";
import { islandFormatters } from "../ui/i18n-format";
import { slotLabel, visitSentenceIn } from "./booking-words";
import { ConfirmBadge } from "./form-parts";

interface Props {
  supportEmail: string;
  supportPhone: string;
  /** The `booking` namespace in the page's language (docs/decisions.md#64). */
  i18n: IslandMessages;
}

/**
 * The next steps' titles and texts (booking.done.step1 … step4). The third is the spec's line on the inspection; the
 * visit's whole length follows it from the record (docs/decisions.md#59).
 */
const NEXT_STEPS = [
  ["booking.done.step1", "booking.done.step1Text"],
  ["booking.done.step2", "booking.done.step2Text"],
  ["booking.done.step3", "booking.done.step3Text"],
  ["booking.done.step4", "booking.done.step4Text"],
] as const;

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

/** One message with elements in it: each value named in `elements` is drawn as that element, in the message's order. */
function withElements(t: IslandT, key: string, elements: Record<string, ReactNode>): ReactNode[] {
  const names = Object.keys(elements);
  // A private-use character marks where each element goes: no message text contains one.
  const marks = Object.fromEntries(names.map((name, i) => [name, `\uE000${i}\uE000`]));
  return t(key, marks)
    .split(/\uE000(\d+)\uE000/)
    .map((part, i) => {
      if (i % 2 === 0) return part;
      const name = names[Number(part)]!;
      return <Fragment key={name}>{elements[name]}</Fragment>;
    });
}

function Support({ t, supportEmail, supportPhone }: Omit<Props, "i18n"> & { t: IslandT }) {
  return (
    <p className="mt-8 text-center text-sm text-ink/80">
      {withElements(t, "booking.done.support", {
        email: (
          <a className="link" href={`mailto:${supportEmail}`}>
            {supportEmail}
          </a>
        ),
        phone: (
          <a className="link" href={`tel:${supportPhone.replace(/[^\d+]/g, "")}`}>
            {supportPhone}
          </a>
        ),
      })}
    </p>
  );
}

export default function BookingConfirmation({ i18n, ...contact }: Props) {
  const t = useMemo(() => islandTranslator(i18n), [i18n]);
  const f = islandFormatters(i18n);
  const here = (path: string) => localePath(path, intlLocale(t.locale));
  // Read once, then removed (customer-side §2.11): a reload shows the page without it.
  const [record] = useState<ConfirmationRecord | null>(takeConfirmation);

  if (!record) {
    return (
      <div className="card mt-6 text-center">
        <h1 className="font-serif text-3xl font-bold text-green-900">{t("booking.done.none")}</h1>
        <p className="mt-3 text-ink/80">{t("booking.done.noneText")}</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <a href={here("/schedule-inspection")} className="btn btn-gold">
            {t("booking.done.schedule")}
          </a>
          <a href={here("/")} className="btn btn-outline">
            {t("booking.done.home")}
          </a>
        </div>
        <Support t={t} {...contact} />
      </div>
    );
  }

  const place = [record.city, [record.state, record.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  const access = record.accessMethod
    ? (ACCESS_METHODS as readonly string[]).includes(record.accessMethod)
      ? t(`booking.method.${record.accessMethod}`)
      : record.accessMethod
    : null;

  return (
    <>
      <div className="text-center">
        <ConfirmBadge />
        <h1 className="mt-4 font-serif text-3xl font-bold text-green-900 md:text-4xl">{t("booking.done.heading")}</h1>
        <p className="mt-2 text-ink/80">{t("booking.done.thanks")}</p>
      </div>

      <section className="card mt-8" aria-labelledby="booking-details">
        <h2 id="booking-details" className="font-serif text-xl font-bold text-green-900">
          {t("booking.done.details")}
        </h2>
        <dl className="booking-details mt-4">
          <dt>{t("booking.done.date")}</dt>
          <dd data-testid="confirmation-date">{f.longDate(record.scheduledDate)}</dd>
          <dt>{t("booking.done.time")}</dt>
          <dd data-testid="confirmation-time">{slotLabel(t.locale, record.selectedTime)}</dd>
          <dt>{t("booking.done.address")}</dt>
          <dd data-testid="confirmation-address">
            {record.address}
            {place && <span className="block text-ink/75">{place}</span>}
          </dd>
          {access && (
            <>
              <dt>{t("booking.done.access")}</dt>
              <dd data-testid="confirmation-access">{access}</dd>
            </>
          )}
        </dl>
        <p className="mt-4 rounded-lg bg-green-900/5 px-3 py-2 text-sm">
          {t("booking.done.emailSent", { email: record.email || "none" })}
        </p>
      </section>

      <section className="card mt-6" aria-labelledby="next-steps">
        <h2 id="next-steps" className="font-serif text-xl font-bold text-green-900">
          {t("booking.done.next")}
        </h2>
        <ol className="mt-4 space-y-4">
          {NEXT_STEPS.map(([title, text], i) => (
            <li key={title} className="flex gap-3">
              <span className="wizard-step-number shrink-0" aria-hidden="true">
                {i + 1}
              </span>
              <div>
                <p className="font-semibold">{t(title)}</p>
                <p className="text-sm text-ink/80">{t(text)}</p>
                {title === "booking.done.step3" && (
                  <p className="text-sm text-ink/80" data-testid="confirmation-visit-length">
                    {visitSentenceIn(t, record.visitMinutes)}
                  </p>
                )}
              </div>
            </li>
          ))}
        </ol>
      </section>

      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a href={here("/")} className="btn btn-green">
          {t("booking.done.home")}
        </a>
        <a href={here("/pricing")} className="btn btn-outline">
          {t("booking.done.plans")}
        </a>
      </div>
      <Support t={t} {...contact} />
    </>
  );
}
