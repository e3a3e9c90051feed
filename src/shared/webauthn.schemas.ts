import { z } from "zod";

/** A WebAuthn response as @simplewebauthn/browser sends it; the library checks the inside (src/shared/webauthn.ts). */
export const webauthnCredentialSchema = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal("public-key"),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.string().optional(),
  })
  .loose();
