// The quote e-mails (docs/decisions.md#42) in the customer's language (customers.locale, #65): every quoted item as a
// quote document, its links on the pages of that language, and its PDF.
import type { MailMessage } from "../mail/mail.schemas.js";
import { mailText, withCustomerFooter } from "../mail/index.js";
import { type ClientQuoteItem, formatCents } from "./quotes.constants.js";
import { escapeHtml } from "../../shared/html.js";
import { DEFAULT_LOCALE, type Translator, localePath } from "../../i18n/index.js";
import { type RenderLocale, intlLocale } from "../../i18n/locales.js";
import { taxLineLabel } from "../invoices/index.js";

/** Cents as a homeowner reads a price: always two decimals beside a tax line ("$84.50", "$650.00"). */
export const money = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-CA", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** A quote's words and figures in a language: English keeps the spec's "$84.50"; French "84,50 $", "1er décembre 2026". */
export function quoteWords(locale: RenderLocale = DEFAULT_LOCALE) {
  const { t, f } = mailText(locale);
  const english = locale === DEFAULT_LOCALE;
  return {
    t,
    money: (cents: number) => (english ? money(cents) : f.money(cents / 100)),
    /** A quote's own figure, "$650" / "650 $" (a range stays as staff typed it: quotedAmount). */
    figure: (cents: number) => (english ? formatCents(cents) : f.money(cents / 100)),
    /** "November 28, 2026" / "28 novembre 2026": a day, or an instant's day in the business zone. */
    date: (value: string) => f.dateTime(value, { year: "numeric", month: "long", day: "numeric" }),
    /** A page on `origin` in the e-mail's language (docs/decisions.md#65). */
    page: (origin: string, path: string) => `${origin}${localePath(path, intlLocale(locale))}`,
  };
}
export type QuoteWords = ReturnType<typeof quoteWords>;

/** What happens after yes, in the language: the stored English sentence names who comes (quote-document.ts). */
function afterYesText(t: Translator, afterYes: string): string {
  const who = /; (.+) comes at the time you agree\.$/.exec(afterYes)?.[1];
  if (t.locale === DEFAULT_LOCALE) return afterYes;
  return who && who !== "one of our technicians" ? t("quotes.afterYes", { who }) : t("quotes.afterYesAnyone");
}

/**
 * One quote as the homeowner reads it (docs/decisions.md#42), as [label, value] rows: what will be done, the price
 * before tax, each tax line with its rate, the total, how long it is valid, and what happens after yes. Never
 * adminNotes: a ClientQuoteItem has none.
 */
export function quoteRows(
  item: Partial<ClientQuoteItem> & Pick<ClientQuoteItem, "taskTitle">,
  words: QuoteWords = quoteWords(),
): [string, string][] {
  const { t, money } = words;
  const rows: [string, string][] = [];
  if (item.scope) rows.push([t("quotes.scope"), item.scope]);
  if (item.totals) {
    rows.push([t("quotes.beforeTax"), money(item.totals.subtotalCents)]);
    for (const line of item.totals.taxLines) rows.push([taxLineLabel(t, line), money(line.amountCents)]);
    rows.push([t("quotes.total"), money(item.totals.totalCents)]);
  } else {
    rows.push([t("quote-mail.price"), item.quotedAmount ?? ""]);
    rows.push(["", t("quotes.noFigure")]);
  }
  if (item.validUntil) rows.push([t("quote-mail.validUntil"), words.date(item.validUntil)]);
  if (item.afterYes) rows.push([t("quote-mail.afterYes"), afterYesText(t, item.afterYes)]);
  return rows;
}

const textRows = (t: Translator, rows: [string, string][]) =>
  rows.map(([label, value]) => (label ? t("quote-mail.row", { label, value }) : value));
const htmlRows = (rows: [string, string][]) =>
  rows
    .map(
      ([label, value]) =>
        `<tr><th style="text-align:left;vertical-align:top;padding-right:12px">${escapeHtml(label)}</th><td style="white-space:pre-line">${escapeHtml(value)}</td></tr>`,
    )
    .join("");

/** A message whose one value is HTML (a link, a bold name): its text escaped, `html` put where it says `{name}`. */
const SLOT = "\u0000slot\u0000";
const around = (t: Translator, key: string, values: Record<string, string>, name: string, html: string) =>
  t.html(key, { ...values, [name]: SLOT }).replace(SLOT, html);

export interface QuoteReportMailDetails {
  to: string;
  clientName: string;
  propertyAddress: string;
  items: ClientQuoteItem[];
  /** Before tax (the spec's total). */
  totalCents: number | null;
  /** Before tax, tax and with tax over every item; null (or absent) unless every item has one dollar figure. */
  totals?: { subtotalCents: number; taxCents: number; totalCents: number } | null;
  link: string;
  supportEmail: string;
  /** The customer's language (customers.locale); English unless given. */
  locale?: RenderLocale;
}

const pdfAttachment = (filename: string, pdf: Buffer) => ({
  filename,
  content: pdf.toString("base64"),
  encoding: "base64" as const,
  contentType: "application/pdf",
});

/** The quote report e-mail: every quoted item as a quote document (decisions.md#42), the total, the link and the PDF. */
export function quoteReportEmail(d: QuoteReportMailDetails, pdf: Buffer): MailMessage {
  const words = quoteWords(d.locale);
  const { t, money } = words;
  const url = new URL(d.link);
  const link = words.page(url.origin, `${url.pathname}${url.search}`);
  const totals = d.totals ?? null;
  const total = totals
    ? money(totals.totalCents)
    : d.totalCents === null
      ? t("quotes.report.seeItems")
      : words.figure(d.totalCents);
  const totalLine = t(totals ? "quote-mail.report.totalWithTax" : "quote-mail.report.total", { amount: total });
  const lines = [
    t("mail.greeting", { name: d.clientName }),
    "",
    t("quote-mail.report.lead", { address: d.propertyAddress }),
    "",
    ...d.items.flatMap((item) => [
      `- ${item.taskTitle}`,
      ...textRows(t, quoteRows(item, words)).map((l) => `  ${l}`),
      "",
    ]),
    ...(totals
      ? [
          t("quote-mail.report.totalBeforeTax", { amount: money(totals.subtotalCents) }),
          t("quote-mail.report.tax", { amount: money(totals.taxCents) }),
          totalLine,
        ]
      : [totalLine]),
    "",
    t("quote-mail.report.answer", { link }),
    "",
    t("quote-mail.report.attached"),
    "",
    t("mail.shared.questions", { email: d.supportEmail }),
    "",
    t("mail.signature"),
  ];
  const items = d.items
    .map((item) => `<h3>${escapeHtml(item.taskTitle)}</h3><table>${htmlRows(quoteRows(item, words))}</table>`)
    .join("");
  const html = [
    `<p>${t.html("mail.greeting", { name: d.clientName })}</p><p>${t.html("quote-mail.report.lead", { address: d.propertyAddress })}</p>`,
    items,
    `<p><strong>${escapeHtml(totalLine)}</strong></p>`,
    `<p><a href="${escapeHtml(link)}">${t.html("quote-mail.report.answerLink")}</a></p>`,
    `<p>${t.html("quote-mail.report.attached")}</p><p>${t.html("mail.shared.questions", { email: d.supportEmail })}</p><p>${t.html("mail.signature")}</p>`,
  ].join("\n");
  // The link is on PUBLIC_URL: My Home is beside it.
  return withCustomerFooter(
    {
      to: d.to,
      subject: t("quote-mail.report.subject", { address: d.propertyAddress }),
      text: lines.join("\n"),
      html,
      attachments: [pdfAttachment("haven-quote-report.pdf", pdf)],
    },
    url.origin,
    d.locale,
  );
}

export interface QuoteReadyMailDetails {
  to: string;
  clientName: string;
  propertyAddress: string;
  item: ClientQuoteItem;
  /** The quote page of this one item (/quote-report/{token}). */
  link: string;
  supportEmail: string;
  /** The customer's language (customers.locale); English unless given. */
  locale?: RenderLocale;
}

/**
 * "Your quote is ready" (docs/decisions.md#42): sent when a request is quoted or quoted again, with the quote as
 * a document, its page and My Home's Quotes, where it can be answered too.
 */
export function quoteReadyEmail(d: QuoteReadyMailDetails, pdf: Buffer): MailMessage {
  const words = quoteWords(d.locale);
  const { t } = words;
  const url = new URL(d.link);
  const origin = url.origin;
  const link = words.page(origin, `${url.pathname}${url.search}`);
  const myHome = `${words.page(origin, "/my-home/quotes")}#quote-${d.item.id}`;
  const rows = quoteRows(d.item, words);
  const lines = [
    t("mail.greeting", { name: d.clientName }),
    "",
    t("quote-mail.ready.lead", { task: d.item.taskTitle, address: d.propertyAddress }),
    "",
    ...textRows(t, rows),
    "",
    t("quote-mail.ready.see", { link }),
    t("quote-mail.ready.myHome", { link: myHome }),
    "",
    t("quote-mail.ready.attached"),
    "",
    t("mail.shared.questions", { email: d.supportEmail }),
    "",
    t("mail.signature"),
  ];
  const lead = { address: d.propertyAddress };
  const html = [
    `<p>${t.html("mail.greeting", { name: d.clientName })}</p>`,
    `<p>${around(t, "quote-mail.ready.lead", lead, "task", `<strong>${escapeHtml(d.item.taskTitle)}</strong>`)}</p>`,
    `<table>${htmlRows(rows)}</table>`,
    `<p><a href="${escapeHtml(link)}">${t.html("quote-mail.ready.seeLink")}</a></p>`,
    `<p>${around(t, "quote-mail.ready.myHome", {}, "link", `<a href="${escapeHtml(myHome)}">${escapeHtml(myHome)}</a>`)}</p>`,
    `<p>${t.html("quote-mail.ready.attached")}</p><p>${t.html("mail.shared.questions", { email: d.supportEmail })}</p><p>${t.html("mail.signature")}</p>`,
  ].join("\n");
  return withCustomerFooter(
    {
      to: d.to,
      subject: t("quote-mail.ready.subject", { task: d.item.taskTitle }),
      template: "quote-ready",
      text: lines.join("\n"),
      html,
      attachments: [pdfAttachment("haven-quote.pdf", pdf)],
    },
    origin,
    d.locale,
  );
}
