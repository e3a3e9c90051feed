import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";

const REQUIRE_KEY = "require_two_step";

/** The authenticator-app secrets and the owner's requirement (docs/decisions.md#38). */
export class TwoStepRepository {
  constructor(private readonly db: Knex) {}

  async stateOf(
    userId: number,
    tx: Tx | Knex = this.db,
  ): Promise<{ secret: string | null; enabled: boolean; required: boolean } | null> {
    const row = await tx("staff_users as u")
      .leftJoin("staff_settings as s", "s.key", tx.raw("?", [REQUIRE_KEY]))
      .where("u.id", userId)
      .first("u.totp_secret", "u.totp_enabled_at", "s.value");
    if (!row) return null;
    return { secret: row.totp_secret, enabled: row.totp_enabled_at !== null, required: row.value === true };
  }

  async setPending(userId: number, secret: string): Promise<void> {
    await this.db("staff_users")
      .where({ id: userId })
      .update({ totp_secret: secret, totp_enabled_at: null, totp_last_step: null });
  }

  async enable(userId: number, now: Date, tx: Tx | Knex = this.db): Promise<void> {
    await tx("staff_users").where({ id: userId }).update({ totp_enabled_at: now });
  }

  async clear(userId: number, tx: Tx | Knex = this.db): Promise<void> {
    await tx("staff_users")
      .where({ id: userId })
      .update({ totp_secret: null, totp_enabled_at: null, totp_last_step: null });
  }

  /** Takes a time step for this user, atomically: false when it (or a later one) was used already. */
  async takeStep(userId: number, step: number, tx: Tx | Knex = this.db): Promise<boolean> {
    const taken = await tx("staff_users")
      .where({ id: userId })
      .where((q) => q.whereNull("totp_last_step").orWhere("totp_last_step", "<", step))
      .update({ totp_last_step: step });
    return taken > 0;
  }

  /** The owner's requirement; with `tx`, its row is locked until the change commits. */
  async required(tx?: Tx): Promise<boolean> {
    const q = (tx ?? this.db)("staff_settings").where({ key: REQUIRE_KEY });
    if (tx) q.forUpdate();
    const row = await q.first("value");
    return row?.value === true;
  }

  async setRequired(required: boolean, tx: Tx | Knex = this.db): Promise<void> {
    await tx("staff_settings")
      .insert({ key: REQUIRE_KEY, value: JSON.stringify(required), updated_at: tx.fn.now() })
      .onConflict("key")
      .merge();
  }
}
