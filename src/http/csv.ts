import type { Request, Response } from "express";
import { z } from "zod";
import { query } from "./validate.js";

/**
 * CSV export of the staff list calls (`?format=csv`): the same filter as the JSON list, every matching row
 * (no limit or offset), one column per JSON field, streamed with backpressure from a database cursor
 * (src/db/cursor.ts), so 100,000 rows never sit in memory at once.
 */

/** The `format` query parameter of the list calls that export (documented in the OpenAPI document too). */
export const csvFormatField = z
  .preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(["json", "csv"], { message: "Format must be json or csv" }).optional(),
  )
  .meta({ description: "`csv`: every matching row (no limit or offset) as text/csv, one column per JSON field" });
const formatQuery = z.object({ format: csvFormatField });

/** Whether the list call was asked for CSV; any other `format` than json or csv is a 400 naming the field. */
export const wantsCsv = (req: Request): boolean => query(req, formatQuery).format === "csv";

// A cell a spreadsheet would read as a formula (=, +, -, @, or a tab or carriage return before one).
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell: empty for null, ISO text for a date, JSON for an object or array. Text that starts like a
 * formula gets a leading apostrophe (OWASP's CSV injection guard), so opening the file never runs it;
 * numbers and booleans are written as they are (a negative number is not text).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  let text =
    value instanceof Date ? value.toISOString() : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, RFC 4180: comma-separated, CRLF-terminated. */
export const csvLine = (values: readonly unknown[]): string => `${values.map(csvCell).join(",")}\r\n`;

/**
 * Waits for the response to take more (drain) or for the client to go (close). One listener each for the
 * whole export: compression forwards `drain` listeners to its gzip stream, where removing them again fails.
 */
function drainWaiter(res: Response): () => Promise<void> {
  let wake: (() => void) | undefined;
  const ready = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  res.on("drain", ready);
  res.on("close", ready);
  return () => (res.destroyed ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve)));
}

/**
 * A JSON row as CSV cells, keyed by path: a nested object's fields become `parent.child` columns (an
 * inspection's `property.address`); arrays are left out (a report's categories and recommendations are not
 * one cell's worth: its PDF holds them).
 */
export function flattenRow(row: object, prefix = "", into = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, value] of Object.entries(row)) {
    if (Array.isArray(value)) continue;
    if (value && typeof value === "object" && !(value instanceof Date)) flattenRow(value, `${prefix}${key}.`, into);
    else into.set(`${prefix}${key}`, value);
  }
  return into;
}

export interface CsvExport {
  /** The file name's subject: `haven-<name>-<YYYY-MM-DD>.csv`. */
  name: string;
  /** The rows as the JSON list call answers them, a batch at a time (cursorBatches); the next batch is asked for only once the last is written. */
  batches: AsyncIterable<object[]>;
}

/**
 * Answers `text/csv` (UTF-8 with a BOM, so spreadsheets read accents right). The columns are the list call's
 * JSON fields, in its order (flattenRow), so the two never drift apart; an export with no rows is an empty
 * file. The first batch is read before anything is sent, so a failing query is still an ordinary error
 * answer (a 503 when the database is down); a failure later can only cut the download short (the
 * connection is closed, never a silently short file).
 */
export async function sendCsv(res: Response, { name, batches }: CsvExport): Promise<void> {
  const iterator = batches[Symbol.asyncIterator]();
  try {
    let batch = await iterator.next();
    const day = new Date().toISOString().slice(0, 10);
    res.status(200).type("text/csv; charset=utf-8");
    res.setHeader("Content-Disposition", `attachment; filename="haven-${name}-${day}.csv"`);
    const drained = drainWaiter(res);
    res.write("\ufeff");
    let columns: string[] | undefined;
    while (!batch.done && !res.destroyed) {
      let chunk = "";
      for (const row of batch.value) {
        const cells = flattenRow(row);
        if (!columns) {
          columns = [...cells.keys()];
          chunk += csvLine(columns);
        }
        chunk += csvLine(columns.map((column) => cells.get(column)));
      }
      if (!res.write(chunk)) await drained();
      if (res.destroyed) break;
      batch = await iterator.next();
    }
    res.end();
  } catch (error) {
    if (res.headersSent) res.destroy();
    throw error;
  } finally {
    // Ends the cursor's transaction when the client left before the last row.
    await iterator.return?.();
  }
}
