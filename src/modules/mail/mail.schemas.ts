import { z } from "zod";

/** A message as the `mail.send` job carries it: plain JSON, so it survives the queue. */
export const mailMessageSchema = z.object({
  /** Which e-mail this is (`home-sign-in`): what a failure is logged as, never the body. The subject stands in without it. */
  template: z
    .string()
    .regex(/^[a-z0-9.-]{1,60}$/)
    .optional(),
  to: z.string().email(),
  /** Overrides the settings' Reply-To (the office) for this message. */
  replyTo: z.string().email().optional(),
  subject: z.string().min(1).max(300),
  text: z.string(),
  html: z.string().optional(),
  attachments: z
    .array(
      // Binary files (PDFs) travel through the queue as base64 with `encoding: "base64"`.
      z.object({
        filename: z.string().min(1),
        content: z.string(),
        contentType: z.string().min(1),
        encoding: z.enum(["base64"]).optional(),
      }),
    )
    .max(10)
    .optional(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

export const MAIL_SEND_TASK = "mail.send";
