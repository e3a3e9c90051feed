import { generateAuthenticationOptions, generateRegistrationOptions } from "@simplewebauthn/server";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { NotFoundError, ValidationError } from "../../http/errors.js";
import { hashToken } from "../../shared/one-time-links.js";
import {
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  WEBAUTHN_CHALLENGE_TTL_MS,
  newChallenge,
  relyingParty,
  verifyAssertion,
  verifyRegistration,
} from "../../shared/webauthn.js";
import type { AuditLog } from "../audit/index.js";
import type { StaffUser } from "./auth.schemas.js";
import type { StaffPasskeyRow, StaffPasskeysRepository } from "./staff-passkeys.repository.js";

export interface StaffPasskeySummary {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface StaffPasskeysDeps {
  repo: StaffPasskeysRepository;
  /** The site's public URL: the relying party. */
  publicUrl: string;
  transaction: TransactionRunner;
  /** Adding and removing one is audited (docs/decisions.md#39): its id and name, never the key. */
  audit: Pick<AuditLog, "record">;
  clock?: () => Date;
}

/**
 * Staff passkeys, a second step of sign-in as an authenticator app is (docs/decisions.md#38): each person adds
 * and removes their own; login asks for one after a right password. Challenges are per user, hashed, spent once.
 */
export class StaffPasskeys {
  private readonly clock: () => Date;

  constructor(private readonly deps: StaffPasskeysDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  private get rp() {
    return relyingParty(this.deps.publicUrl);
  }

  private async challenge(purpose: "register" | "sign-in", userId: number) {
    const { bytes, encoded } = newChallenge();
    const expires = new Date(this.clock().getTime() + WEBAUTHN_CHALLENGE_TTL_MS);
    await this.deps.repo.insertChallenge(hashToken(encoded), purpose, userId, expires);
    return bytes;
  }

  private spender(purpose: "register" | "sign-in", userId: number, now: Date) {
    return (challenge: string) => this.deps.repo.spendChallenge(hashToken(challenge), purpose, userId, now);
  }

  async list(user: StaffUser): Promise<StaffPasskeySummary[]> {
    return (await this.deps.repo.passkeysOf(user.id)).map(summary);
  }

  has(userId: number): Promise<boolean> {
    return this.deps.repo.hasPasskey(userId);
  }

  async registrationOptions(user: StaffUser) {
    const existing = await this.deps.repo.passkeysOf(user.id);
    return generateRegistrationOptions({
      rpName: "Haven Admin Portal",
      rpID: this.rp.rpID,
      userName: user.email,
      userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
      challenge: await this.challenge("register", user.id),
      attestationType: "none",
      excludeCredentials: existing.map((p) => ({ id: p.credentialId })),
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    });
  }

  async register(user: StaffUser, response: RegistrationResponseJSON, name: string): Promise<StaffPasskeySummary> {
    const now = this.clock();
    const verified = await verifyRegistration(response, this.rp, this.spender("register", user.id, now));
    if ("refused" in verified)
      throw new ValidationError(`The passkey could not be added: ${verified.refused}`, {
        response: "Invalid passkey response",
      });
    return this.deps.transaction(async (tx) => {
      const id = await this.deps.repo.insert(user.id, verified.credential, name, tx);
      if (id === null) throw new ValidationError("This passkey is already added", { response: "Already added" });
      const created = (await this.deps.repo.passkeysOf(user.id, tx)).find((p) => p.id === id) as StaffPasskeyRow;
      await this.event(tx, user, "staff_user.passkey_add", null, created);
      return summary(created);
    });
  }

  async remove(user: StaffUser, id: number): Promise<void> {
    await this.deps.transaction(async (tx) => {
      const removed = await this.deps.repo.delete(user.id, id, tx);
      if (!removed) throw new NotFoundError("Passkey not found");
      await this.event(tx, user, "staff_user.passkey_remove", removed, null);
    });
  }

  /** The event names the passkey by its id and name only: no credential id, public key or counter. */
  private event(
    tx: Tx,
    user: StaffUser,
    action: string,
    before: StaffPasskeyRow | null,
    after: StaffPasskeyRow | null,
  ) {
    const described = (p: StaffPasskeyRow | null) =>
      p && { signInKey: { id: p.id, name: p.name, addedAt: p.createdAt.toISOString() } };
    return this.deps.audit.record(tx, {
      actor: `staff:${user.id}`,
      action,
      recordType: "staff_user",
      recordId: user.id,
      before: described(before),
      after: described(after),
    });
  }

  /** Options for the second step of this user's sign-in (their password was right), or null without a passkey. */
  async signInOptions(userId: number) {
    const passkeys = await this.deps.repo.passkeysOf(userId);
    if (!passkeys.length) return null;
    return generateAuthenticationOptions({
      rpID: this.rp.rpID,
      challenge: await this.challenge("sign-in", userId),
      allowCredentials: passkeys.map((p) => ({ id: p.credentialId })),
      userVerification: "preferred",
    });
  }

  /** Whether this assertion is by one of this user's passkeys, on a challenge issued to them (spent once). */
  async verify(userId: number, response: AuthenticationResponseJSON): Promise<boolean> {
    const passkey = await this.deps.repo.byCredential(response.id);
    if (!passkey || passkey.staffUserId !== userId) return false;
    const now = this.clock();
    const counter = await verifyAssertion(response, this.rp, this.spender("sign-in", userId, now), passkey);
    if (counter === null) return false;
    await this.deps.repo.recordUse(passkey.id, counter, now);
    return true;
  }
}

const summary = (p: StaffPasskeyRow): StaffPasskeySummary => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
});
