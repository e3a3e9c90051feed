import { z } from "zod";
import { webauthnCredentialSchema } from "../../shared/webauthn.schemas.js";
import { idParams } from "../../http/fields.js";

export const EMAIL_MESSAGE = "Enter the e-mail address Haven has for you";
export const CODE_MESSAGE = "Enter the 6-digit code from the e-mail";

export const signInRequestSchema = z.object({
  email: z.string().trim().min(1, EMAIL_MESSAGE).max(254).email(EMAIL_MESSAGE),
});

export const signInCodeSchema = z.object({
  email: z.string().trim().min(1, EMAIL_MESSAGE).max(254).email(EMAIL_MESSAGE),
  code: z
    .string()
    .transform((v) => v.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, CODE_MESSAGE)),
});

/** A WebAuthn response as @simplewebauthn/browser sends it (shared with staff passkeys). */
const credentialSchema = webauthnCredentialSchema;

export const passkeyRegisterSchema = z.object({
  response: credentialSchema,
  name: z.string().trim().min(1, "Name this passkey").max(80).default("Passkey"),
});

export const passkeySignInSchema = z.object({
  response: credentialSchema,
  next: z.string().max(2000).optional(),
});

// Canonical ids within Postgres' integer (src/http/fields.ts): never a 500 for an out-of-range id.
export const passkeyIdSchema = idParams;
export const propertyIdSchema = idParams;

export const signInAnswerSchema = z.object({ message: z.string() });
export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
