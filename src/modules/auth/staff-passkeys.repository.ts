import type { Knex } from "knex";
import type { StoredCredential } from "../../shared/webauthn.js";

export interface StaffPasskeyRow extends StoredCredential {
  id: number;
  staffUserId: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const toPasskey = (r: Record<string, unknown>): StaffPasskeyRow => ({
  id: r.id as number,
  staffUserId: r.staff_user_id as number,
  credentialId: r.credential_id as string,
  publicKey: new Uint8Array(r.public_key as Buffer),
  counter: Number(r.counter),
  transports: (r.transports as string[]) ?? [],
  name: r.name as string,
  createdAt: r.created_at as Date,
  lastUsedAt: (r.last_used_at as Date | null) ?? null,
});

/** Staff passkeys and their WebAuthn challenges (docs/decisions.md#38). */
export class StaffPasskeysRepository {
  constructor(private readonly db: Knex) {}

  async insertChallenge(hash: string, purpose: "register" | "sign-in", userId: number, expiresAt: Date) {
    await this.db("staff_webauthn_challenges").insert({
      challenge_hash: hash,
      purpose,
      staff_user_id: userId,
      expires_at: expiresAt,
    });
  }

  /** Spends a live challenge of this user and purpose, once. */
  async spendChallenge(hash: string, purpose: "register" | "sign-in", userId: number, now: Date): Promise<boolean> {
    const spent = await this.db("staff_webauthn_challenges")
      .where({ challenge_hash: hash, purpose, staff_user_id: userId })
      .whereNull("used_at")
      .where("expires_at", ">", now)
      .update({ used_at: now });
    return spent > 0;
  }

  async passkeysOf(userId: number): Promise<StaffPasskeyRow[]> {
    return (await this.db("staff_passkeys").where({ staff_user_id: userId }).orderBy("id")).map(toPasskey);
  }

  async hasPasskey(userId: number): Promise<boolean> {
    return (await this.db("staff_passkeys").where({ staff_user_id: userId }).first("id")) !== undefined;
  }

  async byCredential(credentialId: string): Promise<StaffPasskeyRow | null> {
    const row = await this.db("staff_passkeys").where({ credential_id: credentialId }).first();
    return row ? toPasskey(row) : null;
  }

  /** Inserts it; null when that credential is registered already. */
  async insert(userId: number, credential: StoredCredential, name: string): Promise<number | null> {
    const [row] = await this.db("staff_passkeys")
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

  async delete(userId: number, id: number): Promise<boolean> {
    return (await this.db("staff_passkeys").where({ staff_user_id: userId, id }).delete()) > 0;
  }
}
