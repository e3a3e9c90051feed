import { z } from "zod";
import { apiCalls, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import { type StaffUser, loginSchema } from "./auth.schemas.js";

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
      "Sets the staff session cookie. Failures share one generic message. Ten failures for an e-mail from one client address lock that pair for 15 minutes; past 100 for an e-mail, addresses the user never signed in from wait between guesses. A 429 says how long in Retry-After (seconds).",
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
]);
