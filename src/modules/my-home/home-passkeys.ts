// Passkeys of a signed-in homeowner (docs/decisions.md#28): WebAuthn registration and discoverable sign-in, each
// challenge stored as SHA-256 and spent once. HomeAuthService builds it and hands it e-mails already normalised.
import { generateAuthenticationOptions, generateRegistrationOptions } from "@simplewebauthn/server";
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
import type { HomeAuthRepository, HomePasskeyRow } from "./home-auth.repository.js";

export interface PasskeySummary {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** What HomePasskeys uses: the sign-in repository, the site's URL (the relying party), the clock, and sessions. */
export interface HomePasskeysDeps {
  repo: HomeAuthRepository;
  publicUrl: string;
  clock: () => Date;
  sessions: {
    createSession(email: string, meta: { method: "passkey" }): Promise<{ token: string; sessionId: number }>;
  };
}

export class HomePasskeys {
  constructor(private readonly deps: HomePasskeysDeps) {}

  private get rp() {
    return relyingParty(this.deps.publicUrl);
  }

  private async newChallenge(purpose: "register" | "sign-in", email: string | null): Promise<Uint8Array<ArrayBuffer>> {
    const { bytes, encoded } = newChallenge();
    await this.deps.repo.insertChallenge(
      hashToken(encoded),
      purpose,
      email,
      new Date(this.deps.clock().getTime() + WEBAUTHN_CHALLENGE_TTL_MS),
    );
    return bytes;
  }

  async list(email: string): Promise<PasskeySummary[]> {
    return (await this.deps.repo.passkeysOf(email)).map(summary);
  }

  async registrationOptions(email: string) {
    const existing = await this.deps.repo.passkeysOf(email);
    return generateRegistrationOptions({
      rpName: "Haven My Home",
      rpID: this.rp.rpID,
      userName: email,
      userDisplayName: email,
      challenge: await this.newChallenge("register", email),
      attestationType: "none",
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    });
  }

  async register(email: string, response: RegistrationResponseJSON, name: string): Promise<PasskeySummary> {
    const now = this.deps.clock();
    const verified = await verifyRegistration(response, this.rp, (challenge) =>
      this.deps.repo.spendChallenge(hashToken(challenge), "register", email, now),
    );
    if ("refused" in verified)
      throw new ValidationError(`The passkey could not be registered: ${verified.refused}`, {
        response: "Invalid passkey response",
      });
    const { credential } = verified;
    if (await this.deps.repo.passkeyByCredential(credential.credentialId))
      throw new ValidationError("This passkey is already registered", { response: "Already registered" });
    const id = await this.deps.repo.insertPasskey({
      email,
      credentialId: credential.credentialId,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
      name,
    });
    const created = (await this.deps.repo.passkeysOf(email)).find((p) => p.id === id) as HomePasskeyRow;
    return summary(created);
  }

  async remove(email: string, id: number): Promise<void> {
    if (!(await this.deps.repo.deletePasskey(email, id))) throw new NotFoundError("Passkey not found");
  }

  /** Options for signing in with a discoverable passkey (no e-mail asked). */
  async signInOptions() {
    return generateAuthenticationOptions({
      rpID: this.rp.rpID,
      challenge: await this.newChallenge("sign-in", null),
      userVerification: "preferred",
    });
  }

  /** Verifies a passkey assertion and opens a session of the passkey's e-mail; null when it does not verify. */
  async signIn(
    response: AuthenticationResponseJSON,
  ): Promise<{ email: string; token: string; sessionId: number } | null> {
    const passkey = await this.deps.repo.passkeyByCredential(response.id);
    if (!passkey) return null;
    const now = this.deps.clock();
    const counter = await verifyAssertion(
      response,
      this.rp,
      (challenge) => this.deps.repo.spendChallenge(hashToken(challenge), "sign-in", null, now),
      passkey,
    );
    if (counter === null) return null;
    await this.deps.repo.recordPasskeyUse(passkey.id, counter, now);
    return { email: passkey.email, ...(await this.deps.sessions.createSession(passkey.email, { method: "passkey" })) };
  }
}

const summary = (p: HomePasskeyRow): PasskeySummary => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
});
