import type { Knex } from "knex";

/**
 * Tables that hold expiring homeowner sign-in state once the `home` module exists (docs/decisions.md#28).
 * Each is purged only when present; the columns it has decide what "spent" means.
 */
export const HOME_SIGN_IN_TABLES = ["home_sign_in_tokens", "home_sessions", "home_webauthn_challenges"] as const;

/** The SQL of the daily purge: deletes rows no longer needed, whoever they belong to. */
export class PurgeRepository {
  constructor(private readonly db: Knex) {}

  async purgeIdempotencyKeys(asOf: Date, windowHours: number): Promise<number> {
    return this.db("idempotency_keys")
      .where("created_at", "<", new Date(asOf.getTime() - windowHours * 3_600_000))
      .delete();
  }

  /**
   * Counters whose window has ended count nothing any more, whatever their key. Keys under `longer.prefix`
   * (My Home's hourly mail cap) have a longer window and wait for its end.
   */
  async purgeLoginAttempts(
    asOf: Date,
    windowMs: number,
    longer?: { prefix: string; windowMs: number },
  ): Promise<number> {
    const ended = (ms: number) => new Date(asOf.getTime() - ms);
    // A counter still holding back guesses (blocked_until ahead) is kept until its wait is over.
    return this.db("login_attempts")
      .where((q) => {
        if (!longer) return q.where("window_started_at", "<=", ended(windowMs));
        return q
          .where((w) =>
            w
              .where("window_started_at", "<=", ended(windowMs))
              .andWhereRaw("left(key, ?) <> ?", [longer.prefix.length, longer.prefix]),
          )
          .orWhere("window_started_at", "<=", ended(Math.max(windowMs, longer.windowMs)));
      })
      .andWhere((q) => q.whereNull("blocked_until").orWhere("blocked_until", "<=", asOf))
      .delete();
  }

  /** Client addresses staff signed in from, once they no longer count as known (auth's knownAddressDays). */
  async purgeStaffLoginAddresses(asOf: Date, keepDays: number): Promise<number> {
    return this.db("staff_login_addresses")
      .where("last_success_at", "<=", new Date(asOf.getTime() - keepDays * 86_400_000))
      .delete();
  }

  async purgeStaffSessions(asOf: Date): Promise<number> {
    return this.db("staff_sessions").where("expires_at", "<=", asOf).orWhereNotNull("revoked_at").delete();
  }

  /** Expired or spent rows of the homeowner sign-in tables that exist; absent tables are skipped. */
  async purgeHomeSignIn(asOf: Date): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    const { rows } = await this.db.raw(
      "select table_name, array_agg(column_name::text) as columns from information_schema.columns where table_schema = current_schema() and table_name = any(?) group by table_name",
      [[...HOME_SIGN_IN_TABLES]],
    );
    for (const { table_name: table, columns } of rows as { table_name: string; columns: string[] }[]) {
      const spent = ["revoked_at", "used_at", "consumed_at"].filter((c) => columns.includes(c));
      if (!columns.includes("expires_at") && !spent.length) continue;
      deleted[table] = await this.db(table)
        .where((q) => {
          if (columns.includes("expires_at")) q.orWhere("expires_at", "<=", asOf);
          for (const c of spent) q.orWhereNotNull(c);
        })
        .delete();
    }
    return deleted;
  }
}
