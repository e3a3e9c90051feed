import type { Knex } from "knex";

/** Staff sessions (issue 8): the cookie carries a random id; only its SHA-256 is stored here. */
export class StaffSessionsRepository {
  constructor(private readonly db: Knex) {}

  async insert(tokenHash: string, staffUserId: number, expiresAt: Date): Promise<void> {
    await this.db("staff_sessions").insert({ token_hash: tokenHash, staff_user_id: staffUserId, expires_at: expiresAt });
  }

  /** The user id of a live session: not revoked, not expired, and its user not disabled. */
  async findLiveUserId(tokenHash: string): Promise<number | null> {
    const row = await this.db("staff_sessions as s")
      .join("staff_users as u", "u.id", "s.staff_user_id")
      .where("s.token_hash", tokenHash)
      .whereNull("s.revoked_at")
      .where("s.expires_at", ">", this.db.fn.now())
      .whereNull("u.disabled_at")
      .first("u.id");
    return row ? (row.id as number) : null;
  }

  async revoke(tokenHash: string): Promise<void> {
    await this.db("staff_sessions").where({ token_hash: tokenHash }).whereNull("revoked_at").update({ revoked_at: this.db.fn.now() });
  }
}
