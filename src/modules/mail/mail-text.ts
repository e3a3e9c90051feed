// What the customer e-mails share in the customer's language (docs/decisions.md#64): the translator, dates, a
// booking's time and how long a visit takes. English keeps the spec's texts byte for byte.
import { DEFAULT_LOCALE, type Formatters, type Translator, formatters, translator } from "../../i18n/index.js";
import type { RenderLocale } from "../../i18n/locales.js";
import { DAY_PARTS, slotTo24h } from "../../shared/business-time.js";
import { INSPECTION_ITSELF_MINUTES } from "../../shared/visit-length.js";

/** French writes the first of a month "1er": "1er décembre 2026" (Intl writes "1 décembre"). */
export const firstOfMonth = (locale: RenderLocale, date: string) =>
  locale === "fr-CA" ? date.replace(/(^|[^\d])1 (?=\p{L})/u, (_, before: string) => `${before}1er\u00a0`) : date;

/** The e-mail's language and its formats (a French date on the first of a month reads "1er"). */
export function mailText(locale: RenderLocale = DEFAULT_LOCALE, timeZone?: string) {
  const t = translator(locale);
  const base = formatters(locale, timeZone);
  const f: Formatters = {
    ...base,
    longDate: (value) => firstOfMonth(locale, base.longDate(value)),
    dayMonth: (value) => firstOfMonth(locale, base.dayMonth(value)),
    dateTime: (value, options) => firstOfMonth(locale, base.dateTime(value, options)),
  };
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
