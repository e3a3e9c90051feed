// WebAuthn for both sign-ins that use passkeys: homeowners' (src/modules/my-home, docs/decisions.md#28) and staff's
// second step (src/modules/auth, docs/decisions.md#38). Each caller stores its own challenges (as SHA-256, spent
// once) and credentials; this file holds what both do with @simplewebauthn/server.
import { randomBytes } from "node:crypto";
import {
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

/** How long a challenge may be answered. */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** The relying party: the site's host name and origin, from its public URL. */
export function relyingParty(publicUrl: string): { rpID: string; origin: string } {
  const url = new URL(publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** A new challenge: the bytes for the options and their base64url text, which the caller stores hashed. */
export function newChallenge(): { bytes: Uint8Array<ArrayBuffer>; encoded: string } {
  const bytes = new Uint8Array(randomBytes(32));
  return { bytes, encoded: Buffer.from(bytes).toString("base64url") };
}

/** A passkey as the callers store it. */
export interface StoredCredential {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
}

/** A named passkey as staff and My Home store it: the credential, its name, when added and last used. */
export interface StoredPasskey {
  id: number;
  credentialId: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A passkey row (staff_passkeys, home_passkeys: the same columns beside their owner's) as a StoredPasskey. */
export const toStoredPasskey = (r: Record<string, unknown>): StoredPasskey => ({
  id: r.id as number,
  credentialId: r.credential_id as string,
  publicKey: new Uint8Array(r.public_key as Buffer),
  counter: Number(r.counter),
  transports: (r.transports as string[]) ?? [],
  name: r.name as string,
  createdAt: r.created_at as Date,
  lastUsedAt: (r.last_used_at as Date | null) ?? null,
});

/**
 * Verifies a registration against a challenge the caller spends (`spend` answers whether it was live and theirs).
 * Answers the new credential, or the reason it was refused.
 */
export async function verifyRegistration(
  response: RegistrationResponseJSON,
  rp: { rpID: string; origin: string },
  spend: (challenge: string) => Promise<boolean>,
): Promise<{ credential: StoredCredential } | { refused: string }> {
  try {
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: spend,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
    if (!verification.verified) return { refused: "not verified" };
    const { credential } = verification.registrationInfo;
    return {
      credential: {
        credentialId: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
      },
    };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

/** Verifies an assertion by this stored credential; answers its new counter, or null when it does not verify. */
export async function verifyAssertion(
  response: AuthenticationResponseJSON,
  rp: { rpID: string; origin: string },
  spend: (challenge: string) => Promise<boolean>,
  credential: StoredCredential,
): Promise<number | null> {
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: spend,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: {
      id: credential.credentialId,
      publicKey: new Uint8Array(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports as NonNullable<RegistrationResponseJSON["response"]["transports"]>,
    },
    requireUserVerification: false,
  }).catch(() => null);
  return verification?.verified ? verification.authenticationInfo.newCounter : null;
}
