// Billing e-mails: plain text with a simple HTML twin, like the other templates. Each one
// names the plan, states the minimum-term date, and carries the signed billing link and the support contacts.
// Instants arrive as ISO strings and are shown as dates in the business zone.
import type { MailMessage } from "../mail/mail.schemas.js";
import { withCustomerFooter } from "../mail/index.js";
import { type MailInvoice, billingAmount } from "../invoices/index.js";
import { BILLING_LINK_DAYS } from "./billing-links.js";
import { MINIMUM_TERM_MONTHS } from "./subscriptions.constants.js";
import { escapeHtml } from "../../shared/html.js";

export type BillingMailKind =
  | "receipt"
  | "payment_failed"
  | "payment_action_required"
  | "cancel_scheduled"
  | "cancel_undone"
  | "canceled"
  | "plan_changed"
  | "refund"
  | "card_update";

export type { MailInvoice };

export interface BillingMailData {
  to: string;
  name: string | null;
  planName: string;
  /** Dollars. */
  amount?: number;
  periodStart?: string;
  periodEnd?: string;
  minimumTermEndsAt: string;
  cancelAt?: string | null;
  reason?: string | null;
  fromPlanName?: string;
  toPlanName?: string;
  effectiveAt?: string;
  /** The card on file, when known (receipts name it). */
  cardLast4?: string | null;
  /** The plan stopped unpaid (recoverable by paying its open invoice), rather than canceled. */
  unpaid?: boolean;
  /** Payment failed: when the plan ends if the invoice stays unpaid. */
  endsAt?: string | null;
  /** 3-D Secure: Stripe's hosted page where the customer confirms the payment. */
  hostedInvoiceUrl?: string | null;
  /** Receipts and refunds: the invoice, its PDF on My Home, and the business's GST/HST number. */
  invoice?: MailInvoice;
  pdfLink?: string;
  registrationNumber?: string | null;
  /** Revenu Québec's QST number, printed when the invoice charges QST (docs/decisions.md#51). */
  qstNumber?: string | null;
  /** Refunds: what goes back (tax included, dollars), its tax part, and the staff's reason. */
  refund?: {
    amountCents: number;
    taxLines: { label: string; amountCents: number }[];
    /** Its credit note's number (docs/decisions.md#52). */
    number?: string | null;
  };
  link: string;
  supportEmail: string;
  supportPhone: string;
  timeZone: string;
}

/** 'April 30, 2026': an instant as a date in the business zone. */
// One formatter per zone: making one costs more than the rest of a receipt (thousands per demo renewal).
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function billingDate(iso: string, timeZone: string): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "long", day: "numeric" });
    dateFormats.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

export { billingAmount };

/** One paragraph of the message; `link` marks the one line whose URL becomes an anchor in the HTML. */
type Block = string | { link: string; label: string };

interface Built {
  subject: string;
  blocks: Block[];
}

function build(kind: BillingMailKind, d: BillingMailData): Built {
  const date = (iso: string) => billingDate(iso, d.timeZone);
  const minimumEnd = date(d.minimumTermEndsAt);
  const plan = `Haven ${d.planName} plan`;
  const amount = d.amount !== undefined ? billingAmount(d.amount) : null;
  const periodLine = d.periodStart && d.periodEnd ? `Period: ${date(d.periodStart)} to ${date(d.periodEnd)}` : null;
  const minimumLine = `Minimum term: ${MINIMUM_TERM_MONTHS} months, ending ${minimumEnd}. You can cancel anytime: before ${minimumEnd} a cancellation takes effect on ${minimumEnd}, afterwards at the end of the paid month.`;
  const lines = (...items: (string | null | false | undefined)[]) => items.filter(Boolean).join("\n");
  const money = (c: number) => billingAmount(c / 100);
  const inv = d.invoice;
  const chargesQst = inv?.taxLines.some((t) => t.label.startsWith("QST") && t.amountCents !== 0) ?? false;
  const invoiceLines = inv
    ? lines(
        inv.number && `Invoice: ${inv.number}`,
        `Subtotal: ${money(inv.subtotalCents)}`,
        ...inv.taxLines.map((t) => `${t.label}: ${money(t.amountCents)}`),
        `Total: ${money(inv.totalCents)}`,
        d.registrationNumber && `GST/HST registration: ${d.registrationNumber}`,
        chargesQst && d.qstNumber && `QST registration: ${d.qstNumber}`,
      )
    : null;
  const pdfBlock: Block[] = inv && d.pdfLink ? [{ label: "Your invoice (PDF), on My Home:", link: d.pdfLink }] : [];

  switch (kind) {
    case "receipt":
      return {
        subject: `Your Haven receipt: ${inv ? money(inv.totalCents) : (amount ?? d.planName)}`,
        blocks: [
          `Thank you. We received your payment for the ${plan}.`,
          // A charge of its own says why (the tax of the home's province, docs/decisions.md#57).
          ...(d.reason ? [d.reason] : []),
          lines(
            !inv && amount && `Amount: ${amount}`,
            periodLine,
            `Plan: ${d.planName}`,
            d.cardLast4 && `Card: ending in ${d.cardLast4}`,
          ),
          ...(invoiceLines ? [invoiceLines] : []),
          ...pdfBlock,
          minimumLine,
          { label: "See your invoices, update your card or cancel your plan:", link: d.link },
        ],
      };
    case "refund": {
      const back = d.refund ? money(d.refund.amountCents) : (amount ?? "");
      return {
        subject: `Your Haven refund: ${back}`,
        blocks: [
          `We have refunded ${back} to your card for the ${plan}${inv?.number ? `, invoice ${inv.number}` : ""}. It can take 5 to 10 business days to appear on your statement.`,
          lines(
            d.refund?.number && `Credit note: ${d.refund.number}`,
            d.refund && `Refunded: ${back}`,
            ...(d.refund?.taxLines ?? []).map((t) => `of which ${t.label}: ${money(t.amountCents)}`),
            d.reason && `Reason: ${d.reason}`,
            inv && `Invoice total: ${money(inv.totalCents)}`,
            d.registrationNumber && `GST/HST registration: ${d.registrationNumber}`,
            chargesQst && d.qstNumber && `QST registration: ${d.qstNumber}`,
          ),
          ...pdfBlock,
          { label: "See your plan and invoices:", link: d.link },
          minimumLine,
        ],
      };
    }
    case "payment_failed":
      return {
        subject: "Your Haven payment failed: please update your card",
        blocks: [
          `We could not take your payment${amount ? ` of ${amount}` : ""} for the ${plan}.`,
          lines(`Reason: ${d.reason ?? "The card was declined."}`, periodLine),
          "Please update your card. We try the payment again once it is updated. Until the payment goes through, the visits your plan schedules are on hold.",
          ...(d.endsAt ? [`If this invoice is still unpaid on ${date(d.endsAt)}, your plan ends on that date.`] : []),
          { label: "Update your card:", link: d.link },
          minimumLine,
        ],
      };
    case "card_update":
      // Sent by the office (docs/decisions.md#62): the billing page's card form pays the open invoice once updated.
      return {
        subject: "Update the card for your Haven plan",
        blocks: [
          `Please update the card we charge for the ${plan}${amount ? `: ${amount} is owed now` : ""}. Once it is updated, the open invoice is paid with it and the visits your plan schedules go ahead.`,
          { label: "Update your card:", link: `${d.link}/card` },
          { label: "See your plan and invoices:", link: d.link },
          minimumLine,
        ],
      };
    case "payment_action_required":
      return {
        subject: "Your bank asks you to confirm your Haven payment",
        blocks: [
          `Your bank needs you to confirm the payment${amount ? ` of ${amount}` : ""} for the ${plan} (3-D Secure).`,
          ...(periodLine ? [periodLine] : []),
          ...(d.hostedInvoiceUrl
            ? [{ label: "Confirm the payment on this secure page:", link: d.hostedInvoiceUrl }]
            : []),
          "Until it is confirmed, the visits your plan schedules are on hold.",
          { label: "See your plan and invoices:", link: d.link },
          minimumLine,
        ],
      };
    case "cancel_scheduled": {
      const endsAt = d.cancelAt ? date(d.cancelAt) : minimumEnd;
      const atMinimum =
        d.cancelAt !== null &&
        d.cancelAt !== undefined &&
        new Date(d.cancelAt).getTime() === new Date(d.minimumTermEndsAt).getTime();
      return {
        subject: `Your Haven plan cancellation is scheduled for ${endsAt}`,
        blocks: [
          `Your ${plan} will end on ${endsAt}${atMinimum ? `, when the ${MINIMUM_TERM_MONTHS}-month minimum term ends` : ", at the end of the paid month"}.`,
          `Your plan and its services continue until then, and nothing is charged after ${endsAt}.`,
          `Changed your mind? You can undo the cancellation until ${endsAt}.`,
          { label: "Undo the cancellation or see your plan:", link: d.link },
          minimumLine,
        ],
      };
    }
    case "cancel_undone":
      return {
        subject: `Your Haven ${d.planName} plan continues: the cancellation is undone`,
        blocks: [
          `The cancellation of your ${plan} is undone: your plan and its services continue, and it is billed monthly as before.`,
          lines(`Plan: ${d.planName}`, amount && `Monthly price: ${amount} plus tax`, periodLine),
          "Did you not ask for this? Reply to this e-mail and we will set it right.",
          { label: "See your plan and invoices:", link: d.link },
          minimumLine,
        ],
      };
    case "canceled": {
      const endedAt = d.effectiveAt ?? d.cancelAt ?? null;
      // Stripe's retries ended with "mark unpaid": the plan stops, and paying its open invoice brings it back.
      if (d.unpaid)
        return {
          subject: "Your Haven plan is stopped: its invoice is unpaid",
          blocks: [
            `We could not collect the last invoice of your ${plan}, so the plan is stopped${endedAt ? ` since ${date(endedAt)}` : ""} and the visits it scheduled are cancelled. Nothing more will be charged.`,
            "To start it again, update your card: the open invoice is paid with it and your plan continues.",
            { label: "Update your card:", link: d.link },
            minimumLine,
          ],
        };
      return {
        subject: "Your Haven plan has ended",
        blocks: [
          `Your ${plan} has ended${endedAt ? ` on ${date(endedAt)}` : ""}. Nothing more will be charged, and the visits it scheduled are cancelled.`,
          `You can subscribe again anytime at ${new URL("/pricing", d.link).href}.`,
          { label: "Your invoices stay available here:", link: d.link },
          minimumLine,
        ],
      };
    }
    case "plan_changed": {
      const from = d.fromPlanName ?? "your previous plan";
      const to = d.toPlanName ?? d.planName;
      const when = d.effectiveAt ? date(d.effectiveAt) : null;
      return {
        subject: `Your Haven plan changes from ${from} to ${to}`,
        blocks: [
          `Your Haven plan changes from ${from} to ${to}${when ? ` on ${when}` : ""}.`,
          "Moving up applies at once, with the rest of the month charged at the difference; moving down applies from your next billing date.",
          { label: "See your plan and invoices:", link: d.link },
          minimumLine,
        ],
      };
    }
  }
}

export function billingMail(kind: BillingMailKind, data: BillingMailData): MailMessage {
  const { subject, blocks } = build(kind, data);
  const all: Block[] = [
    `Hello ${data.name?.trim() || "there"},`,
    ...blocks,
    `The link above works for ${BILLING_LINK_DAYS} days; each new billing e-mail brings a fresh one.`,
    `Questions? Write to ${data.supportEmail} or call ${data.supportPhone}.`,
    "Haven",
  ];
  const text = all.map((b) => (typeof b === "string" ? b : `${b.label}\n${b.link}`)).join("\n\n");
  const html = all
    .map((b) =>
      typeof b === "string"
        ? `<p>${escapeHtml(b).replace(/\n/g, "<br>\n")}</p>`
        : `<p>${escapeHtml(b.label)}<br>\n<a href="${escapeHtml(b.link)}">${escapeHtml(b.link)}</a></p>`,
    )
    .join("\n");
  // Every e-mail to a customer names their portal; the billing link is on Haven's public address.
  return withCustomerFooter(
    { to: data.to, subject, text: `${text}\n`, html, attachments: [] },
    new URL(data.link).origin,
  );
}
