// The customer e-mails the French and pseudo-locale checks render (tests/unit/customer-mail-fr.test.ts): a Gatineau
// customer's quotes, plan bills and plan visits, in any language.
import type { RenderLocale } from "../../src/i18n/locales.js";
import type { MailMessage } from "../../src/modules/mail/mail.schemas.js";
import { mailText } from "../../src/modules/mail/mail-text.js";
import {
  type BillingMailData,
  type BillingMailKind,
  billingMail,
} from "../../src/modules/subscriptions/subscriptions.mail.js";
import {
  quoteAcceptedEmail,
  quoteBookedEmail,
  quoteReceiptEmail,
} from "../../src/modules/quotes/quote-payments.mail.js";
import { quoteReadyEmail, quoteReportEmail } from "../../src/modules/quotes/quotes.mail.js";
import type { ClientQuoteItem } from "../../src/modules/quotes/quotes.constants.js";
import { calendarFile, taskEvent, taskWindow } from "../../src/modules/maintenance/maintenance.ics.js";
import { planVisitChangeEmail } from "../../src/modules/maintenance/plan-visit-email.js";
import { planServiceTitle, taskTimeText } from "../../src/modules/maintenance/visit-text.js";
import type { DatedTask } from "../../src/modules/maintenance/task-rows.js";

export const contact = { supportEmail: "support@havenhomehealth.ca", supportPhone: "(613) 555-0142" };
export const person = { to: "camille@example.com", name: "Camille Tremblay" };
export const location = "12 rue Laurier, Gatineau, QC J8X 3V7";
export const publicUrl = "https://haven.example.com";

/** A Standard plan's gutter cleaning, moved by the homeowner: the confirmation and its .ics, as plan-visit-changes sends them. */
export function visitMails(locale: RenderLocale): Record<string, MailMessage> {
  const { t, f } = mailText(locale, "America/Toronto");
  const task: DatedTask = {
    id: 31,
    propertyId: 5,
    reportId: null,
    scheduleId: 2,
    title: "Gutter cleaning",
    description: null,
    category: "exterior",
    priority: "medium",
    status: "pending",
    scheduledDate: "2026-12-01",
    scheduledTime: null,
    estimatedDuration: 120,
    assignedTo: null,
    notes: null,
    completedAt: null,
    version: 2,
    held: false,
    createdAt: "2026-11-01T15:00:00.000Z",
    propertyAddress: location,
    clientName: person.name,
    location,
    clientEmail: person.to,
    planService: "gutter-cleaning",
  };
  const base = {
    to: person.to,
    name: person.name,
    what: planServiceTitle(t, task.planService, task.title),
    location,
    dateLabel: f.longDate("2026-12-01"),
    previousDateLabel: f.longDate("2026-11-24"),
    timeLabel: taskTimeText(t, taskWindow(task)),
    ...contact,
    publicUrl,
    locale,
  };
  return {
    "plan visit moved": planVisitChangeEmail({
      ...base,
      action: "move",
      ics: calendarFile([taskEvent(task, "America/Toronto", t)], "Haven"),
    }),
    "plan visit skipped": planVisitChangeEmail({ ...base, action: "skip" }),
    "plan visit restored": planVisitChangeEmail({ ...base, action: "unskip" }),
  };
}

/** An accepted quote of a Gatineau home (GST and QST) and its receipt. */
export function quoteMails(locale: RenderLocale): Record<string, MailMessage> {
  const common = {
    to: person.to,
    clientName: person.name,
    taskTitle: "Replace the water heater",
    propertyAddress: location,
    figures: {
      number: "HAV-2026-000051",
      subtotalCents: 65000,
      taxLines: [
        { kind: "GST" as const, label: "GST 5%", percent: 5, amountCents: 3250 },
        { kind: "QST" as const, label: "QST 9.975%", percent: 9.975, amountCents: 6484 },
      ],
      totalCents: 74734,
    },
    origin: publicUrl,
    locale,
  };
  const item: ClientQuoteItem = {
    id: 4,
    taskTitle: common.taskTitle,
    taskDescription: null,
    priority: "high",
    quotedAmount: "$650",
    quotedCents: 65000,
    status: "quoted",
    scope: "Remove the old tank, install a 40-gallon one",
    validUntil: "2027-01-01",
    expired: false,
    totals: { ...common.figures, taxCents: 9734 },
    afterYes:
      "When you accept, our office books the work with you within 2 business days; Sam Roy comes at the time you agree.",
  };
  const sent = {
    to: person.to,
    clientName: person.name,
    propertyAddress: location,
    supportEmail: "support@havenhomehealth.ca",
  };
  const pdf = Buffer.from("%PDF");
  return {
    "quote report": quoteReportEmail(
      {
        ...sent,
        items: [item],
        totalCents: 65000,
        totals: { subtotalCents: 65000, taxCents: 9734, totalCents: 74734 },
        link: `${publicUrl}/quote-report/tok7`,
        locale,
      },
      pdf,
    ),
    "quote ready": quoteReadyEmail({ ...sent, item, link: `${publicUrl}/quote-report/tok8`, locale }, pdf),
    "quote booked": quoteBookedEmail({
      to: person.to,
      clientName: person.name,
      taskTitle: common.taskTitle,
      propertyAddress: location,
      origin: publicUrl,
      date: "2026-12-01",
      time: "14:30",
      who: null,
      locale,
    }),
    "quote accepted": quoteAcceptedEmail({ ...common, payLink: `${publicUrl}/quote-pay/tok9`, bookWithinDays: 2 }),
    "quote receipt": quoteReceiptEmail({
      ...common,
      paidOn: "mardi 1er décembre 2026",
      registration: "123456789 RT0001",
      legalName: "Haven Home Health Inc.",
      pdfLink: `${publicUrl}/my-home/quotes/4/invoice.pdf`,
    }),
  };
}

const BILLING_KINDS: BillingMailKind[] = [
  "receipt",
  "refund",
  "payment_failed",
  "payment_action_required",
  "card_update",
  "cancel_scheduled",
  "cancel_undone",
  "canceled",
  "plan_changed",
];

/** Every billing e-mail of a Gatineau customer's plan, with a Quebec invoice (GST and QST). */
export function billingMails(locale: RenderLocale): Record<string, MailMessage> {
  const data: BillingMailData = {
    to: person.to,
    name: person.name,
    planName: "Standard",
    amount: 370,
    periodStart: "2026-12-01T05:00:00.000Z",
    periodEnd: "2027-01-01T05:00:00.000Z",
    minimumTermEndsAt: "2027-04-30T04:00:00.000Z",
    cancelAt: "2027-04-30T04:00:00.000Z",
    effectiveAt: "2026-12-15T05:00:00.000Z",
    fromPlanName: "Essential",
    toPlanName: "Standard",
    endsAt: "2026-12-20T05:00:00.000Z",
    cardLast4: "4242",
    hostedInvoiceUrl: "https://invoice.stripe.com/i/abc",
    invoice: {
      id: 7,
      number: "HAV-2026-000042",
      subtotalCents: 37000,
      taxLines: [
        { label: "GST 5%", amountCents: 1850 },
        { label: "QST 9.975%", amountCents: 3691 },
      ],
      totalCents: 42541,
      taxProvince: "QC",
    },
    pdfLink: `${publicUrl}/my-home/plan/invoices/7/pdf`,
    registrationNumber: "123456789 RT0001",
    qstNumber: "1234567890 TQ0001",
    refund: { amountCents: 10000, taxLines: [{ label: "QST 9.975%", amountCents: 868 }], number: "HAV-CN-2026-000003" },
    link: `${publicUrl}/billing/7.1790000000.abc`,
    ...contact,
    timeZone: "America/Toronto",
    locale,
  };
  return Object.fromEntries(BILLING_KINDS.map((kind) => [`billing ${kind}`, billingMail(kind, data)]));
}
