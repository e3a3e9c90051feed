// The pseudo-locale check of HTML (docs/decisions.md#64): visible text outside the ⟦…⟧ markers did not come from the
// catalogue. A page (pseudo-locale.ts's app) or an island's markup rendered with the pseudo locale's messages.
import { expect } from "vitest";
import { PSEUDO_MARKERS } from "../../src/i18n/locales.js";

const [OPEN, CLOSE] = PSEUDO_MARKERS;
/** Attributes a person reads or hears. */
const READ_ATTRIBUTES = ["aria-label", "aria-roledescription", "alt", "placeholder", "title"];

/** Text outside the markers, with markers' contents (nested ones too) removed. */
function outsideMarkers(text: string): string {
  let rest = text;
  const innermost = new RegExp(`${OPEN}[^${OPEN}${CLOSE}]*${CLOSE}`, "g");
  while (innermost.test(rest)) rest = rest.replace(innermost, " ");
  return rest;
}

/**
 * The words of a page's body a reader meets (text and read attributes) that came from no message. Skipped: scripts,
 * styles, comments, and elements in another language (lang="fr-CA": the language switch's own text).
 */
export function untranslatedText(html: string, allowed: string[] = []): string[] {
  let body = html.slice(html.indexOf("<body"));
  body = body
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<style[\s\S]*?<\/style>/g, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(\w+)[^>]*\blang="fr-CA"[^>]*>[\s\S]*?<\/\1>/g, " ");
  const attributes = [...body.matchAll(new RegExp(`\\s(?:${READ_ATTRIBUTES.join("|")})="([^"]*)"`, "g"))].map(
    (m) => m[1]!,
  );
  const text = body.replace(/<[^>]*>/g, " ");
  const decode = (s: string) =>
    s
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const words: string[] = [];
  for (const chunk of [text, ...attributes].map(decode).map(outsideMarkers)) {
    let rest = chunk;
    for (const word of allowed) rest = rest.split(word).join(" ");
    // Digits, punctuation and symbols carry no language.
    words.push(...(rest.match(/\p{L}[\p{L}'’-]*/gu) ?? []));
  }
  return words;
}

/** Fails, naming the words, when a page shows text that no message gave. */
export function expectAllTranslated(html: string, page: string, allowed: string[] = []) {
  expect(untranslatedText(html, allowed), `${page}: text outside the catalogue`).toEqual([]);
}
