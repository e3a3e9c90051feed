import type { Knex } from "knex";

// A client who asks again for a quote is never lost: the new note is appended to the
// task's open request, and a task whose request is closed (declined or completed) gets a new one. So a task
// holds at most one open request instead of one request ever. `client_noted_at` is when the client last
// added to the request (made it, or appended a note): what the staff bell counts as new, with the reports
// answered since each staff user last opened the bell (`staff_users.bell_seen_at`).
const OPEN = "status in ('pending','quoted','accepted')";

// Property search also matches phone numbers and postal codes: the folded search text gains the
// client's phone as typed and as digits only, and the postal code as typed and without its space, so
// '613-555-0100', '6135550100', 'K1S 2B4' and 'k1s2b4' all find the home (src/db/property-search.ts).
const ACCENTED = "ÀÂÄÁÃÇÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜŸÑàâäáãçéèêëíìîïóòôöõúùûüÿñ";
const PLAIN = "aaaaaceeeeiiiiooooouuuuynaaaaaceeeeiiiiooooouuuuyn";
const SEARCH_BEFORE = "address || ' ' || city || ' ' || client_name || ' ' || client_email";
const SEARCH_AFTER = `${SEARCH_BEFORE} || ' ' || coalesce(client_phone, '') || ' ' || regexp_replace(coalesce(client_phone, ''), '[^0-9]', '', 'g')
  || ' ' || coalesce(postal_code, '') || ' ' || replace(coalesce(postal_code, ''), ' ', '')`;

async function searchText(knex: Knex, expression: string): Promise<void> {
  await knex.raw("drop index if exists properties_search_trgm_idx");
  await knex.raw("alter table properties drop column if exists search_text");
  await knex.raw(
    `alter table properties add column search_text text not null generated always as (translate(lower(${expression}), '${ACCENTED}', '${PLAIN}')) stored`,
  );
  await knex.raw("create index properties_search_trgm_idx on properties using gin (search_text gin_trgm_ops)");
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("quote_requests", (t) => {
    t.dropUnique(["maintenance_task_id"]);
    t.index(["maintenance_task_id"]);
    t.timestamp("client_noted_at", { useTz: true });
  });
  await knex.raw("update quote_requests set client_noted_at = created_at");
  await knex.raw(
    "alter table quote_requests alter column client_noted_at set not null, alter column client_noted_at set default now()",
  );
  await knex.raw(
    `create unique index quote_requests_open_task_uidx on quote_requests (maintenance_task_id) where ${OPEN}`,
  );
  await knex.raw("create index quote_requests_client_noted_idx on quote_requests (client_noted_at desc, id desc)");
  await knex.raw(
    "create index report_shares_responded_idx on report_shares (responded_at desc, id desc) where responded_at is not null",
  );
  await knex.schema.alterTable("staff_users", (t) => {
    t.timestamp("bell_seen_at", { useTz: true });
  });
  await searchText(knex, SEARCH_AFTER);
}

export async function down(knex: Knex): Promise<void> {
  await searchText(knex, SEARCH_BEFORE);
  await knex.schema.alterTable("staff_users", (t) => {
    t.dropColumn("bell_seen_at");
  });
  await knex.raw("drop index if exists report_shares_responded_idx");
  await knex.raw("drop index if exists quote_requests_client_noted_idx");
  await knex.raw("drop index if exists quote_requests_open_task_uidx");
  // Back to one request per task: keep each task's newest.
  await knex.raw(
    "delete from quote_requests q using quote_requests newer where newer.maintenance_task_id = q.maintenance_task_id and newer.id > q.id",
  );
  await knex.schema.alterTable("quote_requests", (t) => {
    t.dropColumn("client_noted_at");
    t.dropIndex(["maintenance_task_id"]);
    t.unique(["maintenance_task_id"]);
  });
}
