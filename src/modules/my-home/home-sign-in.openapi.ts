import { z } from "zod";
import { apiCalls } from "../../http/openapi.kit.js";
import {
  passkeyIdSchema,
  passkeyRegisterSchema,
  passkeySchema,
  passkeySignInSchema,
  propertyIdSchema,
  signInAnswerSchema,
  signInRequestSchema,
} from "./home-sign-in.schemas.js";

// OpenAPI entries of My Home sign-in (home-sign-in.routes.ts); see src/modules/my-home/README.md, "Sign-in".
// The pages (/my-home/sign-in, /my-home/sign-in/{token}, the code form, sign-out) are forms, not JSON calls.

const options = z
  .record(z.string(), z.unknown())
  .meta({ description: "WebAuthn options (PublicKeyCredential*OptionsJSON), for @simplewebauthn/browser" });

export const homeSignInCalls = apiCalls([
  {
    method: "post",
    path: "/api/my-home/sign-in",
    summary: "E-mail a My Home sign-in link and code",
    description:
      "Always the same 202 answer, whether or not the e-mail is a customer's; only a known customer gets the e-mail (a link valid 15 minutes, once, and a 6-digit code). 5 requests per e-mail and 30 per client address every 15 minutes; a 429 says how long in Retry-After.",
    tags: ["My Home"],
    access: "public",
    body: signInRequestSchema,
    responses: { 202: signInAnswerSchema },
    errors: [429],
  },
  {
    method: "post",
    path: "/api/my-home/sign-out-everywhere",
    summary: "Sign out of My Home everywhere",
    description: "Revokes every session of the signed-in homeowner's e-mail and clears this browser's cookie.",
    tags: ["My Home"],
    access: "public",
    responses: { 200: z.object({ success: z.boolean() }) },
    errors: [401],
  },
  {
    method: "get",
    path: "/api/my-home/passkeys",
    summary: "The signed-in homeowner's passkeys",
    tags: ["My Home"],
    access: "public",
    responses: { 200: z.array(passkeySchema) },
    errors: [401],
  },
  {
    method: "post",
    path: "/api/my-home/passkeys/options",
    summary: "Options to register a passkey",
    description: "A one-time challenge (5 minutes; only its hash is stored), for the signed-in homeowner.",
    tags: ["My Home"],
    access: "public",
    responses: { 200: options },
    errors: [401],
  },
  {
    method: "post",
    path: "/api/my-home/passkeys",
    summary: "Register a passkey",
    description:
      "The browser's registration response to the options' challenge; a 400 names `response` when it does not verify.",
    tags: ["My Home"],
    access: "public",
    body: passkeyRegisterSchema,
    responses: { 201: passkeySchema },
    errors: [401],
  },
  {
    method: "delete",
    path: "/api/my-home/passkeys/{id}",
    summary: "Remove a passkey",
    tags: ["My Home"],
    access: "public",
    params: passkeyIdSchema,
    responses: { 204: { description: "Removed" } },
    errors: [401, 404],
  },
  {
    method: "post",
    path: "/api/my-home/passkey-sign-in/options",
    summary: "Options to sign in with a passkey",
    description: "No e-mail asked: the passkey names its homeowner (discoverable credential).",
    tags: ["My Home"],
    access: "public",
    responses: { 200: options },
  },
  {
    method: "post",
    path: "/api/my-home/passkey-sign-in",
    summary: "Sign in to My Home with a passkey",
    description:
      "Sets the `haven_home` session cookie and answers where to go (`next` when it is a same-site path, else /my-home).",
    tags: ["My Home"],
    access: "public",
    body: passkeySignInSchema,
    responses: { 200: z.object({ redirect: z.string() }) },
    errors: [401],
  },
  {
    method: "post",
    path: "/api/properties/{id}/send-sign-in-link",
    summary: "E-mail the property's customer a My Home sign-in link",
    description: "The staff member never sees the link or the code.",
    tags: ["My Home"],
    access: "staff",
    params: propertyIdSchema,
    responses: { 200: z.object({ success: z.boolean(), email: z.string() }) },
    errors: [404],
  },
]);
