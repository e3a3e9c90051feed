// How maintenance says a visit to its customer (docs/decisions.md#64): its length, its window and its time in the
// e-mail's language, for the reminders, the plan-visit confirmations and their calendar files.
import { DEFAULT_LOCALE, type Translator, catalogueKeys } from "../../i18n/index.js";
import { planServiceByKey } from "../plans/index.js";
import { slotText } from "../mail/index.js";
import { formatDuration } from "./maintenance.constants.js";

/** A task's length: formatDuration's words in English ("2 hours", "45 minutes"), the catalogue's in French. */
export function durationText(t: Translator, minutes: number): string {
  if (t.locale !== "fr-CA") return formatDuration(minutes);
  return minutes < 60
    ? t("mail.visit.minutes", { minutes })
    : t("mail.visit.hours", { hours: Math.round((minutes / 60) * 100) / 100 });
}

/** A plan visit's window: '8 AM–5 PM' in English, 'de 8 h à 17 h' in French. */
export function windowText(t: Translator, window: { start: string; minutes: number; label: string }): string {
  if (t.locale !== "fr-CA") return window.label;
  const at = (minutes: number) =>
    `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${String(minutes % 60).padStart(2, "0")}` : ""}`;
  const start = Number(window.start.slice(0, 2)) * 60 + Number(window.start.slice(3, 5));
  return t("mail.reminder.window", { start: at(start), end: at(start + window.minutes) });
}

/** A task's time (maintenance.ics.ts taskWindow): its window, or its clock time ('10:00 AM' / '10 h'). */
export const taskTimeText = (t: Translator, window: { start: string; minutes: number; label: string }) =>
  window.label.includes("–") ? windowText(t, window) : slotText(t, window.label);

const OWN_TITLES = new Set(catalogueKeys(DEFAULT_LOCALE).filter((key) => key.startsWith("my-home-visits.service.")));

/**
 * A plan visit's title in the language: a plan service's stored English title said by the catalogue (My Home's
 * service names, else the plan entitlement's); a title staff changed stays as typed.
 */
export function planServiceTitle(t: Translator, service: string | null | undefined, title: string): string {
  if (t.locale === DEFAULT_LOCALE) return title;
  const definition = service ? planServiceByKey(service) : null;
  if (!definition || definition.title !== title) return title;
  const own = `my-home-visits.service.${definition.key.replace("/", ".")}`;
  return OWN_TITLES.has(own) ? t(own) : t(`plans.entitlement.${definition.entitlement}`);
}
