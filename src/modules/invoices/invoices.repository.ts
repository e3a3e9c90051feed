// The invoice write path and the invoice reads (docs/decisions.md#33, #34): every invoice, demo or Stripe, one at a
// time or a renewal batch, is stored here, so each gets its number and its tax the same way. Accepted quotes'
// invoices (#43) take their numbers here too; their SQL is quote-invoices.repository.ts.
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import { todayIn } from "../../shared/business-time.js";
import { type Province, isProvince, provinceOfPostalCode, taxFor } from "../tax/index.js";
import { type InvoiceFigures, differingFigures, providerFigures, storedFigures } from "./invoice-figures.js";
import {
  type IssuedNumber,
  numberColumns,
  numberInOrder,
  reserveInOrder,
  reservedLeft,
  takeFromCounter,
  takeReserved,
} from "./invoice-numbers.js";
import { type Row, cents, formatInvoiceNumber, toInvoice } from "./invoice-rows.js";
import type { Invoice, ProviderInvoiceState } from "./invoices.constants.js";
import type { PreparedRenewals, RenewalInvoice, StoredInvoice } from "./renewal-invoices.js";

// The row mapping lives in invoice-rows.ts, a renewal batch's types in renewal-invoices.ts; importers read them here.
export { type Row, cents, formatInvoiceNumber, toInvoice };
export type { PreparedRenewals, RenewalInvoice, StoredInvoice };
type Db = Knex | Tx;

export interface InvoiceSettings {
  timeZone: string;
  /** The tax province when neither the subscription nor its home names one (env BUSINESS_PROVINCE). */
  defaultProvince: string;
}

export const DEFAULT_INVOICE_SETTINGS: InvoiceSettings = { timeZone: "America/Toronto", defaultProvince: "ON" };

/** Statuses that carry a number: a draft gets one only once it is open or paid. */
const NUMBERED = ["open", "paid"];

/** A stored invoice's date (docs/decisions.md#54): set with its number; an older image's row, its period's start. */
const issueOf = (row: Row) => new Date((row.issued_at ?? row.period_start) as string);

/** The columns of a provider invoice's figures (invoice-figures.ts). */
const figureColumns = (figures: InvoiceFigures, province: Province): Row => ({
  ...figures,
  tax_lines: JSON.stringify(figures.tax_lines),
  tax_province: province,
});

export class InvoicesRepository {
  readonly settings: InvoiceSettings;

  constructor(
    private readonly db: Knex,
    settings: Partial<InvoiceSettings> = {},
  ) {
    this.settings = { ...DEFAULT_INVOICE_SETTINGS, ...settings };
  }

  /**
   * `count` numbers of `year`, taken in the caller's transaction (docs/decisions.md#33): the counter row stays
   * locked until it commits, so a rollback gives the numbers back and the sequence has no gaps.
   */
  async takeNumbers(year: number, count: number, tx: Tx): Promise<string[]> {
    if (count <= 0) return [];
    const { first } = await takeFromCounter(year, count, tx);
    return Array.from({ length: count }, (_, i) => formatInvoiceNumber(year, first + i));
  }

  /**
   * Numbers for invoices issued at these moments, each of its issue's year and in order of issue within it; one
   * issued on an earlier day than an invoice already numbered in its year is marked recorded late
   * (invoice-numbers.ts, docs/decisions.md#54). `now` is when Haven records them.
   */
  numberIssued(issued: Date[], tx: Tx, now: Date = new Date()): Promise<IssuedNumber[]> {
    return numberInOrder(issued, tx, this.settings.timeZone, now);
  }

  /**
   * Numbers for invoices this transaction is about to store, taken now in one counter update and in order of issue
   * (a demo renewal batch); upsertInvoice and insertRenewals take them by provider id (invoice-numbers.ts).
   */
  reserveNumbers(invoices: { providerInvoiceId: string; issuedAt: Date }[], tx: Tx, now: Date = new Date()) {
    return reserveInOrder(invoices, tx, this.settings.timeZone, now);
  }

  /** Reserved numbers no invoice took (the caller rolls back rather than leave a gap). */
  reservedLeft(tx: Tx): number {
    return reservedLeft(tx);
  }

  private defaultProvince(): Province {
    return isProvince(this.settings.defaultProvince) ? this.settings.defaultProvince : "ON";
  }

  /** The tax province of subscriptions: theirs, else their home's postal code's, else the business's (one query). */
  async provinces(subscriptionIds: number[], db: Db = this.db): Promise<Map<number, Province>> {
    const out = new Map<number, Province>();
    if (!subscriptionIds.length) return out;
    const rows = await db("subscriptions as s")
      .leftJoin("properties as p", "p.id", "s.property_id")
      .whereIn("s.id", subscriptionIds)
      .select("s.id", "s.tax_province", "s.tax_postal_code", "p.postal_code");
    for (const row of rows) {
      const named = row.tax_province as string | null;
      const fromCode = [row.tax_postal_code, row.postal_code]
        .filter((c): c is string => typeof c === "string" && c.length > 0)
        .map(provinceOfPostalCode)
        .find((p) => p !== null);
      out.set(row.id as number, named && isProvince(named) ? named : (fromCode ?? this.defaultProvince()));
    }
    return out;
  }

  /** An invoice's tax province: as stored, else its subscription's (provinces). */
  private async provinceOf(subscriptionId: number, stored: Row | undefined, tx: Tx): Promise<Province> {
    const named = stored?.tax_province as string | null | undefined;
    if (named && isProvince(named)) return named;
    return (await this.provinces([subscriptionId], tx)).get(subscriptionId) ?? this.defaultProvince();
  }

  /**
   * A paid invoice's figures set to the provider's (reconciliation, docs/decisions.md#50): its row locked and
   * compared with what the provider gives now. Null when they agree; else the fields that differed, before and after.
   */
  async correctFigures(
    id: number,
    invoice: ProviderInvoiceState,
    tx: Tx,
  ): Promise<{ fields: string[]; before: InvoiceFigures; after: InvoiceFigures } | null> {
    const row = await tx("invoices").where({ id }).forUpdate().first();
    if (!row || invoice.provider === "demo") return null;
    const province = await this.provinceOf(row.subscription_id as number, row, tx);
    const after = providerFigures(invoice, province, todayIn(this.settings.timeZone, issueOf(row)));
    const before = storedFigures(row);
    const fields = differingFigures(before, after);
    if (!fields.length) return null;
    await tx("invoices")
      .where({ id })
      .update({ ...figureColumns(after, province), updated_at: tx.fn.now() });
    return { fields, before, after };
  }

  /**
   * Inserts or updates an invoice by provider id; returns its status before (null when new). The demo provider
   * gives no tax lines: its `amountCents` is the subtotal and the tax is computed for the home's province on the
   * issue day. Stripe's figures (tax lines, subtotal, total) are stored as given. The number is given the first
   * time the invoice is stored open or paid, with its date, the provider's issue (docs/decisions.md#54): set once,
   * never moved by the payment.
   */
  async upsertInvoice(
    subscriptionId: number,
    invoice: ProviderInvoiceState,
    tx: Tx,
  ): Promise<{ before: string | null; attemptsBefore: number; id: number }> {
    const existing = await tx("invoices")
      .where({ provider: invoice.provider, provider_invoice_id: invoice.providerInvoiceId })
      .forUpdate()
      .first();
    const issuedAt = existing?.number ? issueOf(existing) : (invoice.issuedAt ?? invoice.periodStart);
    const money = async (): Promise<Row> => {
      // Stripe's figures as given: total, subtotal, taxes, paid and balance (invoice-figures.ts, docs/decisions.md#50).
      if (invoice.provider !== "demo") {
        const province = await this.provinceOf(subscriptionId, existing as Row | undefined, tx);
        return figureColumns(providerFigures(invoice, province, todayIn(this.settings.timeZone, issuedAt)), province);
      }
      // A demo invoice stored before keeps its figures (its amount is then the total already).
      if (existing) return {};
      const province = (await this.provinces([subscriptionId], tx)).get(subscriptionId)!;
      const taxed = taxFor(invoice.amountCents, province, todayIn(this.settings.timeZone, issuedAt));
      return {
        amount_cents: taxed.totalCents,
        subtotal_cents: taxed.subtotalCents,
        tax_cents: taxed.taxCents,
        tax_lines: JSON.stringify(taxed.lines),
        tax_province: province,
      };
    };
    const fields: Row = {
      currency: invoice.currency,
      period_start: invoice.periodStart,
      period_end: invoice.periodEnd,
      status: invoice.status,
      billing_reason: invoice.billingReason,
      paid_at: invoice.paidAt,
      failure_reason: invoice.failureReason,
      attempt_count: invoice.attemptCount,
      ...(invoice.hostedInvoiceUrl !== undefined ? { hosted_invoice_url: invoice.hostedInvoiceUrl } : {}),
    };
    const number = async (current: unknown) =>
      current || !NUMBERED.includes(invoice.status)
        ? {}
        : numberColumns(takeReserved(tx, invoice.providerInvoiceId) ?? (await this.numberIssued([issuedAt], tx))[0]!);
    if (existing) {
      // A paid invoice stays paid, whatever order the events come in.
      if (existing.status === "paid")
        return { before: "paid", attemptsBefore: existing.attempt_count as number, id: existing.id as number };
      await tx("invoices")
        .where({ id: existing.id })
        .update({
          ...fields,
          ...(await money()),
          ...(await number(existing.number)),
          attempt_count: Math.max(invoice.attemptCount, existing.attempt_count as number),
          updated_at: tx.fn.now(),
        });
      return {
        before: existing.status as string,
        attemptsBefore: existing.attempt_count as number,
        id: existing.id as number,
      };
    }
    const [row] = await tx("invoices")
      .insert({
        ...fields,
        ...(await money()),
        ...(await number(null)),
        subscription_id: subscriptionId,
        provider: invoice.provider,
        provider_invoice_id: invoice.providerInvoiceId,
      })
      .returning("id");
    return { before: null, attemptsBefore: 0, id: row.id as number };
  }

  /**
   * What a renewal batch's insert needs that takes no number, done before the batch's turn (renewals.ts): a period
   * already billed is left out (the caller holds these subscriptions' rows, so nobody else bills them meanwhile:
   * exactly the rows left are inserted, and exactly as many numbers are taken, no gap), the rest taxed.
   */
  async prepareRenewals(rows: RenewalInvoice[], tx: Tx): Promise<PreparedRenewals> {
    const billed = new Set(
      (await tx("invoices")
        .where({ provider: "demo" })
        .whereIn(
          "provider_invoice_id",
          rows.map((r) => r.providerInvoiceId),
        )
        .pluck("provider_invoice_id")) as string[],
    );
    const todo = rows.filter((r) => !billed.has(r.providerInvoiceId));
    if (!todo.length) return { todo, taxed: [], ids: [] };
    const provinces = await this.provinces(
      todo.map((r) => r.subscriptionId),
      tx,
    );
    const taxed = todo.map((r) =>
      taxFor(r.subtotalCents, provinces.get(r.subscriptionId)!, todayIn(this.settings.timeZone, r.periodStart)),
    );
    // Their ids taken ahead, so a caller may use them while the insert runs (sequence values: no gap to keep).
    const { rows: ids } = await tx.raw(
      "select nextval(pg_get_serial_sequence('invoices', 'id'))::int as id from generate_series(1, ?::int)",
      [todo.length],
    );
    return { todo, taxed, ids: ids.map((r: { id: number }) => r.id) };
  }

  /**
   * A demo renewal batch's invoices in bulk, paid or as their outcome says (prepared by prepareRenewals, or here): one
   * insert, numbered from the batch's reserved numbers (else taken now, per year). Returns what was stored, by
   * subscription; a failed insert throws.
   */
  async insertRenewals(rows: RenewalInvoice[] | PreparedRenewals, tx: Tx): Promise<Map<number, StoredInvoice>> {
    const stored = new Map<number, StoredInvoice>();
    const { todo, taxed, ids } = Array.isArray(rows) ? await this.prepareRenewals(rows, tx) : rows;
    if (!todo.length) return stored;
    // A renewal is issued as its period starts (docs/decisions.md#54); numbers reserved for the batch are used first.
    const issued = todo.map((r) => takeReserved(tx, r.providerInvoiceId));
    const unnumbered = todo.map((_, i) => i).filter((i) => !issued[i]);
    if (unnumbered.length) {
      const taken = await this.numberIssued(
        unnumbered.map((i) => todo[i]!.periodStart),
        tx,
      );
      unnumbered.forEach((i, k) => {
        issued[i] = taken[k]!;
      });
    }
    const numbers = issued.map((n) => n!.number);
    todo.forEach((r, i) => {
      const t = taxed[i]!;
      stored.set(r.subscriptionId, {
        id: ids[i]!,
        subscriptionId: r.subscriptionId,
        number: numbers[i]!,
        subtotalCents: t.subtotalCents,
        taxLines: t.lines,
        totalCents: t.totalCents,
      });
    });
    const { rows: inserted } = await tx.raw(
      `insert into invoices (id, subscription_id, provider, provider_invoice_id, number, issued_at, recorded_late_at, amount_cents, subtotal_cents, tax_cents, tax_lines, tax_province, currency, period_start, period_end, status, billing_reason, paid_at, failure_reason, hosted_invoice_url, attempt_count)
       select v.id, v.sid, 'demo', v.pid, v.num, v.ps, nullif(v.late, '')::timestamptz, v.total, v.subtotal, v.tax, v.lines, v.province, 'cad', v.ps, v.pe,
              case when v.failure = '' then 'paid' else 'open' end, 'subscription_cycle',
              case when v.failure = '' then coalesce(nullif(v.paid, '')::timestamptz, v.ps) end, nullif(v.failure, ''), nullif(v.hosted, ''), 1
         from unnest(?::int[], ?::int[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::int[], ?::jsonb[], ?::text[], ?::timestamptz[], ?::timestamptz[], ?::text[], ?::text[], ?::text[])
              as v(id, sid, pid, num, late, total, subtotal, tax, lines, province, ps, pe, paid, failure, hosted)
       on conflict (provider, provider_invoice_id) do nothing
       returning id`,
      [
        ids,
        todo.map((r) => r.subscriptionId),
        todo.map((r) => r.providerInvoiceId),
        numbers,
        // Recorded late ('' when in order): an array binding takes no nulls here.
        issued.map((n) => n!.recordedLateAt?.toISOString() ?? ""),
        taxed.map((t) => t.totalCents),
        taxed.map((t) => t.subtotalCents),
        taxed.map((t) => t.taxCents),
        taxed.map((t) => JSON.stringify(t.lines)),
        taxed.map((t) => t.province),
        todo.map((r) => r.periodStart),
        todo.map((r) => r.periodEnd),
        // A plain renewal is paid as its period starts; the others say how they went ('' for none, as above).
        todo.map((r) => r.outcome?.paidAt?.toISOString() ?? ""),
        todo.map((r) => r.outcome?.failureReason ?? ""),
        todo.map((r) => r.outcome?.hostedInvoiceUrl ?? ""),
      ],
    );
    // Someone billed one of these periods after all: roll the batch back rather than leave a number unused.
    if (inserted.length !== todo.length)
      throw new Error("A renewal period was billed twice at once; the batch is rolled back");
    return stored;
  }

  /**
   * Taxes and numbers invoices inserted without them (the demo seed's bulk insert, whose amount is the subtotal):
   * the tax of each home's province on its issue day (its period's start), and numbers in order of issue for the
   * open and paid ones, each with its date (docs/decisions.md#54).
   */
  async taxAndNumber(ids: number[], tx: Tx): Promise<void> {
    if (!ids.length) return;
    const rows = await tx("invoices")
      .whereIn("id", ids)
      .whereNull("number")
      .select("id", "subscription_id", "amount_cents", "status", "period_start")
      .orderBy(["period_start", "id"]);
    const provinces = await this.provinces([...new Set(rows.map((r) => r.subscription_id as number))], tx);
    const taxed = rows.map((r) =>
      taxFor(
        r.amount_cents as number,
        provinces.get(r.subscription_id as number)!,
        todayIn(this.settings.timeZone, issueOf(r)),
      ),
    );
    const numbered = rows.filter((r) => NUMBERED.includes(r.status as string));
    const taken = await this.numberIssued(numbered.map(issueOf), tx);
    const numbers = new Map<number, IssuedNumber>(numbered.map((r, i) => [r.id as number, taken[i]!]));
    await tx.raw(
      `update invoices i set number = v.num, issued_at = v.issued, recorded_late_at = v.late, amount_cents = v.total,
              subtotal_cents = v.subtotal, tax_cents = v.tax, tax_lines = v.lines, tax_province = v.province
         from unnest(?::int[], ?::text[], ?::timestamptz[], ?::timestamptz[], ?::int[], ?::int[], ?::int[], ?::jsonb[], ?::text[])
              as v(id, num, issued, late, total, subtotal, tax, lines, province)
        where i.id = v.id`,
      [
        rows.map((r) => r.id),
        rows.map((r) => numbers.get(r.id as number)?.number ?? null),
        rows.map((r) => numbers.get(r.id as number)?.issuedAt ?? null),
        rows.map((r) => numbers.get(r.id as number)?.recordedLateAt ?? null),
        taxed.map((t) => t.totalCents),
        taxed.map((t) => t.subtotalCents),
        taxed.map((t) => t.taxCents),
        taxed.map((t) => JSON.stringify(t.lines)),
        taxed.map((t) => t.province),
      ],
    );
  }

  /** The invoice of a provider id (a receipt names the invoice just stored). */
  async findByProviderId(provider: string, providerInvoiceId: string, db: Db = this.db): Promise<Invoice | null> {
    const row = await db("invoices").where({ provider, provider_invoice_id: providerInvoiceId }).first();
    return row ? toInvoice(row) : null;
  }

  async find(id: number, db: Db = this.db): Promise<Invoice | null> {
    const row = await db("invoices").where({ id }).first();
    return row ? toInvoice(row) : null;
  }

  /** Every subscription id a provider gave (reconciliation looks for the ones the provider no longer lists). */
  async providerSubscriptionIds(provider: string): Promise<string[]> {
    const rows = await this.db("subscriptions").where({ provider }).select("provider_subscription_id");
    return rows.map((r) => r.provider_subscription_id as string);
  }

  async invoices(subscriptionId: number, db: Db = this.db): Promise<Invoice[]> {
    const rows = await db("invoices")
      .where({ subscription_id: subscriptionId })
      .orderBy([
        { column: "period_start", order: "desc" },
        { column: "id", order: "desc" },
      ]);
    return rows.map(toInvoice);
  }
}
