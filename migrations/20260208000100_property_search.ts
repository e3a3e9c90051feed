import type { Knex } from "knex";

// Staff search at 100,000 properties: each property's folded search text (address, city, client name and
// e-mail; lower case, French accents dropped) is a stored column with a trigram index, so a search anywhere
// in it reads the index, and checking a candidate row is a plain LIKE. src/db/property-search.ts uses it.
const ACCENTED = "ÀÂÄÁÃÇÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜŸÑàâäáãçéèêëíìîïóòôöõúùûüÿñ";
const PLAIN = "aaaaaceeeeiiiiooooouuuuynaaaaaceeeeiiiiooooouuuuyn";

export async function up(knex: Knex): Promise<void> {
  // A trusted extension since Postgres 13: the database owner may create it.
  await knex.raw("create extension if not exists pg_trgm");
  await knex.raw(
    `alter table properties add column search_text text not null
       generated always as (translate(lower(address || ' ' || city || ' ' || client_name || ' ' || client_email), '${ACCENTED}', '${PLAIN}')) stored`,
  );
  await knex.raw("create index properties_search_trgm_idx on properties using gin (search_text gin_trgm_ops)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists properties_search_trgm_idx");
  await knex.raw("alter table properties drop column if exists search_text");
}
