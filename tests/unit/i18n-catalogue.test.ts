// The catalogue (docs/decisions.md#64): every key in both languages, every message a valid ICU message that formats,
// and no key that nothing uses. "Used": the full key, or a prefix of it followed by "." (a key built at run time,
// `t(`pricing.faq.${id}.question`)`, labelKey("scoring.band", …)), appears as a quoted literal in views, src, islands or cli.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalogueKeys, messageOf, translator } from "../../src/i18n/catalogue.js";
import { LOCALES } from "../../src/i18n/locales.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["views", "src", "islands", "cli"];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "locales" ? [] : filesUnder(full);
    return /\.(ts|tsx|ejs)$/.test(name) && !name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Every quoted literal of the scanned code; a template literal counts up to its first `${`. */
function literals(): Set<string> {
  const found = new Set<string>();
  for (const file of SCANNED.flatMap((dir) => filesUnder(path.join(ROOT, dir)))) {
    const code = readFileSync(file, "utf8");
    for (const m of code.matchAll(/"([\w.-]+)"|'([\w.-]+)'|`([\w.-]+)(?:`|\$\{)/g)) found.add(m[1] ?? m[2] ?? m[3]!);
  }
  return found;
}

describe("the message catalogue", () => {
  const [english, french] = LOCALES.map((locale) => catalogueKeys(locale).sort());

  it("has every key in both languages", () => {
    expect(
      french!.filter((key) => !english!.includes(key)),
      "in fr-CA only",
    ).toEqual([]);
    expect(
      english!.filter((key) => !french!.includes(key)),
      "missing in fr-CA",
    ).toEqual([]);
  });

  it("holds valid ICU messages that format in each language, none of them left empty", () => {
    for (const locale of LOCALES) {
      const t = translator(locale);
      for (const key of catalogueKeys(locale)) {
        expect(messageOf(locale, key)?.trim(), `${locale} ${key}`).toBeTruthy();
        // Each placeholder gets a number (a plural takes it, a select falls to "other"), each tag a function.
        const message = messageOf(locale, key)!;
        const values = Object.fromEntries([...message.matchAll(/\{\s*(\w+)/g)].map((m) => [m[1]!, 1]));
        const tags = Object.fromEntries([...message.matchAll(/<(\w+)>/g)].map((m) => [m[1]!, (s: string) => s]));
        expect(() => t.html(key, values, tags), `${locale} ${key}`).not.toThrow();
      }
    }
  });

  it("never names a tag like one of its placeholders: t.html hands both to FormatJS in one map", () => {
    const clashes: string[] = [];
    for (const locale of LOCALES)
      for (const key of catalogueKeys(locale)) {
        const message = messageOf(locale, key)!;
        const placeholders = new Set([...message.matchAll(/\{\s*(\w+)/g)].map((m) => m[1]!));
        for (const [, tag] of message.matchAll(/<(\w+)>/g))
          if (placeholders.has(tag!)) clashes.push(`${locale} ${key}: ${tag}`);
      }
    expect(clashes).toEqual([]);
  });

  it("has no key that nothing uses", () => {
    const used = literals();
    const isUsed = (key: string) => {
      if (used.has(key)) return true;
      for (let at = key.lastIndexOf("."); at > 0; at = key.lastIndexOf(".", at - 1))
        if (used.has(key.slice(0, at)) || used.has(key.slice(0, at + 1))) return true;
      return false;
    };
    expect(english!.filter((key) => !isUsed(key))).toEqual([]);
  });
});
