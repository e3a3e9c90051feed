import pg from "pg";

export interface Figures {
  /** Rows per table, schema-qualified, for every table of Haven and graphile-worker. */
  counts: Record<string, number>;
  /** An md5 of every row, in id order, of the tables that hold the business. */
  checksums: Record<string, string>;
}

const CHECKSUMMED = ["customers", "properties", "inspections", "reports", "payments", "subscriptions", "invoices"];

/** What a database holds, to compare a restored copy with its source. */
export async function figuresOf(url: string): Promise<Figures> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: tables } = await client.query(
      "select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('public', 'graphile_worker') and table_type = 'BASE TABLE' order by 1",
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables as { name: string }[])
      counts[name] = Number((await client.query(`select count(*)::int as n from ${name}`)).rows[0].n);
    const checksums: Record<string, string> = {};
    for (const table of CHECKSUMMED) {
      if (!(`public.${table}` in counts)) continue;
      checksums[table] = (
        await client.query(`select md5(coalesce(string_agg(t::text, '|' order by t.id), '')) as sum from ${table} t`)
      ).rows[0].sum;
    }
    return { counts, checksums };
  } finally {
    await client.end();
  }
}
