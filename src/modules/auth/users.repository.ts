import type { Knex } from "knex";
import type { StaffUser } from "./auth.schemas.js";

export interface StaffUserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  role: string;
  disabled_at: Date | null;
  created_at: Date;
}

export const toUser = (row: StaffUserRow): StaffUser => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  role: row.role,
  createdAt: row.created_at.toISOString(),
});

export class StaffUsersRepository {
  constructor(private readonly db: Knex) {}

  /** An active (not disabled) user. */
  async findById(id: number): Promise<StaffUser | null> {
    const row = await this.db<StaffUserRow>("staff_users").where({ id }).whereNull("disabled_at").first();
    return row ? toUser(row) : null;
  }

  async findWithHashByEmail(
    email: string,
    options: { includeDisabled?: boolean } = {},
  ): Promise<{ user: StaffUser; passwordHash: string } | null> {
    const query = this.db<StaffUserRow>("staff_users").whereRaw("lower(email) = lower(?)", [email]);
    if (!options.includeDisabled) query.whereNull("disabled_at");
    const row = await query.first();
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
  }

  /** Disables the user and revokes every session of theirs in one statement each, in one transaction. */
  async disable(email: string, outer: Knex | Knex.Transaction = this.db): Promise<StaffUser | null> {
    return outer.transaction(async (tx) => {
      const [row] = await tx<StaffUserRow>("staff_users")
        .whereRaw("lower(email) = lower(?)", [email])
        .update({ disabled_at: tx.fn.now() })
        .returning("*");
      if (!row) return null;
      await tx("staff_sessions")
        .where({ staff_user_id: row.id })
        .whereNull("revoked_at")
        .update({ revoked_at: tx.fn.now() });
      return toUser(row as StaffUserRow);
    });
  }

  async deleteById(id: number, tx: Knex | Knex.Transaction = this.db): Promise<boolean> {
    return (await tx("staff_users").where({ id }).delete()) > 0;
  }

  async existsByEmail(email: string): Promise<boolean> {
    const row = await this.db("staff_users").whereRaw("lower(email) = lower(?)", [email]).first("id");
    return Boolean(row);
  }

  async insert(
    user: {
      email: string;
      first_name: string;
      last_name: string;
      password_hash: string;
      role: string;
    },
    tx: Knex | Knex.Transaction = this.db,
  ): Promise<StaffUser> {
    const [row] = await tx<StaffUserRow>("staff_users").insert(user).returning("*");
    return toUser(row as StaffUserRow);
  }

  /** Every user, disabled ones too, oldest first (`haven users list`). */
  async list(): Promise<(StaffUser & { disabled: boolean; lastLoginAt: string | null })[]> {
    const rows = await this.db("staff_users").orderBy("id");
    return rows.map((row: StaffUserRow & { last_login_at: Date | null }) => ({
      ...toUser(row),
      disabled: row.disabled_at !== null,
      lastLoginAt: row.last_login_at?.toISOString() ?? null,
    }));
  }

  async touchLogin(id: number): Promise<void> {
    await this.db("staff_users").where({ id }).update({ last_login_at: this.db.fn.now() });
  }
}
