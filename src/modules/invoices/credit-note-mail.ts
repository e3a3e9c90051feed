// The e-mail of a refund of an accepted quote's invoice (docs/decisions.md#52): an invoice with no subscription, so
// no plan, no billing link; its credit note's number, what goes back and each tax, the reason, and the business's
// registration numbers (the QST number when QST was refunded, docs/decisions.md#51).
import { escapeHtml } from "../../shared/html.js";
import type { RenderLocale } from "../../i18n/locales.js";
import { mailText, withCustomerFooter } from "../mail/index.js";
import { taxLineLabel } from "./document-locale.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import { billingAmount } from "./invoice-mail.js";

export interface QuoteRefundMail {
  to: string;
  name: string | null;
  /** What the work was (the quote's task), when known. */
  work: string | null;
  invoiceNumber: string | null;
  creditNote: string | null;
  amountCents: number;
  taxLines: { kind?: string; label: string; amountCents: number }[];
  reason: string | null;
  legalName: string;
  gstHstNumber: string | null;
  qstNumber: string | null;
  /** PUBLIC_URL: the footer's links. */
  origin: string;
  /** The credit note's language (documentLocale: French for a Quebec home); English unless given. */
  locale?: RenderLocale;
}

export function quoteRefundEmail(d: QuoteRefundMail): MailMessage {
  const { t, f } = mailText(d.locale);
  const money = (cents: number) =>
    t.locale === "fr-CA" ? t("mail.billing.money", { amount: f.money(cents / 100) }) : billingAmount(cents / 100);
  const refundsQst = d.taxLines.some((l) => (l.kind === "QST" || l.label.startsWith("QST")) && l.amountCents !== 0);
  const lines = [
    d.creditNote && t("mail.billing.refund.creditNote", { number: d.creditNote }),
    d.invoiceNumber && t("mail.quoteRefund.credits", { number: d.invoiceNumber }),
    t("mail.billing.refund.refunded", { amount: money(d.amountCents) }),
    ...d.taxLines.map((l) =>
      t("mail.billing.refund.ofWhich", { label: taxLineLabel(t, l), amount: money(l.amountCents) }),
    ),
    d.reason && t("mail.billing.refund.reason", { reason: d.reason }),
    d.legalName,
    d.gstHstNumber && t("mail.billing.gstHst", { number: d.gstHstNumber }),
    refundsQst && d.qstNumber && t("mail.billing.qst", { number: d.qstNumber }),
  ].filter((l): l is string => Boolean(l));
  const opening = t("mail.quoteRefund.lead", {
    amount: money(d.amountCents),
    hasWork: d.work ? "yes" : "no",
    work: d.work ?? "",
  });
  const hello = t("mail.billing.hello", { named: d.name ? "yes" : "no", name: d.name ?? "" });
  const text = [hello, "", opening, "", ...lines, "", t("mail.signature")].join("\n");
  const html = [
    `<p>${escapeHtml(hello)}</p>`,
    `<p>${escapeHtml(opening)}</p>`,
    `<p>${lines.map(escapeHtml).join("<br>")}</p>`,
    `<p>${t.html("mail.signature")}</p>`,
  ].join("\n");
  return withCustomerFooter(
    { to: d.to, subject: t("mail.billing.refund.subject", { amount: money(d.amountCents) }), text, html },
    d.origin,
    d.locale,
  );
}
