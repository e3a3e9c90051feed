// A refusal the server words in English (a service's message, zod's field messages) said again in the homeowner's
// language (docs/decisions.md#70): services and schemas keep their English (the API's contract and its tests), and a
// homeowner page or call finds the catalogue message whose English text it is. `errors.api.*` holds the services'
// sentences; `forms.*` the field patterns ("{field} is required"), whose field is a form label said again too.
// A message the catalogue lacks gives way to a general sentence in French, never English on a French page.
import { type Translator, catalogueKeys, messageOf } from "./catalogue.js";
import { DEFAULT_LOCALE } from "./locales.js";

/** Catalogue prefixes of whole sentences and of field patterns; labels a pattern's {field} may be. */
const SENTENCES = "errors.api.";
const PATTERNS = "forms.";
const LABELS = ["onboarding.field.", "intake.field.", "booking.error.", "billing-pages.field."];

interface Pattern {
  key: string;
  names: string[];
  match: RegExp;
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile() {
  const exact = new Map<string, string>();
  const patterns: Pattern[] = [];
  const labels = new Map<string, string>();
  for (const key of catalogueKeys(DEFAULT_LOCALE)) {
    const text = messageOf(DEFAULT_LOCALE, key)!;
    if (LABELS.some((prefix) => key.startsWith(prefix)) && !labels.has(text)) labels.set(text, key);
    if (!key.startsWith(SENTENCES) && !key.startsWith(PATTERNS)) continue;
    // Simple arguments only ({field}); a plural, select or tag is never a server's sentence.
    if (/[<#]|\{\s*\w+\s*,/.test(text)) continue;
    const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    if (!names.length) {
      if (!exact.has(text.replace(/''/g, "'"))) exact.set(text.replace(/''/g, "'"), key);
      continue;
    }
    const source = text
      .split(/\{\w+\}/)
      .map((part) => literal(part.replace(/''/g, "'")))
      .join("(.+?)");
    patterns.push({ key, names, match: new RegExp(`^${source}$`) });
  }
  return { exact, patterns, labels };
}

let compiled: ReturnType<typeof compile> | null = null;

/** `message` in t's language: itself in English; the catalogue's French for it, or the general French sentence. */
export const serverMessage = (t: Translator, message: string): string =>
  knownServerMessage(t, message) ?? t("errors.api.general");

/** `message` in t's language, or null when it is French and the catalogue does not have it. */
export function knownServerMessage(t: Translator, message: string): string | null {
  if (t.locale !== "fr-CA") return message;
  compiled ??= compile();
  const { exact, patterns, labels } = compiled;
  const key = exact.get(message);
  if (key) return t(key);
  for (const pattern of patterns) {
    const found = pattern.match.exec(message);
    if (!found) continue;
    const values = Object.fromEntries(
      pattern.names.map((name, i) => {
        const value = found[i + 1]!;
        const label = labels.get(value);
        return [name, label ? t(label) : value];
      }),
    );
    return t(pattern.key, values);
  }
  return null;
}

/** Each field's message in t's language (a 400's `fields`, a page form's errors). */
export const serverFields = (t: Translator, fields: Record<string, string> | undefined) =>
  Object.fromEntries(Object.entries(fields ?? {}).map(([name, message]) => [name, serverMessage(t, message)]));
