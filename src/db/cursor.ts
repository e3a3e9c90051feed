import type { Knex } from "knex";

type Row = Record<string, unknown>;

/** Rows per FETCH: large enough for few round trips, small enough that a batch stays a few hundred kB. */
export const CURSOR_BATCH_ROWS = 1000;

/**
 * Reads a query's rows through a Postgres cursor (DECLARE … FETCH), a batch at a time, so a result of any
 * size never sits in memory whole (pg-query-stream, which Knex's `.stream()` needs, is not a dependency).
 * The cursor lives in a read-only transaction on one pooled connection; it ends when the rows do, or when
 * the consumer stops early (`return()` on the generator: a client that went away), so the connection
 * always goes back to the pool. The next batch is fetched only when the consumer asks for it.
 */
export async function* cursorBatches<T = Row>(
  db: Knex,
  query: Knex.QueryBuilder,
  map: (row: Row) => T,
  batchRows = CURSOR_BATCH_ROWS,
): AsyncGenerator<T[]> {
  const trx = await db.transaction();
  try {
    await trx.raw("set transaction read only");
    // The builder's SQL with `?` placeholders and its bindings, as the builder itself would run it.
    const { sql, bindings } = query.toSQL();
    await trx.raw(`declare export_cursor no scroll cursor for ${sql}`, bindings as Knex.RawBinding[]);
    for (;;) {
      const { rows } = (await trx.raw(`fetch forward ${Math.trunc(batchRows)} from export_cursor`)) as { rows: Row[] };
      if (rows.length) yield rows.map(map);
      if (rows.length < batchRows) break;
    }
    await trx.commit();
  } finally {
    if (!trx.isCompleted()) await trx.rollback();
  }
}
