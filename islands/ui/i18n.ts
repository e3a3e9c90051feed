// An island's messages (docs/decisions.md#64): the server passes its namespace's messages, already parsed, in the
// page's language (src/i18n/catalogue.ts islandMessages), as the `i18n` prop; this formats them. Neither the ICU
// parser nor intl-messageformat's runtime ships: the ASTs are walked here with Intl alone (about 0.6 KB instead of
// 3 KB gzip), which keeps the checkout and intake pages within the 90 KB budget (docs/architecture.md). The server
// formats the same messages with intl-messageformat; islands/ui/i18n.test.ts checks both agree.
import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type { IslandMessages } from "../../src/i18n/catalogue";
import { intlLocale } from "../../src/i18n/locales";

export type { IslandMessages };
type Value = string | number | boolean | null | undefined | Date;
export type IslandT = ((key: string, values?: Record<string, Value>) => string) & {
  locale: IslandMessages["locale"];
};

// The parser's element types (TYPE in @formatjs/icu-messageformat-parser), by number: the enum is not imported.
const LITERAL = 0;
const ARGUMENT = 1;
const NUMBER = 2;
const SELECT = 5;
const PLURAL = 6;
const POUND = 7;
const TAG = 8;

/** The text of a parsed message with its values: literals, arguments, numbers, selects, plurals and tags' text. */
function formatAst(ast: MessageFormatElement[], values: Record<string, Value>, lang: string, pound?: number): string {
  let out = "";
  for (const el of ast as (MessageFormatElement & Record<string, unknown>)[]) {
    const value = "value" in el ? values[el.value as string] : undefined;
    switch (el.type as number) {
      case LITERAL:
        out += el.value as string;
        break;
      case ARGUMENT:
        out += String(value ?? "");
        break;
      case NUMBER: {
        const style = el.style as { parsedOptions?: Intl.NumberFormatOptions } | string | null;
        const options =
          typeof style === "string" ? (style === "percent" ? { style: "percent" as const } : {}) : style?.parsedOptions;
        out += new Intl.NumberFormat(lang, options ?? {}).format(Number(value));
        break;
      }
      case POUND:
        out += new Intl.NumberFormat(lang).format(pound ?? 0);
        break;
      case SELECT: {
        const options = el.options as Record<string, { value: MessageFormatElement[] }>;
        out += formatAst((options[String(value)] ?? options.other)!.value, values, lang, pound);
        break;
      }
      case PLURAL: {
        const options = el.options as Record<string, { value: MessageFormatElement[] }>;
        const n = Number(value) - ((el.offset as number) ?? 0);
        const rule = new Intl.PluralRules(lang, { type: el.pluralType as Intl.PluralRuleType }).select(n);
        out += formatAst((options[`=${Number(value)}`] ?? options[rule] ?? options.other)!.value, values, lang, n);
        break;
      }
      case TAG:
        out += formatAst(el.children as MessageFormatElement[], values, lang, pound);
        break;
      default:
        // Dates and times are formatted before they are given (islandFormatters), never inside a message.
        out += String(value ?? "");
    }
  }
  return out;
}

/** `t(key, values)` over an island's messages; a key it was not given throws, as the server's does. */
export function islandTranslator(bundle: IslandMessages): IslandT {
  const lang = intlLocale(bundle.locale);
  const t = ((key, values = {}) => {
    const ast = bundle.messages[key];
    if (!ast) throw new Error(`No message "${key}" in this island's messages`);
    return formatAst(ast, values, lang);
  }) as IslandT;
  t.locale = bundle.locale;
  return t;
}

// islandFormatters (money, dates, times) is in ./i18n-format.ts: an island that only translates loads no date code.
