// Staff search by property: the stored column properties.search_text (migration 20260208000100) holds the
// address, city, client name and e-mail in lower case without French accents, under a trigram index.
// A search matches anywhere in it ('orleans' finds Orléans), whatever the database's locale.

/** Lower case without accents, as the column is folded. */
export const foldSearch = (text: string) => text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");

/** A LIKE pattern that finds `q` anywhere in the folded text; `%`, `_` and `\` in `q` match themselves. */
export const searchPattern = (q: string) => `%${foldSearch(q.trim()).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `<alias>.search_text like <pattern>`, for a Knex whereRaw. */
export const propertyMatches = (alias: string, q: string): [string, string[]] => [`${alias}.search_text like ?`, [searchPattern(q)]];
