import type { Knex } from "knex";
import type { StaffUser } from "./auth.schemas.js";
import { type StaffUserRow, toUser } from "./users.repository.js";

/** Staff sessions: the cookie carries a random id; only its SHA-256 is stored here. */
export class StaffSessionsRepository {
  constructor(private readonly db: Knex) {}

  async insert(tokenHash: string, staffUserId: number, expiresAt: Date): Promise<void> {
    await this.db("staff_sessions").insert({
      token_hash: tokenHash,
      staff_user_id: staffUserId,
      expires_at: expiresAt,
    });
  }

  /** The user of a live session (not revoked, not expired, its user not disabled), in one query: it runs on every staff request. */
  async findLiveUser(tokenHash: string): Promise<StaffUser | null> {
    const row = await this.db("staff_sessions as s")
      .join("staff_users as u", "u.id", "s.staff_user_id")
      .where("s.token_hash", tokenHash)
      .whereNull("s.revoked_at")
      .where("s.expires_at", ">", this.db.fn.now())
      .whereNull("u.disabled_at")
      .first("u.*");
    return row ? toUser(row as StaffUserRow) : null;
  }

  async revoke(tokenHash: string): Promise<void> {
    await this.db("staff_sessions")
      .where({ token_hash: tokenHash })
      .whereNull("revoked_at")
      .update({ revoked_at: this.db.fn.now() });
  }
}
