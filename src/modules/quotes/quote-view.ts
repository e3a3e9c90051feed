// A quote request as the office and the homeowner read it (docs/decisions.md#42): its figures (tax of the province
// stored when quoted, at that day's rates), the homeowner's view of an item, and a quote report's totals. Shared by
// QuotesService (staff moves) and QuoteDecisions (the client's answers and the quote-ready e-mail).
import { todayIn } from "../../shared/business-time.js";
import { provinceOfPostalCode } from "../tax/index.js";
import type { ClientQuoteItem, QuoteRequest } from "./quotes.constants.js";
import type { QuoteRow } from "./quotes.repository.js";
import { afterYesText, isExpired, quoteTotals } from "./quote-document.js";

/** The client's quote report page: what it shows, never adminNotes. */
export interface ClientQuoteReport {
  linkId: number;
  property: { address: string; clientName: string };
  items: ClientQuoteItem[];
  /** Before tax, the tax and with tax, over every item; null unless every item has one dollar figure. */
  totals: { subtotalCents: number; taxCents: number; totalCents: number } | null;
  /** The total before tax, as the link stored it when made (the spec's field). */
  totalCents: number | null;
  expiresAt: string;
  completed: boolean;
}

/** What a homeowner sees of a quote (docs/decisions.md#42): never adminNotes. `today` is YYYY-MM-DD, BUSINESS_TZ. */
export const toClientItem = (q: QuoteRequest, today: string): ClientQuoteItem => ({
  id: q.id,
  taskTitle: q.taskTitle,
  taskDescription: q.taskDescription,
  priority: q.priority,
  quotedAmount: q.quotedAmount,
  quotedCents: q.quotedCents,
  status: q.status,
  scope: q.scope,
  validUntil: q.validUntil,
  expired: q.status === "quoted" && isExpired(q.validUntil, today),
  totals: q.totals,
  afterYes: afterYesText(q.assigneeName),
});

/** The items' figures added up; null unless every item has one dollar figure. */
export const sumTotals = (items: { totals: QuoteRequest["totals"] }[]): ClientQuoteReport["totals"] =>
  items.every((i) => i.totals !== null)
    ? items.reduce(
        (sum, i) => ({
          subtotalCents: sum.subtotalCents + i.totals!.subtotalCents,
          taxCents: sum.taxCents + i.totals!.taxCents,
          totalCents: sum.totalCents + i.totals!.totalCents,
        }),
        { subtotalCents: 0, taxCents: 0, totalCents: 0 },
      )
    : null;

/** The settings a quote's figures depend on (QuotesDeps' settings). */
export interface QuoteFiguresSettings {
  /** BUSINESS_TZ: a quote's validity and its tax day. */
  timeZone: string;
  /** BUSINESS_PROVINCE: the tax of a home whose postal code names no province (docs/decisions.md#32). */
  businessProvince: string;
  /** BUSINESS_TAX_REGISTERED: false charges no tax (docs/tax.md). */
  taxRegistered: boolean;
}

/** Today in the business zone, a home's tax province and a stored request with its figures. */
export class QuoteFigures {
  constructor(private readonly settings: QuoteFiguresSettings) {}

  today(now: Date = new Date()): string {
    return todayIn(this.settings.timeZone, now);
  }

  /** The province whose tax a home pays: its postal code's, else BUSINESS_PROVINCE (docs/decisions.md#32). */
  provinceOf(postalCode: string | null): string {
    return (postalCode && provinceOfPostalCode(postalCode)) || this.settings.businessProvince;
  }

  /**
   * A stored request with its figures (docs/decisions.md#42): the tax of the province stored when quoted (a quote
   * made before that: the home's), at the rates of the day it was quoted.
   */
  present(row: QuoteRow): QuoteRequest {
    const { postalCode, ...rest } = row;
    const taxProvince = row.taxProvince ?? this.provinceOf(postalCode);
    const day = this.today(row.quotedAt ? new Date(row.quotedAt) : new Date());
    const totals =
      row.quotedCents === null ? null : quoteTotals(row.quotedCents, taxProvince, day, this.settings.taxRegistered);
    return { ...rest, taxProvince, totals };
  }
}
