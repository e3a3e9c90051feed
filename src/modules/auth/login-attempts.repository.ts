import type { Knex } from "knex";

/** One counter after counting an attempt: its number in the window, and when the window ends. */
export interface AttemptCount {
  attempts: number;
  windowEndsInMs: number;
}

/** What a counter is about: the e-mail (lower case) and/or the client address. */
export interface CounterOwner {
  email?: string;
  address?: string;
}

/** A counter of an e-mail's, as `haven users list` shows it. */
export interface EmailCounterRow {
  email: string;
  address: string | null;
  attempts: number;
  windowEndsAt: Date;
  blockedUntil: Date | null;
}

/** The counter other modules' sign-ins share (My Home's limits count here too), without the repository itself. */
export type LoginAttemptCounter = Pick<LoginAttemptsRepository, "count">;

/** Fixed-window login counters kept in Postgres, so every web process shares them. */
export class LoginAttemptsRepository {
  constructor(private readonly db: Knex) {}

  /**
   * Counts one attempt for the key and returns the count in the current window, atomically: a new
   * window starts when the old one has passed. Parallel attempts each get their own number.
   */
  async count(key: string, windowMs: number, owner: CounterOwner = {}): Promise<AttemptCount> {
    const { rows } = await this.db.raw(
      `insert into login_attempts (key, email, address, window_started_at, attempts) values (?, ?, ?, now(), 1)
       on conflict (key) do update set
         attempts = case when login_attempts.window_started_at <= now() - (? * interval '1 millisecond') then 1 else login_attempts.attempts + 1 end,
         blocked_until = case when login_attempts.window_started_at <= now() - (? * interval '1 millisecond') then null else login_attempts.blocked_until end,
         window_started_at = case when login_attempts.window_started_at <= now() - (? * interval '1 millisecond') then now() else login_attempts.window_started_at end
       returning attempts,
         (extract(epoch from window_started_at + (? * interval '1 millisecond') - now()) * 1000)::float8 as window_ends_in_ms`,
      [key, owner.email ?? null, owner.address ?? null, windowMs, windowMs, windowMs, windowMs],
    );
    return { attempts: rows[0].attempts as number, windowEndsInMs: Number(rows[0].window_ends_in_ms) };
  }

  /**
   * Takes the key's next guess, atomically: succeeds (null) when no guess is waiting, and then makes the
   * next one wait `delayMs`; otherwise answers how many milliseconds are left. Of parallel callers, one wins.
   */
  async takeTurn(key: string, delayMs: number): Promise<number | null> {
    const taken = await this.db("login_attempts")
      .where({ key })
      .where((q) => q.whereNull("blocked_until").orWhere("blocked_until", "<=", this.db.fn.now()))
      .update({ blocked_until: this.db.raw("now() + (? * interval '1 millisecond')", [delayMs]) });
    if (taken > 0) return null;
    const { rows } = await this.db.raw(
      "select greatest(0, extract(epoch from blocked_until - now()) * 1000)::float8 as wait_ms from login_attempts where key = ?",
      [key],
    );
    return Number(rows[0]?.wait_ms ?? 0);
  }

  async forgive(key: string): Promise<void> {
    await this.db("login_attempts").where({ key }).where("attempts", ">", 0).decrement("attempts", 1);
  }

  async reset(key: string): Promise<void> {
    await this.db("login_attempts").where({ key }).delete();
  }

  /** Every counter of these e-mails (lower case) whose window is still open. */
  async openCountersOf(emails: string[], windowMs: number): Promise<EmailCounterRow[]> {
    if (!emails.length) return [];
    const rows = await this.db("login_attempts")
      .whereIn("email", emails)
      .where("window_started_at", ">", this.db.raw("now() - (? * interval '1 millisecond')", [windowMs]))
      .select(
        "email",
        "address",
        "attempts",
        "blocked_until",
        this.db.raw("window_started_at + (? * interval '1 millisecond') as window_ends_at", [windowMs]),
      );
    return rows.map(
      (r: {
        email: string;
        address: string | null;
        attempts: number;
        blocked_until: Date | null;
        window_ends_at: Date;
      }) => ({
        email: r.email,
        address: r.address,
        attempts: r.attempts,
        windowEndsAt: r.window_ends_at,
        blockedUntil: r.blocked_until,
      }),
    );
  }

  /** Deletes every counter of the e-mail (lower case), its per-address locks included; answers how many. */
  async clearEmail(email: string): Promise<number> {
    return this.db("login_attempts").where({ email }).delete();
  }

  /** Whether the user signed in from this address within `withinDays` days. */
  async isKnownAddress(email: string, address: string, withinDays: number): Promise<boolean> {
    const row = await this.db("staff_login_addresses as a")
      .join("staff_users as u", "u.id", "a.staff_user_id")
      .whereRaw("lower(u.email) = ?", [email])
      .where("a.address", address)
      .where("a.last_success_at", ">", this.db.raw("now() - (? * interval '1 day')", [withinDays]))
      .first("a.address");
    return Boolean(row);
  }

  async rememberAddress(staffUserId: number, address: string): Promise<void> {
    await this.db("staff_login_addresses")
      .insert({ staff_user_id: staffUserId, address })
      .onConflict(["staff_user_id", "address"])
      .merge({ last_success_at: this.db.fn.now() });
  }
}
