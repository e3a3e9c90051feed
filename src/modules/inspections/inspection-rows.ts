// The shapes the inspections repository reads and writes besides the inspection itself: its entries and a new row.
import type { EntryScore, InspectionStatus } from "./inspections.schemas.js";

type Row = Record<string, unknown>;

export const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value ? String(value) : null);

/** A stored entry as the service compares and merges it. */
export interface StoredEntry {
  id: number;
  categoryName: string;
  subcategoryName: string;
  score: EntryScore | null;
  notes: string | null;
  urgent: boolean;
  updatedAt: string;
}

/** The full values of one entry to write (the service has already merged what was not sent). */
export interface EntryWrite {
  categoryName: string;
  subcategoryName: string;
  score: EntryScore | null;
  notes: string | null;
  urgent: boolean;
}

export interface NewInspectionRow {
  propertyId: number;
  bookingId: number | null;
  inspectorId: number | null;
  inspectionDate: string;
  status: InspectionStatus;
  overallScore?: number | null;
  notes?: string | null;
  completedAt?: string | Date | null;
  createdAt?: string | Date;
}

export const toEntry = (row: Row): StoredEntry => ({
  id: row.id as number,
  categoryName: row.category_name as string,
  subcategoryName: row.subcategory_name as string,
  score: (row.score as EntryScore | null) ?? null,
  notes: (row.notes as string | null) ?? null,
  urgent: row.urgent as boolean,
  updatedAt: iso(row.updated_at)!,
});

export const keyOf = (categoryName: string, subcategoryName: string) => `${categoryName}\u0000${subcategoryName}`;
export const entryKey = (e: { categoryName: string; subcategoryName: string }) =>
  keyOf(e.categoryName, e.subcategoryName);
