// The e-mails of an accepted quote (docs/decisions.md#43): the acceptance with its pay link, and the receipt.
import { DEFAULT_LOCALE, localePath } from "../../i18n/index.js";
import { slotTo24h } from "../../shared/business-time.js";
import { type RenderLocale, intlLocale } from "../../i18n/locales.js";
import { escapeHtml } from "../../shared/html.js";
import { taxLineLabel } from "../invoices/index.js";
import { mailText, withCustomerFooter } from "../mail/index.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import type { TaxLine } from "../tax/index.js";
import { formatCents } from "./quotes.constants.js";

export interface QuoteFigures {
  number: string | null;
  subtotalCents: number;
  taxLines: TaxLine[];
  totalCents: number;
}

interface Common {
  to: string;
  clientName: string;
  taskTitle: string;
  propertyAddress: string;
  figures: QuoteFigures;
  /** PUBLIC_URL: the links' origin. */
  origin: string;
  /** The customer's language; a receipt in its invoice's document language (French for a Quebec home). */
  locale?: RenderLocale;
}

/** The e-mail's language and its money: "$650", "$84.50" in English (formatCents), "650,00 $" in French. */
function quoteText(locale: RenderLocale | undefined) {
  const { t, f } = mailText(locale);
  const money = (cents: number) => (t.locale === "fr-CA" ? f.money(cents / 100) : formatCents(cents));
  return { t, money };
}
type QuoteText = ReturnType<typeof quoteText>;

const figureRows = ({ t, money }: QuoteText, f: QuoteFigures): [string, string][] => [
  [t("mail.quote.priceBeforeTax"), money(f.subtotalCents)],
  ...f.taxLines.map((l): [string, string] => [taxLineLabel(t, l), money(l.amountCents)]),
];

const figureLines = (text: QuoteText, f: QuoteFigures) =>
  [...figureRows(text, f), [text.t("mail.quote.total"), text.money(f.totalCents)]].map(([label, amount]) =>
    text.t("mail.quote.row", { label: label!, amount: amount! }),
  );

const figureTable = (text: QuoteText, f: QuoteFigures) =>
  `<table>${figureRows(text, f)
    .map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td style="text-align:right">${escapeHtml(v)}</td></tr>`)
    .join(
      "",
    )}<tr><th style="text-align:left">${text.t.html("mail.quote.total")}</th><th style="text-align:right">${escapeHtml(text.money(f.totalCents))}</th></tr></table>`;

/** A link on PUBLIC_URL to the page in the e-mail's language (docs/decisions.md#65). */
const pageIn = (origin: string, path: string, locale: RenderLocale | undefined) =>
  `${origin}${localePath(path, intlLocale(locale ?? DEFAULT_LOCALE))}`;

/** Sent once when a quote is accepted: what happens next, the figures, and a link that pays it by card. */
export function quoteAcceptedEmail(d: Common & { payLink: string; bookWithinDays: number }): MailMessage {
  const text = quoteText(d.locale);
  const { t } = text;
  const payLink = new URL(d.payLink);
  const pay = pageIn(payLink.origin, payLink.pathname, d.locale);
  const myHome = pageIn(d.origin, "/my-home/quotes", d.locale);
  const thanks = t("mail.quote.accepted.thanks", { task: d.taskTitle, address: d.propertyAddress });
  const booking = t("mail.quote.accepted.booking", { days: d.bookWithinDays });
  const body = [
    t("mail.greeting", { name: d.clientName }),
    "",
    thanks,
    booking,
    "",
    ...(d.figures.number ? [t("mail.quote.accepted.invoice", { number: d.figures.number })] : []),
    ...figureLines(text, d.figures),
    "",
    t("mail.quote.accepted.payCard", { link: pay }),
    t("mail.quote.accepted.payMyHome", { link: myHome }),
    "",
    t("mail.quote.questions"),
    "",
    t("mail.signature"),
  ].join("\n");
  const html = [
    `<p>${t.html("mail.greeting", { name: d.clientName })}</p>`,
    `<p>${escapeHtml(thanks)}</p>`,
    `<p>${escapeHtml(booking)}</p>`,
    d.figures.number ? `<p>${t.html("mail.quote.accepted.invoice", { number: d.figures.number })}</p>` : "",
    figureTable(text, d.figures),
    `<p><a href="${escapeHtml(pay)}">${t.html("mail.quote.accepted.payLink", { amount: text.money(d.figures.totalCents) })}</a></p>`,
    `<p>${t.html("mail.quote.questions")}</p><p>${t.html("mail.signature")}</p>`,
  ].join("\n");
  return withCustomerFooter(
    { to: d.to, subject: t("mail.quote.accepted.subject", { task: d.taskTitle }), text: body, html },
    d.origin,
    d.locale,
  );
}

/**
 * The receipt of a paid quote: the invoice's number, its figures, the business's registration numbers (the QST
 * number when QST is charged, docs/decisions.md#51) and the PDF's link; in French for a Quebec home (#67).
 */
export function quoteReceiptEmail(
  d: Common & {
    paidOn: string;
    registration: string | null;
    qstNumber?: string | null;
    legalName: string;
    pdfLink: string;
  },
): MailMessage {
  const text = quoteText(d.locale);
  const { t, money } = text;
  const reg = d.registration ? t("mail.quote.receipt.gstHst", { number: d.registration }) : null;
  const chargesQst = d.figures.taxLines.some((l) => l.kind === "QST" && l.amountCents !== 0);
  const qst = chargesQst && d.qstNumber ? t("mail.quote.receipt.qst", { number: d.qstNumber }) : null;
  const pdfUrl = new URL(d.pdfLink);
  const pdf = pageIn(pdfUrl.origin, pdfUrl.pathname, d.locale);
  const received = t("mail.quote.receipt.received", {
    amount: money(d.figures.totalCents),
    task: d.taskTitle,
    address: d.propertyAddress,
    date: d.paidOn,
  });
  const receiptFor = t("mail.quote.receipt.for", { number: d.figures.number ?? "" });
  const body = [
    t("mail.greeting", { name: d.clientName }),
    "",
    received,
    "",
    receiptFor,
    ...figureLines(text, d.figures),
    "",
    d.legalName,
    ...(reg ? [reg] : []),
    ...(qst ? [qst] : []),
    "",
    t("mail.quote.receipt.pdf", { link: pdf }),
    "",
    t("mail.signature"),
  ].join("\n");
  const html = [
    `<p>${t.html("mail.greeting", { name: d.clientName })}</p>`,
    `<p>${escapeHtml(received)}</p>`,
    `<p>${escapeHtml(receiptFor)}</p>`,
    figureTable(text, d.figures),
    `<p>${[d.legalName, reg, qst]
      .filter(Boolean)
      .map((l) => escapeHtml(l!))
      .join("<br>")}</p>`,
    `<p><a href="${escapeHtml(pdf)}">${t.html("mail.quote.receipt.pdfLink")}</a></p>`,
    `<p>${t.html("mail.signature")}</p>`,
  ].join("\n");
  const subject = t("mail.quote.receipt.subject", {
    numbered: d.figures.number ? "yes" : "no",
    number: d.figures.number ?? "",
    task: d.taskTitle,
  });
  return withCustomerFooter({ to: d.to, subject, text: body, html }, d.origin, d.locale);
}

/** A clock time of the office's booking in French: "14:00" or "2:00 PM" is "14 h", "14:30" is "14 h 30". */
function frenchClock(time: string): string {
  const hhmm = slotTo24h(time) ?? (/^\d{1,2}:\d{2}$/.test(time) ? time : null);
  if (!hhmm) return time;
  const [h, m] = hhmm.split(":");
  return `${Number(h)} h${m === "00" ? "" : ` ${m}`}`;
}

/** Sent when the office books an accepted quote's work: the date and time, and who comes. */
export function quoteBookedEmail(
  d: Omit<Common, "figures"> & { date: string; time: string | null; who: string | null },
): MailMessage {
  const { t, f } = mailText(d.locale);
  const french = t.locale === "fr-CA";
  const date = f.longDate(d.date);
  const time = d.time ? (french ? frenchClock(d.time) : d.time) : "";
  const when = t("quote-mail.booked.when", { date, hasTime: d.time ? "yes" : "no", time });
  const who = d.who ?? t("quote-mail.booked.anyone");
  const myHome = pageIn(d.origin, "/my-home/quotes", d.locale);
  const lead = { task: d.taskTitle, address: d.propertyAddress };
  const slot = "\u0000when\u0000";
  const text = [
    t("mail.greeting", { name: d.clientName }),
    "",
    t("quote-mail.booked.lead", { ...lead, when }),
    t("quote-mail.booked.who", { who }),
    "",
    t("quote-mail.booked.myHome", { link: myHome }),
    "",
    t("quote-mail.booked.change"),
    "",
    t("mail.signature"),
  ].join("\n");
  const html = [
    `<p>${t.html("mail.greeting", { name: d.clientName })}</p>`,
    `<p>${t.html("quote-mail.booked.lead", { ...lead, when: slot }).replace(slot, `<strong>${escapeHtml(when)}</strong>`)}</p>`,
    `<p>${t.html("quote-mail.booked.who", { who })}</p>`,
    `<p><a href="${escapeHtml(myHome)}">${t.html("quote-mail.booked.myHomeLink")}</a></p>`,
    `<p>${t.html("quote-mail.booked.change")}</p><p>${t.html("mail.signature")}</p>`,
  ].join("\n");
  return withCustomerFooter(
    { to: d.to, subject: t("quote-mail.booked.subject", { task: d.taskTitle, when }), text, html },
    d.origin,
    d.locale,
  );
}
