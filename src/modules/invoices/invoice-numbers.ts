// Invoice numbers in the order of issue (docs/decisions.md#33, #54). One gapless counter per business year, taken in
// the invoice's own transaction (a rollback gives the numbers back). The counter also keeps the latest issue it has
// numbered, so an invoice issued on an earlier day than one already numbered in its year (a missed invoice that
// reconciliation records) is seen under the counter's lock and marked `recorded_late_at`: it takes the next number of
// its issue year, and the invoice shows both dates rather than a silent break in the order.
import type { Tx } from "../../db/transaction.js";
import { todayIn } from "../../shared/business-time.js";
import { formatInvoiceNumber } from "./invoice-rows.js";

/** A number taken for an invoice issued at `issuedAt`; `recordedLateAt` set when it breaks its year's order. */
export interface IssuedNumber {
  number: string;
  issuedAt: Date;
  recordedLateAt: Date | null;
}

/** The columns an invoice's number is stored with: its date is set here, once. */
export const numberColumns = (n: IssuedNumber) => ({
  number: n.number,
  issued_at: n.issuedAt,
  recorded_late_at: n.recordedLateAt,
});

/**
 * `count` numbers of `year`: the first of them, and the latest issue numbered in that year before. The counter's row
 * stays locked until the caller's transaction ends, so the sequence has no gaps and the latest issue cannot move.
 */
export async function takeFromCounter(
  year: number,
  count: number,
  tx: Tx,
): Promise<{ first: number; lastIssuedAt: Date | null }> {
  const result = await tx.raw(
    `insert into invoice_number_counters (year, last_number) values (?, ?)
     on conflict (year) do update set last_number = invoice_number_counters.last_number + excluded.last_number
     returning last_number, last_issued_at`,
    [year, count],
  );
  const row = result.rows[0] as { last_number: number | string; last_issued_at: Date | string | null };
  return {
    first: Number(row.last_number) - count + 1,
    lastIssuedAt: row.last_issued_at ? new Date(row.last_issued_at) : null,
  };
}

/**
 * A number for each issue moment, in the caller's order: each takes its issue's business year (in `timeZone`), and
 * within a year the earliest issue takes the lowest number. Years in ascending order, so two transactions never wait
 * on each other's counters in opposite orders. `now` is when Haven records them (the exception's second date).
 */
export async function numberInOrder(issued: Date[], tx: Tx, timeZone: string, now: Date): Promise<IssuedNumber[]> {
  const day = (at: Date) => todayIn(timeZone, at);
  const years = issued.map((at) => Number(day(at).slice(0, 4)));
  const out: IssuedNumber[] = new Array(issued.length);
  for (const year of [...new Set(years)].sort((a, b) => a - b)) {
    const positions = issued
      .map((_, i) => i)
      .filter((i) => years[i] === year)
      .sort((a, b) => issued[a]!.getTime() - issued[b]!.getTime() || a - b);
    const { first, lastIssuedAt } = await takeFromCounter(year, positions.length, tx);
    let latest = lastIssuedAt;
    positions.forEach((position, k) => {
      const at = issued[position]!;
      // Days, not instants: two invoices of one day numbered in either order are in order.
      const late = latest !== null && day(at) < day(latest);
      out[position] = { number: formatInvoiceNumber(year, first + k), issuedAt: at, recordedLateAt: late ? now : null };
      if (latest === null || at > latest) latest = at;
    });
    if (latest && latest !== lastIssuedAt)
      await tx("invoice_number_counters").where({ year }).update({ last_issued_at: latest });
  }
  return out;
}

/**
 * Numbers taken ahead, in one counter update, for the invoices a transaction is about to store (a demo renewal
 * batch, docs/decisions.md#33): by provider invoice id. The writes take them (takeReserved); one left over at the
 * end would be a gap, so the caller checks reservedLeft and rolls back rather than commit it.
 */
const reservations = new WeakMap<Tx, Map<string, IssuedNumber>>();

export async function reserveInOrder(
  invoices: { providerInvoiceId: string; issuedAt: Date }[],
  tx: Tx,
  timeZone: string,
  now: Date,
): Promise<void> {
  const numbers = await numberInOrder(
    invoices.map((i) => i.issuedAt),
    tx,
    timeZone,
    now,
  );
  const held = reservations.get(tx) ?? new Map<string, IssuedNumber>();
  invoices.forEach((i, k) => {
    held.set(i.providerInvoiceId, numbers[k]!);
  });
  reservations.set(tx, held);
}

/** The number reserved in this transaction for an invoice, taken once. */
export function takeReserved(tx: Tx, providerInvoiceId: string): IssuedNumber | undefined {
  const held = reservations.get(tx);
  const number = held?.get(providerInvoiceId);
  if (number) held!.delete(providerInvoiceId);
  return number;
}

/** How many reserved numbers no invoice took: anything but 0 would leave a gap. */
export const reservedLeft = (tx: Tx): number => reservations.get(tx)?.size ?? 0;
