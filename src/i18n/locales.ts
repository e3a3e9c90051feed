// The languages Haven speaks (docs/decisions.md#64, #65). Pure: the server, the islands and the tests share it.

/** The customer-facing languages, English first: the default and x-default. */
export const LOCALES = ["en-CA", "fr-CA"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en-CA";

/**
 * Tests only: English messages, each wrapped in PSEUDO_MARKERS, so a page rendered in it shows any text that did not
 * come from the catalogue (tests/support/pseudo-locale.ts).
 */
export const PSEUDO_LOCALE = "en-XA";
export type RenderLocale = Locale | typeof PSEUDO_LOCALE;
export const PSEUDO_MARKERS = ["⟦", "⟧"] as const;

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** The address prefix of each language: English pages have none, French ones live under /fr (docs/decisions.md#65). */
export const LOCALE_PREFIX: Record<Locale, string> = { "en-CA": "", "fr-CA": "/fr" };

/** The language Intl formats in: the pseudo locale formats as English. */
export const intlLocale = (locale: RenderLocale): Locale => (locale === PSEUDO_LOCALE ? DEFAULT_LOCALE : locale);
