import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import { type StoredPasskey, toStoredPasskey } from "../../shared/webauthn.js";
import { type ChallengePurpose, WebAuthnChallengeStore } from "../../shared/webauthn-challenges.js";

export interface HomeSessionRow {
  id: number;
  email: string;
  expiresAt: Date;
  lastSeenAt: Date;
}

export interface HomePasskeyRow extends StoredPasskey {
  email: string;
}

const toPasskey = (r: Record<string, unknown>): HomePasskeyRow => ({ ...toStoredPasskey(r), email: r.email as string });

/** The SQL of homeowner sign-in: e-mailed tokens and codes, sessions, passkeys, WebAuthn challenges. */
export class HomeAuthRepository {
  /** Challenges (src/shared/webauthn-challenges.ts). */
  private readonly challenges: WebAuthnChallengeStore<string>;

  constructor(private readonly db: Knex) {
    this.challenges = new WebAuthnChallengeStore(db, "home_webauthn_challenges", "email");
  }

  /** The e-mail of a property's customer (staff's 'Send sign-in link'): My Home's read model (README "Read model"). */
  async customerEmailOfProperty(propertyId: number): Promise<string | null> {
    const row = await this.db("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .where("p.id", propertyId)
      .first("c.email");
    return (row?.email as string | undefined) || null;
  }

  async insertToken(
    tx: Tx | Knex = this.db,
    row: { email: string; tokenHash: string; codeHash: string | null; source: "email" | "support"; expiresAt: Date },
  ): Promise<void> {
    await tx("home_sign_in_tokens").insert({
      email: row.email,
      token_hash: row.tokenHash,
      code_hash: row.codeHash,
      source: row.source,
      expires_at: row.expiresAt,
    });
  }

  /** Spends a live token once, atomically: answers its e-mail, or null when unknown, used or expired. */
  async spendToken(tokenHash: string, now: Date): Promise<string | null> {
    const [row] = await this.db("home_sign_in_tokens")
      .where({ token_hash: tokenHash })
      .whereNull("used_at")
      .where("expires_at", ">", now)
      .update({ used_at: now })
      .returning("email");
    return row ? (row.email as string) : null;
  }

  /** Whether the e-mail has a live token that came with a code (e-mailed, or made alike for an unknown e-mail). */
  async hasLiveEmailedToken(email: string, now: Date): Promise<boolean> {
    const row = await this.db("home_sign_in_tokens")
      .where({ email })
      .whereNotNull("code_hash")
      .whereNull("used_at")
      .where("expires_at", ">", now)
      .first("id");
    return Boolean(row);
  }

  /** Whether a token is live (for the page the link opens; it changes nothing). */
  async isLiveToken(tokenHash: string, now: Date): Promise<boolean> {
    const row = await this.db("home_sign_in_tokens")
      .where({ token_hash: tokenHash })
      .whereNull("used_at")
      .where("expires_at", ">", now)
      .first("id");
    return Boolean(row);
  }

  /**
   * Takes one try at the e-mail's newest live code, atomically: answers its id and hash while it has tries
   * left (the try is counted first, so parallel guesses cannot pass the limit), or null.
   */
  async takeCodeTry(email: string, now: Date, maxTries: number): Promise<{ id: number; codeHash: string } | null> {
    const newest = this.db("home_sign_in_tokens")
      .where({ email })
      .whereNotNull("code_hash")
      .whereNull("used_at")
      .where("expires_at", ">", now)
      .orderBy("id", "desc")
      .limit(1)
      .select("id");
    const [row] = await this.db("home_sign_in_tokens")
      .whereIn("id", newest)
      .where("code_tries", "<", maxTries)
      .increment("code_tries", 1)
      .returning(["id", "code_hash"]);
    return row ? { id: row.id as number, codeHash: row.code_hash as string } : null;
  }

  async spendTokenById(id: number, now: Date): Promise<boolean> {
    const n = await this.db("home_sign_in_tokens").where({ id }).whereNull("used_at").update({ used_at: now });
    return n > 0;
  }

  async insertSession(email: string, tokenHash: string, method: string, now: Date, expiresAt: Date): Promise<number> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx("home_sessions")
        .insert({ email, token_hash: tokenHash, method, created_at: now, last_seen_at: now, expires_at: expiresAt })
        .returning("id");
      await tx("home_accounts")
        .insert({ email, last_signed_in_at: now })
        .onConflict("email")
        .merge({ last_signed_in_at: now });
      return row.id as number;
    });
  }

  async findLiveSession(tokenHash: string, now: Date): Promise<HomeSessionRow | null> {
    const row = await this.db("home_sessions")
      .where({ token_hash: tokenHash })
      .whereNull("revoked_at")
      .where("expires_at", ">", now)
      .first("id", "email", "expires_at", "last_seen_at");
    return row ? { id: row.id, email: row.email, expiresAt: row.expires_at, lastSeenAt: row.last_seen_at } : null;
  }

  async renewSession(id: number, now: Date, expiresAt: Date): Promise<void> {
    await this.db("home_sessions")
      .where({ id })
      .whereNull("revoked_at")
      .update({ last_seen_at: now, expires_at: expiresAt });
  }

  async revokeSession(id: number, now: Date): Promise<void> {
    await this.db("home_sessions").where({ id }).whereNull("revoked_at").update({ revoked_at: now });
  }

  /**
   * Every door of the e-mail closes at once: sessions end, links and codes not used yet are spent, and the
   * calendar feed's URL stops answering (a new one is made on Visits). Answers the sessions ended.
   */
  async revokeAll(email: string, now: Date): Promise<number> {
    return this.db.transaction(async (tx) => {
      const sessions = await tx("home_sessions").where({ email }).whereNull("revoked_at").update({ revoked_at: now });
      await tx("home_sign_in_tokens").where({ email }).whereNull("used_at").update({ used_at: now });
      await tx("home_calendar_feeds").where({ email }).delete();
      return sessions;
    });
  }

  async lastSignedIn(emails: string[]): Promise<Map<string, Date>> {
    if (!emails.length) return new Map();
    const rows = await this.db("home_accounts")
      .whereIn("email", emails)
      .whereNotNull("last_signed_in_at")
      .select("email", "last_signed_in_at");
    return new Map(rows.map((r) => [r.email as string, r.last_signed_in_at as Date]));
  }

  // ---------- passkeys ----------

  // WebAuthn challenges, stored as the staff's are (src/shared/webauthn-challenges.ts); `email` only for adding one.
  insertChallenge(challengeHash: string, purpose: ChallengePurpose, email: string | null, expiresAt: Date) {
    return this.challenges.insert(challengeHash, purpose, email, expiresAt);
  }

  /** Spends a live challenge once; answers whether it was there (and, for registration, whose it is). */
  spendChallenge(challengeHash: string, purpose: ChallengePurpose, email: string | null, now: Date) {
    return this.challenges.spend(challengeHash, purpose, email, now);
  }

  async passkeysOf(email: string): Promise<HomePasskeyRow[]> {
    return (await this.db("home_passkeys").where({ email }).orderBy("id")).map(toPasskey);
  }

  async passkeyByCredential(credentialId: string): Promise<HomePasskeyRow | null> {
    const row = await this.db("home_passkeys").where({ credential_id: credentialId }).first();
    return row ? toPasskey(row) : null;
  }

  async insertPasskey(p: {
    email: string;
    credentialId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    name: string;
  }): Promise<number> {
    const [row] = await this.db("home_passkeys")
      .insert({
        email: p.email,
        credential_id: p.credentialId,
        public_key: Buffer.from(p.publicKey),
        counter: p.counter,
        transports: p.transports,
        name: p.name,
      })
      .returning("id");
    return row.id as number;
  }

  async recordPasskeyUse(id: number, counter: number, now: Date): Promise<void> {
    await this.db("home_passkeys").where({ id }).update({ counter, last_used_at: now });
  }

  async deletePasskey(email: string, id: number): Promise<boolean> {
    return (await this.db("home_passkeys").where({ email, id }).delete()) > 0;
  }
}
