import type { Knex } from "knex";
import type { StaffUser } from "./auth.schemas.js";

interface StaffUserRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  role: string;
  created_at: Date;
}

const toUser = (row: StaffUserRow): StaffUser => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  role: row.role,
  createdAt: row.created_at.toISOString(),
});

export class StaffUsersRepository {
  constructor(private readonly db: Knex) {}

  async findById(id: number): Promise<StaffUser | null> {
    const row = await this.db<StaffUserRow>("staff_users").where({ id }).first();
    return row ? toUser(row) : null;
  }

  async findWithHashByEmail(email: string): Promise<{ user: StaffUser; passwordHash: string } | null> {
    const row = await this.db<StaffUserRow>("staff_users").whereRaw("lower(email) = lower(?)", [email]).first();
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
  }

  async existsByEmail(email: string): Promise<boolean> {
    const row = await this.db("staff_users").whereRaw("lower(email) = lower(?)", [email]).first("id");
    return Boolean(row);
  }

  async insert(user: { email: string; first_name: string; last_name: string; password_hash: string }): Promise<StaffUser> {
    const [row] = await this.db<StaffUserRow>("staff_users").insert(user).returning("*");
    return toUser(row as StaffUserRow);
  }

  async touchLogin(id: number): Promise<void> {
    await this.db("staff_users").where({ id }).update({ last_login_at: this.db.fn.now() });
  }
}
