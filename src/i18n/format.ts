// Numbers, money, dates and times in the page's language, through Intl (docs/decisions.md#64). Pure and free of
// Node: the islands import it too. English keeps the spec's exact texts ("$412.00", "2:00 PM",
// "Wednesday, December 2, 2026"); Canadian French writes "412,00 $", "14 h", "mercredi 2 décembre 2026".
import { clockFormat } from "../shared/business-time.js";
import { PSEUDO_LOCALE, PSEUDO_MARKERS, type RenderLocale, intlLocale } from "./locales.js";

/** A time on the hour in French drops its minutes: "14 h", but "14 h 30" (the OQLF accepts both; Haven writes this one). */
const frenchHour = (text: string) => text.replace(/(\d) h 00\b/g, "$1 h");

/**
 * French writes the first of a month "1er" ("le 1er décembre 2026"), which Intl does not: the day part "1" becomes
 * "1er", followed by a non-breaking space so the two never part at a line's end.
 */
function frenchText(format: Intl.DateTimeFormat, date: Date): string {
  const parts = format.formatToParts(date);
  const text = parts
    .map((part, i) =>
      part.type === "day" && part.value === "1"
        ? "1er"
        : i > 0 && parts[i - 1]!.type === "day" && parts[i - 1]!.value === "1" && part.type === "literal"
          ? part.value.replace(/^ /, "\u00a0")
          : part.value,
    )
    .join("");
  return frenchHour(text);
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
/** A 'YYYY-MM-DD' date is read at UTC noon and formatted in UTC: a date is a date, whatever the zone. */
const dateOf = (value: string | Date) =>
  typeof value === "string" && isoDate.test(value) ? new Date(`${value}T12:00:00Z`) : new Date(value);

export interface Formatters {
  locale: RenderLocale;
  /** Dollars in CAD: "$412.00" / "412,00 $"; `{ whole: true }` for a round price: "$149" / "149 $". */
  money(dollars: number, options?: { whole?: boolean }): string;
  /** A plain number: "48,300,000" / "48 300 000". */
  number(value: number): string;
  /** A share from 0 to 1: "13%" / "13 %". */
  percent(share: number): string;
  /** "Wednesday, December 2, 2026" / "mercredi 2 décembre 2026" ("mardi 1er décembre 2026"). A 'YYYY-MM-DD' string or an instant in the zone. */
  longDate(value: string | Date): string;
  /** "December 2" / "2 décembre" ("1er décembre"), for a sentence ("on {date}" / "le {date}" is the message's own). */
  dayMonth(value: string | Date): string;
  /** "Dec 2, 2026" / "2 déc. 2026". */
  shortDate(value: string | Date): string;
  /** "2:00 PM" / "14 h"; "2:30 PM" / "14 h 30". An instant, in the zone. */
  time(instant: string | Date): string;
  /** Any other Intl date options, with the house's time styles applied ("2:00 PM", "14 h"): app.locals.clockTime's twin. */
  dateTime(value: string | Date, options: Intl.DateTimeFormatOptions): string;
}

const cache = new Map<string, Formatters>();

/** The formatters of a language in a time zone (the business zone for instants); one set per pair, reused. */
export function formatters(locale: RenderLocale, timeZone = "America/Toronto"): Formatters {
  const cacheKey = `${locale}|${timeZone}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const lang = intlLocale(locale);
  const french = lang === "fr-CA";
  const formats = new Map<string, { format(d: Date): string }>();
  const formatOf = (options: Intl.DateTimeFormatOptions) => {
    const key = JSON.stringify(options);
    let format = formats.get(key);
    if (!format) {
      const made = french ? new Intl.DateTimeFormat(lang, options) : clockFormat(options);
      format = french ? { format: (d: Date) => frenchText(made as Intl.DateTimeFormat, d) } : made;
      formats.set(key, format);
    }
    return format;
  };
  const money = new Intl.NumberFormat(lang, { style: "currency", currency: "CAD", currencyDisplay: "narrowSymbol" });
  const wholeMoney = new Intl.NumberFormat(lang, {
    style: "currency",
    currency: "CAD",
    currencyDisplay: "narrowSymbol",
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  const number = new Intl.NumberFormat(lang);
  const percent = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });
  const onDate = (options: Intl.DateTimeFormatOptions) => (value: string | Date) => {
    const utc = typeof value === "string" && isoDate.test(value);
    return formatOf({ ...options, timeZone: utc ? "UTC" : (options.timeZone ?? timeZone) }).format(dateOf(value));
  };
  const made: Formatters = {
    locale,
    money: (dollars, options) => (options?.whole ? wholeMoney : money).format(dollars),
    number: (value) => number.format(value),
    percent: (share) => percent.format(share),
    longDate: onDate({ weekday: "long", year: "numeric", month: "long", day: "numeric" }),
    dayMonth: onDate({ month: "long", day: "numeric" }),
    shortDate: onDate({ month: "short", day: "numeric", year: "numeric" }),
    time: (instant) => formatOf({ timeZone, hour: "numeric", minute: "2-digit" }).format(new Date(instant)),
    dateTime: (value, options) => onDate(options)(value),
  };
  // The pseudo locale marks formatted values as it marks messages (tests/support/pseudo-locale.ts).
  if (locale === PSEUDO_LOCALE) {
    const [open, close] = PSEUDO_MARKERS;
    for (const [name, format] of Object.entries(made))
      if (typeof format === "function")
        (made as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
          `${open}${(format as (...a: unknown[]) => string)(...args)}${close}`;
  }
  cache.set(cacheKey, made);
  return made;
}

/** Names joined as the language lists them: "Email, City and Postal code" / "Courriel, Ville et Code postal". */
export function listText(locale: RenderLocale, items: string[]): string {
  const text = new Intl.ListFormat(intlLocale(locale), { type: "conjunction" }).format(items);
  return locale === PSEUDO_LOCALE ? `${PSEUDO_MARKERS[0]}${text}${PSEUDO_MARKERS[1]}` : text;
}

/**
 * A North American phone number as the language writes it (the glossary): English keeps the number as configured,
 * "(613) 555-0142"; French writes "613-555-0142". A number of any other shape is left as it is.
 */
export function phoneText(locale: RenderLocale, phone: string): string {
  if (locale !== "fr-CA") return phone;
  const digits = phone.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");
  if (digits.length !== 10 || !/^[\d\s().+-]+$/.test(phone)) return phone;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}
