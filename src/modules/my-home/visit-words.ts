// How the Visits pages say a visit's date, time and title in the page's language (docs/decisions.md#70). The
// service keeps its English labels (e-mails, the API); English pages show them as they are, French ones say them
// again from the catalogue: day parts as the booking wizard says them, clock times "14 h 30", windows "de 8 h à 17 h".
import type { Response } from "express";
import { DEFAULT_LOCALE, type Formatters, type Translator, catalogueKeys } from "../../i18n/index.js";
import { DAY_PARTS } from "../../shared/business-time.js";
import { planServiceByKey } from "../plans/index.js";
import type { VisitItem } from "./visit-items.js";

/** '9:30 AM' → '9 h 30', '5 PM' → '17 h'; null when it is not a clock time. */
function frenchClock(text: string, meridiem?: string): string | null {
  const m = /^(\d{1,2})(?::(\d{2}))?(?: ?(AM|PM))?$/.exec(text.trim());
  const half = m?.[3] ?? meridiem;
  if (!m || !half) return null;
  const hour = (Number(m[1]) % 12) + (half === "PM" ? 12 : 0);
  return `${hour} h${m[2] && m[2] !== "00" ? ` ${m[2]}` : ""}`;
}

const OWN_TITLES = new Set(catalogueKeys(DEFAULT_LOCALE).filter((key) => key.startsWith("my-home-visits.service.")));

/** A plan service's own title in the page's language (plans.entitlement.* or this page's service.*); else as stored. */
function serviceTitle(t: Translator, service: string | null, title: string): string {
  const definition = service ? planServiceByKey(service) : null;
  if (!definition || definition.title !== title) return title;
  const own = `my-home-visits.service.${definition.key.replace("/", ".")}`;
  return OWN_TITLES.has(own) ? t(own) : t(`plans.entitlement.${definition.entitlement}`);
}

/** The Visits pages' words for dates, times and titles, from the request's t and intl. */
export function visitWords(res: Response) {
  const t = res.locals.t as Translator;
  const intl = res.locals.intl as Formatters;
  const french = t.locale === "fr-CA";
  /** '9:30 AM' / '9 h 30' through the formatters (a formatted value, like a date); other text as it is. */
  const clock = (text: string) => {
    const m = /^(\d{1,2}):(\d{2}) ?(AM|PM)$/.exec(text.trim());
    if (!m) return text;
    const hour = (Number(m[1]) % 12) + (m[3] === "PM" ? 12 : 0);
    const at = new Date(Date.UTC(2000, 0, 1, hour, Number(m[2])));
    return intl.dateTime(at, { hour: "numeric", minute: "2-digit", timeZone: "UTC" });
  };
  /** A booking's slot: 'Morning (8:00 AM - 12:00 PM)' / 'Matin (de 8 h à 12 h)'; '9:30 AM' / '9 h 30'. */
  const slot = (value: string) =>
    value in DAY_PARTS
      ? t("booking.book.partTime", { part: t(`booking.book.part.${value}`), range: t(`booking.book.range.${value}`) })
      : clock(value);
  /** An item's time as the service labels it: a slot, a clock time, or a window '8 AM–5 PM' / 'de 8 h à 17 h'. */
  const time = (item: Pick<VisitItem, "time" | "timeSlot">) => {
    if (item.timeSlot) return slot(item.timeSlot);
    const [from, to] = item.time.split("–");
    if (!to) return clock(item.time);
    if (!french) return t("my-home-visits.window", { start: from!, end: to });
    const end = /(AM|PM)$/.exec(to.trim())?.[1];
    const start = frenchClock(from!, end);
    const finish = frenchClock(to);
    return start && finish ? t("my-home-visits.window", { start, end: finish }) : item.time;
  };
  return {
    longDate: (date: string) => intl.longDate(date),
    /** 'Wed, Dec 2' / 'mer. 2 déc.' */
    shortDate: (date: string) => intl.dateTime(date, { weekday: "short", month: "short", day: "numeric" }),
    /** 'December 2026' / 'décembre 2026' of a 'YYYY-MM'. */
    month: (month: string) => intl.dateTime(`${month}-01`, { month: "long", year: "numeric" }),
    slot,
    time,
    /** A visit's title: a booking's "Home inspection" and a plan service's in the catalogue's words; others stay. */
    title: (item: Pick<VisitItem, "service" | "title"> & { kind?: VisitItem["kind"] }) =>
      item.kind === "inspection" && item.title === "Home inspection"
        ? t("my-home-visits.homeInspection")
        : serviceTitle(t, item.service, item.title),
  };
}
