// An island's messages (docs/decisions.md#64): the server passes its namespace's messages, already parsed, in the
// page's language (src/i18n/catalogue.ts islandMessages), as the `i18n` prop; this formats them. vite.config.ts
// builds islands with the ICU parser left out (@formatjs/icu-messageformat-parser/no-parser): only the formatter ships.
import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";
import type { IslandMessages } from "../../src/i18n/catalogue";
import { formatters } from "../../src/i18n/format";
import { intlLocale } from "../../src/i18n/locales";

export type { IslandMessages };
export type IslandT = ((key: string, values?: Record<string, PrimitiveType>) => string) & {
  locale: IslandMessages["locale"];
};

/** `t(key, values)` over an island's messages; a key it was not given throws, as the server's does. */
export function islandTranslator(bundle: IslandMessages): IslandT {
  const compiled = new Map<string, IntlMessageFormat>();
  const lang = intlLocale(bundle.locale);
  const t = ((key, values) => {
    let format = compiled.get(key);
    if (!format) {
      const ast = bundle.messages[key];
      if (!ast) throw new Error(`No message "${key}" in this island's messages`);
      format = new IntlMessageFormat(ast, lang);
      compiled.set(key, format);
    }
    return String(format.format(values));
  }) as IslandT;
  t.locale = bundle.locale;
  return t;
}

/** Money, numbers, dates and times in the island's language (src/i18n/format.ts). */
export const islandFormatters = (bundle: IslandMessages, timeZone?: string) => formatters(bundle.locale, timeZone);
