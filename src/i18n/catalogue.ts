// The one message catalogue (docs/decisions.md#64): ICU messages in src/i18n/locales/<locale>/<namespace>.json, flat
// maps of key to message. A message's full key is "<namespace>.<key>": t("marketing.hero.title") reads "hero.title" of
// marketing.json. Server side only (it reads the files); islands receive their namespace's messages parsed
// (islandMessages) and format them with islands/ui/i18n.ts, so no island ships the ICU parser.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type MessageFormatElement,
  TYPE,
  isLiteralElement,
  isPluralElement,
  isSelectElement,
  isTagElement,
  parse,
} from "@formatjs/icu-messageformat-parser";
import { IntlMessageFormat, type PrimitiveType } from "intl-messageformat";
import { DEFAULT_LOCALE, LOCALES, type Locale, PSEUDO_LOCALE, PSEUDO_MARKERS, type RenderLocale } from "./locales.js";

export const LOCALES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "locales");

type Catalogue = Map<string, string>;

function load(locale: Locale): Catalogue {
  const catalogue: Catalogue = new Map();
  const dir = path.join(LOCALES_DIR, locale);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const namespace = file.slice(0, -".json".length);
    const messages = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Record<string, string>;
    for (const [key, message] of Object.entries(messages)) catalogue.set(`${namespace}.${key}`, message);
  }
  return catalogue;
}

const catalogues = new Map<Locale, Catalogue>(LOCALES.map((locale) => [locale, load(locale)]));

/** Every full key of a language's catalogue (the completeness test reads them). */
export const catalogueKeys = (locale: Locale): string[] => [...catalogues.get(locale)!.keys()];

/** The message text of a key, or undefined. */
export const messageOf = (locale: Locale, key: string) => catalogues.get(locale)!.get(key);

/** A French key missing falls back to English; a key missing in English is a programming error. */
function sourceOf(locale: RenderLocale, key: string): string {
  const message = (locale !== PSEUDO_LOCALE && messageOf(locale, key)) || messageOf(DEFAULT_LOCALE, key);
  if (message === undefined) throw new Error(`No message "${key}" in the catalogue (src/i18n/locales)`);
  return message;
}

/** One message's AST, the pseudo locale's wrapped in its markers. */
function astOf(locale: RenderLocale, key: string): MessageFormatElement[] {
  const ast = parse(sourceOf(locale, key));
  if (locale !== PSEUDO_LOCALE) return ast;
  return [{ type: TYPE.literal, value: PSEUDO_MARKERS[0] }, ...ast, { type: TYPE.literal, value: PSEUDO_MARKERS[1] }];
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The same AST with its own text escaped for HTML, inside plurals, selects and tags too. */
function escapedAst(ast: MessageFormatElement[]): MessageFormatElement[] {
  return ast.map((element) => {
    if (isLiteralElement(element)) return { ...element, value: escapeHtml(element.value) };
    if (isTagElement(element)) return { ...element, children: escapedAst(element.children) };
    if (isPluralElement(element) || isSelectElement(element)) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([name, option]) => [name, { ...option, value: escapedAst(option.value) }]),
      );
      return { ...element, options } as MessageFormatElement;
    }
    return element;
  });
}

const compiled = new Map<string, IntlMessageFormat>();
function formatOf(locale: RenderLocale, key: string, html = false): IntlMessageFormat {
  const id = `${locale}|${html}|${key}`;
  let format = compiled.get(id);
  if (!format) {
    const ast = astOf(locale, key);
    format = new IntlMessageFormat(html ? escapedAst(ast) : ast, locale === PSEUDO_LOCALE ? DEFAULT_LOCALE : locale);
    compiled.set(id, format);
  }
  return format;
}

export type MessageValues = Record<string, PrimitiveType>;
/** Rich-text tags of a message (`<link>…</link>`): each gets its inner HTML, already escaped, and returns HTML. */
export type MessageTags = Record<string, (inner: string) => string>;

export interface Translator {
  locale: RenderLocale;
  /** A message as plain text (EJS's <%= %> escapes it): t("marketing.hero.title", { count: 3 }). */
  (key: string, values?: MessageValues): string;
  /**
   * A message as HTML for <%- %>: its values are escaped, and each of its tags is rendered by `tags`:
   * t.html("marketing.help", { phone }, { link: (inner) => `<a href="/contact">${inner}</a>` }).
   */
  html(key: string, values?: MessageValues, tags?: MessageTags): string;
}

/** The translator of a language: `t(key, values)`. */
export function translator(locale: RenderLocale): Translator {
  const t = ((key: string, values?: MessageValues) => String(formatOf(locale, key).format(values))) as Translator;
  t.locale = locale;
  t.html = (key, values = {}, tags = {}) => {
    const escaped = Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, typeof value === "string" ? escapeHtml(value) : value]),
    );
    const rich = Object.fromEntries(
      Object.entries(tags).map(([name, render]) => [name, (chunks: unknown[]) => render(chunks.join(""))]),
    );
    const out = formatOf(locale, key, true).format({ ...escaped, ...rich } as MessageValues);
    return Array.isArray(out) ? out.join("") : String(out);
  };
  return t;
}

/**
 * The key of a label the code knows by its English text (a band, a category): labelKey("scoring.band", "Well Appointed")
 * is "scoring.band.well-appointed". The prefix, written as a literal, marks the keys under it as used.
 */
export const labelKey = (prefix: string, label: string) =>
  `${prefix}.${label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}`;

/** What an island receives to format its own messages: its namespace's ASTs, in the page's language. */
export interface IslandMessages {
  locale: RenderLocale;
  messages: Record<string, MessageFormatElement[]>;
}

/** The messages of one or more namespaces (an island's own), parsed, for its props (islands/ui/i18n.ts). */
export function islandMessages(locale: RenderLocale, ...namespaces: string[]): IslandMessages {
  const prefixes = namespaces.map((ns) => `${ns}.`);
  const keys = catalogueKeys(DEFAULT_LOCALE).filter((key) => prefixes.some((p) => key.startsWith(p)));
  return { locale, messages: Object.fromEntries(keys.map((key) => [key, astOf(locale, key)])) };
}
