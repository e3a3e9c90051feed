import type { Knex } from "knex";

/** Fixed-window login counters kept in Postgres, so every web process shares them. */
export class LoginAttemptsRepository {
  constructor(private readonly db: Knex) {}

  /**
   * Counts one attempt for the key and returns the count in the current window, atomically: a new
   * window starts when the old one has passed. Parallel attempts each get their own number.
   */
  async count(key: string, windowMs: number): Promise<number> {
    const { rows } = await this.db.raw(
      `insert into login_attempts (key, window_started_at, attempts) values (?, now(), 1)
       on conflict (key) do update set
         attempts = case when login_attempts.window_started_at <= now() - (? * interval '1 millisecond') then 1 else login_attempts.attempts + 1 end,
         window_started_at = case when login_attempts.window_started_at <= now() - (? * interval '1 millisecond') then now() else login_attempts.window_started_at end
       returning attempts`,
      [key, windowMs, windowMs],
    );
    return rows[0].attempts as number;
  }

  async forgive(key: string): Promise<void> {
    await this.db("login_attempts").where({ key }).where("attempts", ">", 0).decrement("attempts", 1);
  }

  async reset(key: string): Promise<void> {
    await this.db("login_attempts").where({ key }).delete();
  }
}
