// The pseudo-locale pass for documents and e-mails (docs/decisions.md#64): text rendered in en-XA must sit inside the
// pseudo markers, except the data a document quotes (names, addresses, numbers, amounts).
import { expect } from "vitest";
import { PSEUDO_MARKERS } from "../../src/i18n/locales.js";

const [open, close] = PSEUDO_MARKERS;
const marked = new RegExp(`${open}[^${open}${close}]*${close}`, "g");

/** What is left of `text` once every marked message (innermost first) and every datum is taken out. */
export function unmarkedText(text: string, data: string[]): string {
  let rest = text;
  for (let before = ""; before !== rest; ) {
    before = rest;
    rest = rest.replace(marked, " ");
  }
  for (const datum of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(datum).join(" ");
  return rest;
}

/** Fails on any word outside the markers that is not a datum: English the catalogue did not give. */
export function expectAllMarked(text: string, data: string[], where: string): void {
  const words = unmarkedText(text, data).match(/\p{L}{2,}/gu) ?? [];
  expect(words, `${where}: text outside the catalogue`).toEqual([]);
}
