import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { AccountStatus, StaffAccount } from "./staff-accounts.schemas.js";

/** An invited account has no password until its link is used: this never verifies as an argon2 hash. */
export const NO_PASSWORD = "!";

export type LinkPurpose = "invite" | "reset";

interface AccountRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  password_hash: string;
  disabled_at: Date | null;
  last_login_at: Date | null;
  created_at: Date;
}

const statusOf = (row: AccountRow): AccountStatus =>
  row.disabled_at ? "deactivated" : row.password_hash === NO_PASSWORD ? "invited" : "active";

const toAccount = (row: AccountRow): StaffAccount => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  role: row.role,
  status: statusOf(row),
  lastSignInAt: row.last_login_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

/** A live or spent link, with its account, as setPassword reads it under lock. */
export interface LinkRow {
  id: number;
  staffUserId: number;
  purpose: LinkPurpose;
  expiresAt: Date;
  usedAt: Date | null;
  email: string;
  disabled: boolean;
}

/** Staff accounts as owners manage them (docs/decisions.md#38): invitations, roles, deactivation, links. */
export class StaffAccountsRepository {
  constructor(private readonly db: Knex) {}

  async list(): Promise<StaffAccount[]> {
    const rows = await this.db<AccountRow>("staff_users").orderBy([{ column: "disabled_at", order: "desc" }, "id"]);
    return rows.map(toAccount);
  }

  async find(id: number, tx: Tx | Knex = this.db): Promise<StaffAccount | null> {
    const row = await tx<AccountRow>("staff_users").where({ id }).first();
    return row ? toAccount(row) : null;
  }

  /**
   * Locks the active owners' rows and the account's, in id order (no deadlock between two owners changing
   * each other), and answers the ids of the owners who can sign in (active, not merely invited): the last
   * owner's check then holds until commit.
   */
  async lockOwnersAnd(id: number, tx: Tx): Promise<number[]> {
    const rows = await tx("staff_users")
      .where((q) => q.where({ role: "owner" }).whereNull("disabled_at").orWhere({ id }))
      .orderBy("id")
      .forUpdate()
      .select("id", "role", "disabled_at", "password_hash");
    return rows
      .filter((r) => r.role === "owner" && r.disabled_at === null && r.password_hash !== NO_PASSWORD)
      .map((r) => r.id as number);
  }

  async existsByEmail(email: string, tx: Tx): Promise<boolean> {
    return Boolean(await tx("staff_users").whereRaw("lower(email) = lower(?)", [email]).first("id"));
  }

  async insertInvited(
    user: { email: string; firstName: string; lastName: string; role: string },
    tx: Tx,
  ): Promise<StaffAccount> {
    const [row] = await tx<AccountRow>("staff_users")
      .insert({
        email: user.email,
        first_name: user.firstName,
        last_name: user.lastName,
        role: user.role,
        password_hash: NO_PASSWORD,
      })
      .returning("*");
    return toAccount(row as AccountRow);
  }

  async setRole(id: number, role: string, tx: Tx): Promise<void> {
    await tx("staff_users").where({ id }).update({ role, updated_at: tx.fn.now() });
  }

  /** Deactivates the account and revokes every session of theirs: their next request is signed out. */
  async deactivate(id: number, now: Date, tx: Tx): Promise<void> {
    await tx("staff_users").where({ id }).update({ disabled_at: now, updated_at: tx.fn.now() });
    await tx("staff_sessions").where({ staff_user_id: id }).whereNull("revoked_at").update({ revoked_at: now });
    await this.spendOpenLinks(id, now, tx);
  }

  async reactivate(id: number, tx: Tx): Promise<void> {
    await tx("staff_users").where({ id }).update({ disabled_at: null, updated_at: tx.fn.now() });
  }

  async insertLink(
    link: { staffUserId: number; purpose: LinkPurpose; tokenHash: string; expiresAt: Date; createdBy: number | null },
    tx: Tx,
  ): Promise<void> {
    await tx("staff_account_links").insert({
      staff_user_id: link.staffUserId,
      purpose: link.purpose,
      token_hash: link.tokenHash,
      expires_at: link.expiresAt,
      created_by: link.createdBy,
    });
  }

  /** A newer link replaces the older ones: only the last one sent works. */
  async spendOpenLinks(staffUserId: number, now: Date, tx: Tx): Promise<void> {
    await tx("staff_account_links").where({ staff_user_id: staffUserId }).whereNull("used_at").update({ used_at: now });
  }

  async findLink(tokenHash: string, tx: Tx | Knex = this.db, lock = false): Promise<LinkRow | null> {
    const query = tx("staff_account_links as l")
      .join("staff_users as u", "u.id", "l.staff_user_id")
      .where("l.token_hash", tokenHash)
      .first("l.id", "l.staff_user_id", "l.purpose", "l.expires_at", "l.used_at", "u.email", "u.disabled_at");
    if (lock) query.forUpdate("l");
    const row = await query;
    return row
      ? {
          id: row.id,
          staffUserId: row.staff_user_id,
          purpose: row.purpose,
          expiresAt: row.expires_at,
          usedAt: row.used_at,
          email: row.email,
          disabled: row.disabled_at !== null,
        }
      : null;
  }

  async useLink(id: number, now: Date, tx: Tx): Promise<void> {
    await tx("staff_account_links").where({ id }).update({ used_at: now });
  }

  /** The new password; every session of the account ends (a reset is often 'someone knows my password'). */
  async setPassword(staffUserId: number, passwordHash: string, now: Date, tx: Tx): Promise<void> {
    await tx("staff_users").where({ id: staffUserId }).update({ password_hash: passwordHash, updated_at: tx.fn.now() });
    await tx("staff_sessions")
      .where({ staff_user_id: staffUserId })
      .whereNull("revoked_at")
      .update({ revoked_at: now });
  }
}
