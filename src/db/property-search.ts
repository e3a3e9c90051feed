// Staff search by property: the stored column properties.search_text (migration 20260208000100) holds the
// address, city, client name and e-mail in lower case without French accents, under a trigram index; since
// migration 20261102000200 also the client's phone (as typed and digits only) and the postal code (as typed
// and without its space). A search matches anywhere in it ('orleans' finds Orléans), whatever the locale.

/** A staff search counts its matches up to this many; past it, the list says "1,000+" (docs/decisions.md#77). */
export const SEARCH_COUNT_CAP = 1000;

/** A search's count from its matching ids, read up to the cap and one more: the cap, and `capped`, past it. */
export function countToCap(ids: readonly number[]): { total: number; capped: boolean } {
  const capped = ids.length > SEARCH_COUNT_CAP;
  return { total: capped ? SEARCH_COUNT_CAP : ids.length, capped };
}

/** Lower case without accents, as the column is folded. */
export const foldSearch = (text: string) =>
  text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");

/** A phone number as typed ('(613) 555-0100', '+1 613 555 0100'): searched by its digits alone. */
const PHONE_LIKE = /^\+?[\d\s().-]+$/;
const searchable = (q: string) => {
  const trimmed = q.trim();
  // The North American country code is not stored: '+1 613 555 0100' looks for 6135550100.
  const digits = trimmed.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "");
  return PHONE_LIKE.test(trimmed) && /\D/.test(trimmed) && digits.length >= 3 ? digits : foldSearch(trimmed);
};

/** A LIKE pattern that finds `q` anywhere in the folded text; `%`, `_` and `\` in `q` match themselves. */
export const searchPattern = (q: string) => `%${searchable(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `<alias>.search_text like <pattern>`, for a Knex whereRaw. */
export const propertyMatches = (alias: string, q: string): [string, string[]] => [
  `${alias}.search_text like ?`,
  [searchPattern(q)],
];
