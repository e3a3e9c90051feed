// Billing e-mails: plain text with a simple HTML twin, like the other templates. Each one
// names the plan, states the minimum-term date, and carries the signed billing link and the support contacts.
// Instants arrive as ISO strings and are shown as dates in the business zone.
import type { MailMessage } from "../mail/mail.schemas.js";
import { DEFAULT_LOCALE, type Translator, formatters, localePath, translator, phoneText } from "../../i18n/index.js";
import { type RenderLocale, intlLocale } from "../../i18n/locales.js";
import { withCustomerFooter } from "../mail/index.js";
import { type MailInvoice, billingAmount, taxLineLabel } from "../invoices/index.js";
import { BILLING_LINK_DAYS } from "./billing-links.js";
import { cardRefusal } from "./card-declines.js";
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
  /** A failed payment: the provider's code of `reason` ("insufficient_funds"), which chooses its words (card-declines.ts). */
  reasonCode?: string | null;
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
  /** The e-mail's language: the customer's, or a receipt's or refund's document language; English unless given. */
  locale?: RenderLocale;
}

/** 'April 30, 2026': an instant as a date in the business zone. */
// One formatter per zone: making one costs more than the rest of a receipt (thousands per demo renewal).
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function billingDate(iso: string, timeZone: string, locale: RenderLocale = DEFAULT_LOCALE): string {
  // French through the formatters, which write the first of a month "1er".
  if (locale === "fr-CA")
    return formatters(locale, timeZone).dateTime(iso, { year: "numeric", month: "long", day: "numeric" });
  const lang = "en-US";
  let format = dateFormats.get(`${lang}|${timeZone}`);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { timeZone, year: "numeric", month: "long", day: "numeric" });
    dateFormats.set(`${lang}|${timeZone}`, format);
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

function build(kind: BillingMailKind, d: BillingMailData, t: Translator): Built {
  const date = (iso: string) => billingDate(iso, d.timeZone, t.locale);
  const minimumEnd = date(d.minimumTermEndsAt);
  const plan = d.planName;
  const cad = (dollars: number) =>
    t.locale === "fr-CA"
      ? t("mail.billing.money", { amount: formatters(t.locale).money(dollars) })
      : billingAmount(dollars);
  const amount = d.amount !== undefined ? cad(d.amount) : null;
  const periodLine =
    d.periodStart && d.periodEnd
      ? t("mail.billing.period", { start: date(d.periodStart), end: date(d.periodEnd) })
      : null;
  const minimumLine = t("mail.billing.minimum", { months: MINIMUM_TERM_MONTHS, date: minimumEnd });
  const lines = (...items: (string | null | false | undefined)[]) => items.filter(Boolean).join("\n");
  const money = (c: number) => cad(c / 100);
  const inv = d.invoice;
  const chargesQst = inv?.taxLines.some((l) => l.label.startsWith("QST") && l.amountCents !== 0) ?? false;
  const taxLabel = (line: { label: string }) => taxLineLabel(t, line);
  const invoiceLines = inv
    ? lines(
        inv.number && t("mail.billing.invoice", { number: inv.number }),
        t("mail.billing.subtotal", { amount: money(inv.subtotalCents) }),
        ...inv.taxLines.map((l) => t("mail.billing.taxLine", { label: taxLabel(l), amount: money(l.amountCents) })),
        t("mail.billing.total", { amount: money(inv.totalCents) }),
        d.registrationNumber && t("mail.billing.gstHst", { number: d.registrationNumber }),
        chargesQst && d.qstNumber && t("mail.billing.qst", { number: d.qstNumber }),
      )
    : null;
  const pdfBlock: Block[] = inv && d.pdfLink ? [{ label: t("mail.billing.pdf"), link: d.pdfLink }] : [];
  const seePlan: Block = { label: t("mail.billing.seePlan"), link: d.link };
  const hasAmount = amount ? "yes" : "no";

  switch (kind) {
    case "receipt":
      return {
        subject: t("mail.billing.receipt.subject", { amount: inv ? money(inv.totalCents) : (amount ?? d.planName) }),
        blocks: [
          t("mail.billing.receipt.thanks", { plan }),
          // A charge of its own says why (the tax of the home's province, docs/decisions.md#57).
          ...(d.reason ? [d.reason] : []),
          lines(
            !inv && amount && t("mail.billing.receipt.amount", { amount }),
            periodLine,
            t("mail.billing.receipt.plan", { plan: d.planName }),
            d.cardLast4 && t("mail.billing.receipt.card", { last4: d.cardLast4 }),
          ),
          ...(invoiceLines ? [invoiceLines] : []),
          ...pdfBlock,
          minimumLine,
          { label: t("mail.billing.receipt.manage"), link: d.link },
        ],
      };
    case "refund": {
      const back = d.refund ? money(d.refund.amountCents) : (amount ?? "");
      return {
        subject: t("mail.billing.refund.subject", { amount: back }),
        blocks: [
          t("mail.billing.refund.lead", {
            amount: back,
            plan,
            hasInvoice: inv?.number ? "yes" : "no",
            number: inv?.number ?? "",
          }),
          lines(
            d.refund?.number && t("mail.billing.refund.creditNote", { number: d.refund.number }),
            d.refund && t("mail.billing.refund.refunded", { amount: back }),
            ...(d.refund?.taxLines ?? []).map((l) =>
              t("mail.billing.refund.ofWhich", { label: taxLabel(l), amount: money(l.amountCents) }),
            ),
            d.reason && t("mail.billing.refund.reason", { reason: d.reason }),
            inv && t("mail.billing.refund.invoiceTotal", { amount: money(inv.totalCents) }),
            d.registrationNumber && t("mail.billing.gstHst", { number: d.registrationNumber }),
            chargesQst && d.qstNumber && t("mail.billing.qst", { number: d.qstNumber }),
          ),
          ...pdfBlock,
          seePlan,
          minimumLine,
        ],
      };
    }
    case "payment_failed":
      return {
        subject: t("mail.billing.failed.subject"),
        blocks: [
          t("mail.billing.failed.lead", { hasAmount, amount: amount ?? "", plan }),
          lines(
            t("mail.billing.failed.reason", {
              reason: d.reason ? cardRefusal(t, d.reason, d.reasonCode) : t("mail.billing.failed.declined"),
            }),
            periodLine,
          ),
          t("mail.billing.failed.update"),
          ...(d.endsAt ? [t("mail.billing.failed.endsAt", { date: date(d.endsAt) })] : []),
          { label: t("mail.billing.updateCard"), link: d.link },
          minimumLine,
        ],
      };
    case "card_update":
      // Sent by the office (docs/decisions.md#62): the billing page's card form pays the open invoice once updated.
      return {
        subject: t("mail.billing.cardUpdate.subject"),
        blocks: [
          t("mail.billing.cardUpdate.lead", { hasAmount, amount: amount ?? "", plan }),
          { label: t("mail.billing.updateCard"), link: `${d.link}/card` },
          seePlan,
          minimumLine,
        ],
      };
    case "payment_action_required":
      return {
        subject: t("mail.billing.action.subject"),
        blocks: [
          t("mail.billing.action.lead", { hasAmount, amount: amount ?? "", plan }),
          ...(periodLine ? [periodLine] : []),
          ...(d.hostedInvoiceUrl ? [{ label: t("mail.billing.action.confirm"), link: d.hostedInvoiceUrl }] : []),
          t("mail.billing.action.onHold"),
          seePlan,
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
        subject: t("mail.billing.cancelScheduled.subject", { date: endsAt }),
        blocks: [
          t("mail.billing.cancelScheduled.lead", {
            plan,
            date: endsAt,
            atMinimum: atMinimum ? "yes" : "no",
            months: MINIMUM_TERM_MONTHS,
          }),
          t("mail.billing.cancelScheduled.until", { date: endsAt }),
          t("mail.billing.cancelScheduled.undo", { date: endsAt }),
          { label: t("mail.billing.cancelScheduled.link"), link: d.link },
          minimumLine,
        ],
      };
    }
    case "cancel_undone":
      return {
        subject: t("mail.billing.cancelUndone.subject", { plan: d.planName }),
        blocks: [
          t("mail.billing.cancelUndone.lead", { plan }),
          lines(
            t("mail.billing.receipt.plan", { plan: d.planName }),
            amount && t("mail.billing.cancelUndone.price", { amount }),
            periodLine,
          ),
          t("mail.billing.cancelUndone.notYou"),
          seePlan,
          minimumLine,
        ],
      };
    case "canceled": {
      const endedAt = d.effectiveAt ?? d.cancelAt ?? null;
      const ended = { plan, hasDate: endedAt ? "yes" : "no", date: endedAt ? date(endedAt) : "" };
      // Stripe's retries ended with "mark unpaid": the plan stops, and paying its open invoice brings it back.
      if (d.unpaid)
        return {
          subject: t("mail.billing.unpaid.subject"),
          blocks: [
            t("mail.billing.unpaid.lead", ended),
            t("mail.billing.unpaid.restart"),
            { label: t("mail.billing.updateCard"), link: d.link },
            minimumLine,
          ],
        };
      const pricing = new URL(localePath("/pricing", intlLocale(t.locale)), d.link).href;
      return {
        subject: t("mail.billing.ended.subject"),
        blocks: [
          t("mail.billing.ended.lead", ended),
          t("mail.billing.ended.again", { url: pricing }),
          { label: t("mail.billing.ended.invoices"), link: d.link },
          minimumLine,
        ],
      };
    }
    case "plan_changed": {
      const from = d.fromPlanName ?? t("mail.billing.changed.previous");
      const to = d.toPlanName ?? d.planName;
      const when = d.effectiveAt ? date(d.effectiveAt) : null;
      return {
        subject: t("mail.billing.changed.subject", { from, to }),
        blocks: [
          t("mail.billing.changed.lead", { from, to, hasDate: when ? "yes" : "no", date: when ?? "" }),
          t("mail.billing.changed.how"),
          seePlan,
          minimumLine,
        ],
      };
    }
  }
}

/** The page at a billing link (/billing/…, My Home's invoice PDF) in the e-mail's language (docs/decisions.md#65). */
function linkIn(link: string | undefined, locale: RenderLocale): string | undefined {
  if (!link) return link;
  const url = new URL(link);
  return `${url.origin}${localePath(`${url.pathname}${url.search}`, intlLocale(locale))}`;
}

/**
 * A billing e-mail in the customer's language (`data.locale`); a receipt or a refund names an invoice, and follows
 * the invoice's document language (French when taxed in Quebec, docs/decisions.md#68).
 */
export function billingMail(kind: BillingMailKind, data: BillingMailData): MailMessage {
  const locale = data.locale ?? DEFAULT_LOCALE;
  const t = translator(locale);
  const d = { ...data, link: linkIn(data.link, locale)!, pdfLink: linkIn(data.pdfLink, locale) };
  const { subject, blocks } = build(kind, d, t);
  const all: Block[] = [
    t("mail.billing.hello", { named: data.name?.trim() ? "yes" : "no", name: data.name?.trim() ?? "" }),
    ...blocks,
    t("mail.billing.linkDays", { days: BILLING_LINK_DAYS }),
    t("mail.billing.questions", { email: data.supportEmail, phone: phoneText(t.locale, data.supportPhone) }),
    t("mail.signature"),
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
    locale,
  );
}
