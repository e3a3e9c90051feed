import type { Knex } from "knex";

export type ChallengePurpose = "register" | "sign-in";

/**
 * WebAuthn challenges as both passkey sign-ins store them (src/shared/webauthn.ts): the SHA-256 of the challenge,
 * its purpose, whose it is, and a deadline; spent once. Each caller keeps its own table (homeowners'
 * `home_webauthn_challenges` by e-mail, staff's `staff_webauthn_challenges` by user id).
 */
export class WebAuthnChallengeStore<Owner extends string | number> {
  constructor(
    private readonly db: Knex,
    private readonly table: string,
    /** The column naming whose challenge it is (nullable where a challenge may be anyone's). */
    private readonly ownerColumn: string,
  ) {}

  async insert(hash: string, purpose: ChallengePurpose, owner: Owner | null, expiresAt: Date): Promise<void> {
    await this.db(this.table).insert({
      challenge_hash: hash,
      purpose,
      [this.ownerColumn]: owner,
      expires_at: expiresAt,
    });
  }

  /** Spends a live challenge of this purpose once, atomically; with an owner, only theirs. */
  async spend(hash: string, purpose: ChallengePurpose, owner: Owner | null, now: Date): Promise<boolean> {
    const q = this.db(this.table)
      .where({ challenge_hash: hash, purpose })
      .whereNull("used_at")
      .where("expires_at", ">", now);
    if (owner !== null && owner !== "") q.where(this.ownerColumn, owner);
    return (await q.update({ used_at: now })) > 0;
  }
}
