import { z } from "zod";
import { apiCalls, dateTimeString, idNumber, idParamsDoc } from "../../http/openapi.kit.js";
import { type StaffUser, loginSchema, staffPasskeySchema } from "./auth.schemas.js";

// OpenAPI entries of the auth routes (auth.routes.ts); see docs/api.md.

const staffUser: z.ZodType<StaffUser> = z
  .object({
    id: idNumber,
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: z.string(),
    createdAt: dateTimeString,
  })
  .meta({ id: "StaffUser", description: "A staff user; never the password hash" });

const passkey = z
  .object({ id: idNumber, name: z.string(), createdAt: dateTimeString, lastUsedAt: dateTimeString.nullable() })
  .meta({ id: "StaffPasskey", description: "One of the signed-in person's passkeys; never the key itself" });

export const authCalls = apiCalls([
  {
    method: "get",
    path: "/api/auth/user",
    summary: "The signed-in staff user",
    description: "401 means signed out (the islands then go to /api/login).",
    tags: ["Auth"],
    access: "public",
    responses: { 200: staffUser },
    errors: [401],
  },
  {
    method: "post",
    path: "/api/auth/login",
    summary: "Staff login",
    description:
      "Sets the staff session cookie. With a second step (docs/decisions.md#38), a right password alone is a 401 with `twoStepRequired: true` (and `passkeyOptions` when the person has passkeys): send the password again with the app's `code` or the passkey's answer as `passkey`. Failures share one generic message. Ten failures for an e-mail from one client address lock that pair for 15 minutes; past 100 for an e-mail, addresses the user never signed in from wait between guesses. A 429 says how long in Retry-After (seconds).",
    tags: ["Auth"],
    access: "public",
    body: loginSchema,
    responses: { 200: staffUser },
    errors: [401, 429],
  },
  {
    method: "post",
    path: "/api/auth/logout",
    summary: "Staff logout",
    description:
      'Ends the session and sends Clear-Site-Data: "cache" (the browser drops cached staff photos; IndexedDB stays). Answers success even without one.',
    tags: ["Auth"],
    access: "public",
    responses: { 200: z.object({ success: z.literal(true) }) },
  },
  {
    method: "get",
    path: "/api/login",
    summary: "Session-expiry target: redirects to the login page",
    tags: ["Auth"],
    access: "public",
    responses: { 302: { description: "Redirect to /login", headers: z.object({ Location: z.literal("/login") }) } },
  },
  {
    method: "get",
    path: "/api/auth/passkeys",
    summary: "The signed-in staff user's passkeys",
    tags: ["Auth"],
    access: "staff",
    responses: { 200: z.array(passkey) },
    errors: [401],
  },
  {
    method: "post",
    path: "/api/auth/passkeys/options",
    summary: "Options to add a passkey",
    description: "A one-time challenge (5 minutes; only its hash is stored) for the signed-in staff user.",
    tags: ["Auth"],
    access: "staff",
    responses: { 200: z.record(z.string(), z.unknown()).meta({ description: "WebAuthn creation options" }) },
    errors: [401],
  },
  {
    method: "post",
    path: "/api/auth/passkeys",
    summary: "Add a passkey",
    description:
      "The browser's registration response to the options' challenge; a 400 names `response` when it does not verify. Meets an owner's two-step requirement as an authenticator app does.",
    tags: ["Auth"],
    access: "staff",
    body: staffPasskeySchema,
    responses: { 201: passkey },
    errors: [401],
  },
  {
    method: "delete",
    path: "/api/auth/passkeys/{id}",
    summary: "Remove one of one's passkeys",
    tags: ["Auth"],
    access: "staff",
    params: idParamsDoc,
    responses: { 204: { description: "Removed" } },
    errors: [401, 404],
  },
]);
