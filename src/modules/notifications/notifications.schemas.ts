import { z } from "zod";
import { MAX_ID, idInput } from "../../http/fields.js";
import { NOTIFICATION_KINDS } from "./notifications.constants.js";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use YYYY-MM-DD");

/** The list's filters (API query and the page's form): empty fields are no filter. */
export const notificationListQuery = z.object({
  kind: z.preprocess((v) => (v === "" ? undefined : v), z.enum(NOTIFICATION_KINDS).optional()),
  unread: z.preprocess(
    (v) => (v === "" || v === undefined ? undefined : v === "true" || v === "1" || v === true),
    z.boolean().optional(),
  ),
  from: z.preprocess((v) => (v === "" ? undefined : v), day.optional()),
  to: z.preprocess((v) => (v === "" ? undefined : v), day.optional()),
});

/** Mark read: these ids, or every unread one when `all`. */
export const markReadBody = z
  .object({
    ids: z.preprocess(
      (v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]),
      z
        .array(z.preprocess(idInput, z.number({ message: "Not a notification" }).int().positive().max(MAX_ID)))
        .max(500)
        .optional(),
    ),
    all: z.preprocess((v) => v === true || v === "true" || v === "1", z.boolean()).optional(),
    /** The page's filters to return to ("?kind=…"). */
    back: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(500).startsWith("?").optional()),
  })
  .refine((b) => b.all || (b.ids?.length ?? 0) > 0, { message: "Say which notifications are read", path: ["ids"] });

export interface Notification {
  id: number;
  kind: string;
  recordType: string;
  recordId: string;
  link: string;
  text: string;
  createdAt: string;
  readAt: string | null;
}
