// What the customer e-mails share in the customer's language (docs/decisions.md#64): the translator, dates, a
// booking's time and how long a visit takes. English keeps the spec's texts byte for byte.
import { DEFAULT_LOCALE, type Formatters, type Translator, formatters, translator } from "../../i18n/index.js";
import type { RenderLocale } from "../../i18n/locales.js";
import { DAY_PARTS, slotTo24h } from "../../shared/business-time.js";
import { INSPECTION_ITSELF_MINUTES } from "../../shared/visit-length.js";

/** The e-mail's language and its formats (the formatters write a French first of the month "1er"). */
export function mailText(locale: RenderLocale = DEFAULT_LOCALE, timeZone?: string) {
  const t = translator(locale);
  const f: Formatters = formatters(locale, timeZone);
  return { t, f, locale };
}

/** A booking's slot: 'Morning (8:00 AM - 12:00 PM)' / 'Matin (de 8 h à 12 h)'; '9:30 AM' / '9 h 30'. */
export function slotText(t: Translator, slot: string): string {
  if (slot in DAY_PARTS) return t("mail.slot.part", { part: slot });
  const hhmm = t.locale === "fr-CA" ? slotTo24h(slot) : null;
  return hhmm ? `${Number(hhmm.slice(0, 2))} h${hhmm.endsWith(":00") ? "" : ` ${hhmm.slice(3)}`}` : slot;
}

/** The visit's length, said once in the e-mail's language (docs/decisions.md#59). */
export function visitSentence(t: Translator, visitMinutes: number | null | undefined): string {
  const duration = visitMinutes
    ? visitMinutes % 60 === 0
      ? t("mail.visit.hours", { hours: visitMinutes / 60 })
      : t("mail.visit.minutes", { minutes: visitMinutes })
    : null;
  return t("mail.visit.sentence", {
    length: duration ? t("mail.visit.about", { duration }) : t("mail.visit.unknown"),
    inspection: INSPECTION_ITSELF_MINUTES,
  });
}

/** How the inspector gets in ('lockbox', 'smart-lock', onboarding's 'owner-present'…) in the e-mail's language. */
export const accessMethodText = (t: Translator, method: string) =>
  t("mail.booking.accessMethod", { method: method.replace(/-/g, "_") });
