// Billing e-mails (issue 19, item 9). Helper E owns this file; this first version is the lead's placeholder shape.
import type { MailMessage } from "../mail/mail.schemas.js";

export type BillingMailKind = "receipt" | "payment_failed" | "cancel_scheduled" | "canceled" | "plan_changed";

export interface BillingMailData {
  to: string;
  name: string | null;
  planName: string;
  amount?: number;
  periodStart?: string;
  periodEnd?: string;
  minimumTermEndsAt: string;
  cancelAt?: string | null;
  reason?: string | null;
  fromPlanName?: string;
  toPlanName?: string;
  effectiveAt?: string;
  link: string;
  supportEmail: string;
  supportPhone: string;
  timeZone: string;
}

const SUBJECTS: Record<BillingMailKind, string> = {
  receipt: "Your Haven receipt",
  payment_failed: "Your Haven payment failed",
  cancel_scheduled: "Your Haven plan cancellation is scheduled",
  canceled: "Your Haven plan has ended",
  plan_changed: "Your Haven plan has changed",
};

export function billingMail(kind: BillingMailKind, data: BillingMailData): MailMessage {
  return { to: data.to, subject: SUBJECTS[kind], text: `${SUBJECTS[kind]}.\n\nManage your plan: ${data.link}\n`, attachments: [] };
}
