import { z } from "zod";
import { singleLineText } from "../../http/fields.js";
import { webauthnCredentialSchema } from "../../shared/webauthn.schemas.js";

export const loginSchema = z.object({
  email: z
    .string({ message: "Please enter both email and password" })
    .trim()
    .min(1, "Please enter both email and password")
    .email("Enter a valid e-mail address"),
  password: z
    .string({ message: "Please enter both email and password" })
    .min(1, "Please enter both email and password"),
  /** The authenticator app's code, for accounts that have one (docs/decisions.md#38). */
  code: z.string().trim().max(10).optional(),
  /** Or a passkey's answer to the options the first 401 carried (docs/decisions.md#38). */
  passkey: webauthnCredentialSchema.optional(),
});

/** Adding a staff passkey: the browser's registration response and a name for it. */
export const staffPasskeySchema = z.object({
  response: webauthnCredentialSchema,
  name: z.string().trim().min(1, "Name this passkey").max(80).default("Passkey"),
});

export const newStaffUserSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address"),
  firstName: singleLineText("First name", 100).pipe(z.string().min(1, "First name is required")),
  lastName: singleLineText("Last name", 100).pipe(z.string().min(1, "Last name is required")),
  password: z.string().min(10, "Password must be at least 10 characters").max(200),
});
export type NewStaffUser = z.infer<typeof newStaffUserSchema>;

/** What GET /api/auth/user returns: never the password hash. */
export interface StaffUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  createdAt: string;
}
