// Quote request enumerations and the status machine (staff-side §4, §9; docs/decisions.md#8 and #21).
// Zod-free: islands and views may import it.

export const QUOTE_STATUSES = ["pending", "quoted", "accepted", "declined", "completed"] as const;
export const QUOTE_PRIORITIES = ["immediate", "high", "medium", "low"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export type QuotePriority = (typeof QUOTE_PRIORITIES)[number];
/** Where a request was made: 'link' (a client report link's answer) or 'portal' (My Home; staff see 'From My Home'). */
export const QUOTE_SOURCES = ["link", "portal"] as const;
export type QuoteSource = (typeof QUOTE_SOURCES)[number];

/** Staff moves: pending → Quote or Decline; quoted → Accept or Edit quote; accepted → Complete. */
export const STAFF_MOVES: Record<QuoteStatus, readonly QuoteStatus[]> = {
  pending: ["quoted", "declined"],
  quoted: ["accepted", "quoted"],
  accepted: ["completed"],
  declined: [],
  completed: [],
};

/** The client answers a quoted item from the quote report: accept or decline. */
export const CLIENT_DECISIONS = ["accept", "decline"] as const;
export type ClientDecision = (typeof CLIENT_DECISIONS)[number];

export const isStaffMove = (from: QuoteStatus, to: QuoteStatus) => STAFF_MOVES[from].includes(to);

/**
 * Cents of a quoted amount when it reads as one dollar figure ('$1,250', '1250.50', 'CAD 300');
 * null for free text such as '$800-1,200' or 'call us'.
 */
export function parseCents(amount: string | null | undefined): number | null {
  if (!amount) return null;
  const match = amount
    .trim()
    .match(/^(?:CAD|USD|C?\$)?\s*\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s*(?:CAD|USD)?$/i);
  if (!match) return null;
  const dollars = Number(match[1]!.replace(/,/g, ""));
  const cents = match[2] ? Number(match[2].padEnd(2, "0")) : 0;
  const total = dollars * 100 + cents;
  return Number.isSafeInteger(total) ? total : null;
}

export const formatCents = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-CA", { minimumFractionDigits: cents % 100 ? 2 : 0, maximumFractionDigits: 2 })}`;

/** Staff list shape (GET /api/quote-requests). */
export interface QuoteRequest {
  id: number;
  propertyId: number;
  maintenanceTaskId: number;
  propertyAddress: string;
  clientName: string;
  clientEmail: string;
  taskTitle: string;
  taskDescription: string | null;
  status: QuoteStatus;
  priority: QuotePriority;
  quotedAmount: string | null;
  quotedCents: number | null;
  adminNotes: string | null;
  clientNotes: string | null;
  /** What will be done, written for the homeowner (docs/decisions.md#42); adminNotes stay internal. */
  scope: string | null;
  /** The last day (YYYY-MM-DD, BUSINESS_TZ) the quote can be accepted; null on a quote made before #42. */
  validUntil: string | null;
  /** The province whose tax applies: stored when quoted, else the home's postal code's, else BUSINESS_PROVINCE. */
  taxProvince: string;
  quotedAt: string | null;
  /** The staff user the task is assigned to ("who comes"), or null. */
  assigneeName: string | null;
  /** Price before tax, each tax line and the total; null unless quotedCents reads as one dollar figure. */
  totals: QuoteFigures | null;
  /** Starts at 1 and grows with every update: a PATCH naming an older one is refused (409). */
  version: number;
  /** When the client last added to it: made it, or asked again and had the note appended (the staff bell). */
  clientNotedAt: string;
  /** Where it was made: a client report link's answer, or the homeowner's portal (My Home). */
  source: QuoteSource;
  createdAt: string;
  updatedAt: string;
}

/** A quote's figures (quote-document.ts `QuoteTotals`, restated here so islands and views need no tax import). */
export interface QuoteFigures {
  subtotalCents: number;
  taxLines: { kind: string; label: string; percent: number; amountCents: number }[];
  taxCents: number;
  totalCents: number;
}

/** What the homeowner's views of a quote show of an item (docs/decisions.md#42): never adminNotes. */
export interface ClientQuoteItem {
  id: number;
  taskTitle: string;
  taskDescription: string | null;
  priority: QuotePriority;
  quotedAmount: string | null;
  quotedCents: number | null;
  status: QuoteStatus;
  /** What will be done. */
  scope: string | null;
  /** YYYY-MM-DD; null on a quote made before validity was kept. */
  validUntil: string | null;
  /** Past validUntil: it cannot be accepted. */
  expired: boolean;
  /** Null when the amount is not one dollar figure: then it cannot be accepted and paid online. */
  totals: QuoteFigures | null;
  /** What happens after yes: who comes, and when it is booked. */
  afterYes: string;
}

/** The graphile-worker job that renders and e-mails a quote report (quotes.tasks.ts); privacy erases its payloads. */
export const QUOTE_REPORT_MAIL_TASK = "quotes.quote-report-mail";
