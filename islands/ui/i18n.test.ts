// The islands' own walk of a parsed message (islands/ui/i18n.ts) says what the server's intl-messageformat says, for
// every message of the catalogue with rich tags left out (islands draw those themselves), in both languages and the
// pseudo locale, with each select's every choice and plurals at 0, 1, 2 and 21.
import { type MessageFormatElement, TYPE, parse } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { catalogueKeys, islandMessages, messageOf, translator } from "../../src/i18n/catalogue";
import { LOCALES, PSEUDO_LOCALE, type RenderLocale } from "../../src/i18n/locales";
import { islandTranslator } from "./i18n";

/** Each argument of a message, with the choices of a select and whether it counts (plural, number). */
function argumentsOf(ast: MessageFormatElement[], found = new Map<string, string[] | "number" | "text">()) {
  for (const el of ast) {
    if (el.type === TYPE.argument && !found.has(el.value)) found.set(el.value, "text");
    if (el.type === TYPE.number || el.type === TYPE.plural) found.set(el.value, "number");
    if (el.type === TYPE.select) found.set(el.value, Object.keys(el.options));
    if (el.type === TYPE.select || el.type === TYPE.plural)
      for (const option of Object.values(el.options)) argumentsOf(option.value, found);
    if (el.type === TYPE.tag) found.set("<tag>", "text");
  }
  return found;
}

/** A few sets of values that between them take every branch. */
function valueSets(args: Map<string, string[] | "number" | "text">): Record<string, string | number>[] {
  const sets: Record<string, string | number>[] = [];
  const kinds = [...args.values()];
  const counts = kinds.includes("number") ? [0, 1, 2, 21] : [0];
  const choices = Math.max(1, ...kinds.map((kind) => (Array.isArray(kind) ? kind.length : 1)));
  for (const n of counts) {
    for (let choice = 0; choice < choices; choice++) {
      const values: Record<string, string | number> = {};
      for (const [name, kind] of args)
        values[name] = kind === "number" ? n : kind === "text" ? `‹${name}›` : (kind[choice % kind.length] ?? "other");
      sets.push(values);
    }
  }
  return sets;
}

describe("islands format a message as the server does", () => {
  it.each<RenderLocale>([...LOCALES, PSEUDO_LOCALE])("every message in %s", (locale) => {
    const server = translator(locale);
    const namespaces = [...new Set(catalogueKeys("en-CA").map((key) => key.split(".")[0]!))];
    const island = islandTranslator(islandMessages(locale, ...namespaces));
    let compared = 0;
    for (const key of catalogueKeys("en-CA")) {
      const args = argumentsOf(
        parse(messageOf(locale === "fr-CA" ? "fr-CA" : "en-CA", key) ?? messageOf("en-CA", key)!),
      );
      if (args.has("<tag>")) continue;
      for (const values of valueSets(args)) {
        expect(island(key, values), key).toBe(server(key, values));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });
});
