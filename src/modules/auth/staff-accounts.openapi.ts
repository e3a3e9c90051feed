import { z } from "zod";
import { apiCalls, dateTimeString, idNumber, idParamsDoc } from "../../http/openapi.kit.js";
import { type StaffAccount, accountChangeSchema, inviteSchema } from "./staff-accounts.schemas.js";
import { STAFF_ROLES } from "./users.service.js";

// OpenAPI entries of the staff-account calls (staff-accounts.routes.ts, docs/decisions.md#38); owners only.

const staffAccount: z.ZodType<StaffAccount> = z
  .object({
    id: idNumber,
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: z.enum(STAFF_ROLES),
    status: z.enum(["active", "invited", "deactivated"]),
    lastSignInAt: dateTimeString.nullable(),
    createdAt: dateTimeString,
  })
  .meta({ id: "StaffAccount", description: "A staff account as owners see it; never a password hash" });

export const staffAccountsCalls = apiCalls([
  {
    method: "get",
    path: "/api/staff-users",
    summary: "Staff accounts",
    description: "Owners only (403 for office and inspector). Each account's role, status and last sign-in.",
    tags: ["Staff accounts"],
    access: "staff",
    responses: { 200: z.array(staffAccount) },
    errors: [403],
  },
  {
    method: "post",
    path: "/api/staff-users",
    summary: "Invite a staff member",
    description:
      "Owners only. Creates the account without a password and e-mails a link to /staff/set-password, valid 48 hours and once. 409 when the e-mail (any case) has an account.",
    tags: ["Staff accounts"],
    access: "staff",
    body: inviteSchema,
    responses: { 201: staffAccount },
    errors: [403, 409],
  },
  {
    method: "patch",
    path: "/api/staff-users/{id}",
    summary: "Change a role, deactivate or reactivate",
    description:
      "Owners only. `active: false` deactivates the account and ends its sessions at once. The last owner who can sign in cannot be demoted or deactivated (409).",
    tags: ["Staff accounts"],
    access: "staff",
    params: idParamsDoc,
    body: accountChangeSchema,
    responses: { 200: staffAccount },
    errors: [403, 404, 409],
  },
  {
    method: "post",
    path: "/api/staff-users/{id}/reset-link",
    summary: "E-mail a password-reset link",
    description:
      "Owners only. A link to /staff/set-password valid 48 hours (the invitation again while the account has no password); a newer link replaces older ones. Limited like logins: past 5 per account or 50 per client address in 15 minutes, 429 with Retry-After. 409 for a deactivated account.",
    tags: ["Staff accounts"],
    access: "staff",
    params: idParamsDoc,
    responses: { 202: staffAccount },
    errors: [403, 404, 409, 429],
  },
]);
