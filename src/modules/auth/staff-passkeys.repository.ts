import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import { type StoredCredential, type StoredPasskey, toStoredPasskey } from "../../shared/webauthn.js";
import { type ChallengePurpose, WebAuthnChallengeStore } from "../../shared/webauthn-challenges.js";

export interface StaffPasskeyRow extends StoredPasskey {
  staffUserId: number;
}

const toPasskey = (r: Record<string, unknown>): StaffPasskeyRow => ({
  ...toStoredPasskey(r),
  staffUserId: r.staff_user_id as number,
});

/** Staff passkeys and their WebAuthn challenges (docs/decisions.md#38). */
export class StaffPasskeysRepository {
  /** Challenges (src/shared/webauthn-challenges.ts). */
  private readonly challenges: WebAuthnChallengeStore<number>;

  constructor(private readonly db: Knex) {
    this.challenges = new WebAuthnChallengeStore(db, "staff_webauthn_challenges", "staff_user_id");
  }

  // Challenges, each for one staff user, stored as My Home's are.
  insertChallenge(hash: string, purpose: ChallengePurpose, userId: number, expiresAt: Date) {
    return this.challenges.insert(hash, purpose, userId, expiresAt);
  }

  /** Spends a live challenge of this user and purpose, once. */
  spendChallenge(hash: string, purpose: ChallengePurpose, userId: number, now: Date) {
    return this.challenges.spend(hash, purpose, userId, now);
  }

  async passkeysOf(userId: number, tx: Tx | Knex = this.db): Promise<StaffPasskeyRow[]> {
    return (await tx("staff_passkeys").where({ staff_user_id: userId }).orderBy("id")).map(toPasskey);
  }

  async hasPasskey(userId: number): Promise<boolean> {
    return (await this.db("staff_passkeys").where({ staff_user_id: userId }).first("id")) !== undefined;
  }

  async byCredential(credentialId: string): Promise<StaffPasskeyRow | null> {
    const row = await this.db("staff_passkeys").where({ credential_id: credentialId }).first();
    return row ? toPasskey(row) : null;
  }

  /** Inserts it; null when that credential is registered already. */
  async insert(
    userId: number,
    credential: StoredCredential,
    name: string,
    tx: Tx | Knex = this.db,
  ): Promise<number | null> {
    const [row] = await tx("staff_passkeys")
      .insert({
        staff_user_id: userId,
        credential_id: credential.credentialId,
        public_key: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports,
        name,
      })
      .onConflict("credential_id")
      .ignore()
      .returning("id");
    return (row?.id as number | undefined) ?? null;
  }

  async recordUse(id: number, counter: number, now: Date): Promise<void> {
    await this.db("staff_passkeys").where({ id }).update({ counter, last_used_at: now });
  }

  /** Deletes one of this user's passkeys; answers it as it was, or null when it is not theirs (or gone). */
  async delete(userId: number, id: number, tx: Tx | Knex = this.db): Promise<StaffPasskeyRow | null> {
    const [row] = await tx("staff_passkeys").where({ staff_user_id: userId, id }).delete().returning("*");
    return row ? toPasskey(row) : null;
  }
}
