import { z } from "zod";
import { pathId, singleLineText } from "../../http/fields.js";
import { STAFF_ROLES } from "./users.service.js";

const role = z.enum(STAFF_ROLES, { message: `Role must be one of ${STAFF_ROLES.join(", ")}` });

/** POST /api/staff-users and the invite form: who to invite, with which role. */
export const inviteSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address"),
  firstName: singleLineText("First name", 100).pipe(z.string().min(1, "First name is required")),
  lastName: singleLineText("Last name", 100).pipe(z.string().min(1, "Last name is required")),
  role,
});

/** PATCH /api/staff-users/{id}: a new role, and/or deactivate (`active: false`) or reactivate. */
export const accountChangeSchema = z
  .strictObject({ role: role.optional(), active: z.boolean().optional() })
  .refine((c) => c.role !== undefined || c.active !== undefined, { message: "Give a role or active" });
export type AccountChange = z.infer<typeof accountChangeSchema>;

// Past MAX_ID (Postgres integer) an id names nothing: a 400, never a 500 from the query.
export const accountIdParams = z.object({ id: pathId("Staff account") });

/** The set-password form: the link's token and the new password, typed twice. */
export const setPasswordSchema = z
  .object({
    token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "This link has already been used or has expired"),
    password: z.string().min(10, "Password must be at least 10 characters").max(200, "Password is too long"),
    confirm: z.string(),
  })
  .refine((f) => f.password === f.confirm, { path: ["confirm"], message: "The passwords do not match" });

export type AccountStatus = "active" | "invited" | "deactivated";

/** A staff account as owners see it (GET /api/staff-users): never a password hash. */
export interface StaffAccount {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  status: AccountStatus;
  lastSignInAt: string | null;
  createdAt: string;
}
