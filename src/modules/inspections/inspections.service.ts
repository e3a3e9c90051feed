import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import { overallScore, scoreCategories } from "./scoring.js";
import { type EntryWrite, type NewInspectionRow, entryKey } from "./inspection-rows.js";
import type { InspectionFilter, InspectionsRepository } from "./inspections.repository.js";
import type {
  EntryInput,
  EntryScore,
  Inspection,
  InspectionEntry,
  InspectionStatus,
  InspectionWithEntries,
} from "./inspections.schemas.js";
import { INSPECTION_WEIGHTS, findCategory, isEntryScore, subcategoryWeight } from "./template.js";

/**
 * Legal status moves (docs/decisions.md#16). Staying in the same status is always allowed (a no-op).
 * Moving to completed goes through complete(), which scores the inspection; a completed inspection
 * never moves again (its report is a snapshot of it).
 */
export const STATUS_MOVES: Record<InspectionStatus, readonly InspectionStatus[]> = {
  draft: ["scheduled", "in_progress", "completed"],
  scheduled: ["draft", "in_progress", "completed"],
  in_progress: ["draft", "completed"],
  completed: [],
};

export const COMPLETED_MESSAGE = "This inspection is completed: its entries can no longer change";

const label = (e: { categoryName: string; subcategoryName: string }) => `${e.categoryName} › ${e.subcategoryName}`;

const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** One inspection to create in bulk (the demo seed), with the same rules as create/saveEntries/complete. */
export interface BulkInspection {
  propertyId: number;
  bookingId: number | null;
  inspectorId: number | null;
  inspectionDate: string;
  status: InspectionStatus;
  notes?: string | null;
  createdAt?: string | Date;
  completedAt?: string | Date | null;
  entries: EntryInput[];
}

/** What InspectionsService uses; src/container.ts builds them. */
export interface InspectionsDeps {
  inspections: InspectionsRepository;
  transaction: TransactionRunner;
}

/** Inspections, their entries and status (staff-side §3, §4; docs/decisions.md#2 and #16). */
export class InspectionsService {
  private readonly inspections: InspectionsRepository;
  private readonly transaction: TransactionRunner;

  constructor(deps: InspectionsDeps) {
    this.inspections = deps.inspections;
    this.transaction = deps.transaction;
  }

  list(
    filter: InspectionFilter & { limit: number; offset: number },
  ): Promise<{ rows: Inspection[]; total: number; capped: boolean }> {
    return this.inspections.list(filter);
  }

  /** Every inspection matching the list's filter, newest first, in batches (CSV export). */
  exportRows(filter: InspectionFilter): AsyncGenerator<Inspection[]> {
    return this.inspections.exportRows(filter);
  }

  /** Which of these inspections have a report (the list's 'View Report'), inspection id → report id. */
  reportIds(inspectionIds: number[]): Promise<Map<number, number>> {
    return this.inspections.reportIds(inspectionIds);
  }

  /** The inspection with every template category (in template order) and its entries. */
  /** The inspection with what its form's header shows the inspector (InspectionVisit); only the API's GET. */
  async getForForm(id: number): Promise<InspectionWithEntries> {
    const inspection = await this.get(id);
    return { ...inspection, visit: (await this.inspections.visit(id)) ?? undefined };
  }

  async get(id: number, tx?: Tx): Promise<InspectionWithEntries> {
    const inspection = await this.inspections.find(id, tx);
    if (!inspection) throw new NotFoundError("Inspection not found");
    const stored = await this.inspections.entries(id, tx);
    const photos = await this.inspections.photoIds(
      stored.map((e) => e.id),
      tx,
    );
    const entries: InspectionEntry[] = stored.map((e) => {
      const photoIds = photos.get(e.id) ?? [];
      return { ...e, inspectionId: id, photoIds, photos: photoIds.map((p) => `/api/photos/${p}`) };
    });
    return {
      ...inspection,
      categories: INSPECTION_WEIGHTS.map((c) => ({
        categoryName: c.name,
        entries: entries.filter((e) => e.categoryName === c.name),
      })),
    };
  }

  /**
   * Starts an inspection of a property (in_progress unless told otherwise). It links the property's
   * earliest scheduled booking that no inspection fulfils yet, and records who started it.
   */
  async create(
    input: { propertyId: number; status?: InspectionStatus; inspectionDate: string },
    inspectorId: number | null,
  ): Promise<Inspection> {
    const status = input.status ?? "in_progress";
    if (status === "completed")
      throw new ValidationError("An inspection is completed from the form, not created completed", {
        status: "Status must be one of in_progress, scheduled, draft",
      });
    const id = await this.transaction(async (tx) => {
      // Locking the property serialises two starts at once: the second sees the first's link.
      if (!(await this.inspections.lockProperty(input.propertyId, tx))) {
        throw new ValidationError("Property not found", { propertyId: "Property not found" });
      }
      const bookingId = await this.inspections.findOpenBooking(input.propertyId, tx);
      const [created] = await this.inspections.insert(
        [{ propertyId: input.propertyId, bookingId, inspectorId, inspectionDate: input.inspectionDate, status }],
        tx,
      );
      return created!;
    });
    return (await this.inspections.find(id))!;
  }

  /** Moves the status; an illegal move is a 409. Moving to completed scores what is stored (see complete). */
  async setStatus(id: number, status: InspectionStatus): Promise<Inspection> {
    if (status === "completed") {
      const current = await this.inspections.find(id);
      if (!current) throw new NotFoundError("Inspection not found");
      if (current.status === "completed") return current;
      return this.complete(id, []);
    }
    await this.transaction(async (tx) => {
      const current = await this.inspections.lock(id, "update", tx);
      if (!current) throw new NotFoundError("Inspection not found");
      if (current.status === status) return;
      if (!STATUS_MOVES[current.status].includes(status)) {
        throw new ConflictError(`An inspection cannot move from ${current.status} to ${status}`, {
          status: `Cannot move from ${current.status} to ${status}`,
        });
      }
      await this.inspections.setStatus(id, status, tx);
    });
    return (await this.inspections.find(id))!;
  }

  /**
   * Checks entries against the template; a 400 names every bad field (as `{index}.field`): a score not in
   * 10, 7, 4, 1, null; an unknown category or subcategory (room suffixes only on repeatable categories,
   * n ≥ 2); a score on a weight-0 item such as 'Type of Cladding'.
   */
  validateEntries(entries: EntryInput[]): void {
    const fields: Record<string, string> = {};
    entries.forEach((entry, i) => {
      const score = entry.score as unknown;
      if (score !== null && score !== undefined && !isEntryScore(score))
        fields[`${i}.score`] = `${label(entry)}: score must be 10, 7, 4, 1 or null (N/A)`;
      if (!findCategory(entry.categoryName)) {
        fields[`${i}.categoryName`] = `Unknown category: ${entry.categoryName}`;
        return;
      }
      const weight = subcategoryWeight(entry.categoryName, entry.subcategoryName);
      if (weight === undefined) {
        fields[`${i}.subcategoryName`] = `Unknown subcategory of ${entry.categoryName}: ${entry.subcategoryName}`;
      } else if (weight === 0 && score !== null && score !== undefined) {
        fields[`${i}.score`] = `${label(entry)} is a description only and takes no score`;
      }
      if (entry.photoIds && new Set(entry.photoIds).size !== entry.photoIds.length)
        fields[`${i}.photoIds`] = `${label(entry)}: a photo is listed twice`;
    });
    const bad = Object.values(fields);
    if (bad.length)
      throw new ValidationError(bad.length === 1 ? bad[0]! : `${bad[0]} (and ${bad.length - 1} more)`, fields);
  }

  /**
   * Upserts entries per (inspection, category, subcategory): a retried chunk changes nothing, and a
   * device saving other entries never overwrites these. A field left out keeps its stored value;
   * photoIds, when given, replace the entry's photos in that order. A completed inspection refuses
   * any change (409), though a retry that changes nothing is answered as saved.
   */
  async saveEntries(inspectionId: number, entries: EntryInput[]): Promise<{ saved: number }> {
    this.validateEntries(entries);
    const unique = this.lastOfEachKey(entries);
    await this.transaction(async (tx) => {
      const current = await this.inspections.lock(inspectionId, "share", tx);
      if (!current) throw new NotFoundError("Inspection not found");
      await this.write(inspectionId, unique, current.status === "completed", tx);
    });
    return { saved: unique.length };
  }

  /**
   * Completes an inspection in one transaction: upserts the sent entries, refuses any sent entry without
   * a score (400 naming it; weight-0 items are exempt, they take none), computes overallScore with the
   * shared scoring over every stored entry, marks it completed and its linked booking completed.
   * A retry of a completion that changes nothing answers the completed inspection.
   */
  async complete(inspectionId: number, entries: EntryInput[]): Promise<Inspection> {
    this.validateEntries(entries);
    const unique = this.lastOfEachKey(entries);
    const fields: Record<string, string> = {};
    unique.forEach((entry) => {
      if (entry.score === null && subcategoryWeight(entry.categoryName, entry.subcategoryName) !== 0) {
        fields[`${entries.lastIndexOf(entry)}.score`] =
          `${label(entry)} needs a score before the inspection can be completed`;
      }
    });
    if (Object.keys(fields).length) {
      const first = Object.values(fields)[0]!;
      throw new ValidationError(
        Object.keys(fields).length === 1 ? first : `${first} (and ${Object.keys(fields).length - 1} more)`,
        fields,
      );
    }
    await this.transaction(async (tx) => {
      const current = await this.inspections.lock(inspectionId, "update", tx);
      if (!current) throw new NotFoundError("Inspection not found");
      const completed = current.status === "completed";
      await this.write(inspectionId, unique, completed, tx);
      if (completed) return;
      const stored = await this.inspections.entries(inspectionId, tx);
      // With nothing sent (PATCH status completed), what is stored must pass the same check.
      const unscored = unique.length
        ? []
        : stored.filter((e) => e.score === null && subcategoryWeight(e.categoryName, e.subcategoryName) !== 0);
      if (unscored.length) {
        throw new ValidationError(
          `${label(unscored[0]!)} needs a score before the inspection can be completed`,
          Object.fromEntries(unscored.map((e) => [label(e), "Needs a score"])),
        );
      }
      const score = this.score(stored);
      if (score === null)
        throw new ValidationError("Score at least one item before completing the inspection", {
          entries: "No scored entry",
        });
      await this.inspections.markCompleted(inspectionId, score, tx);
      if (current.bookingId) await this.inspections.completeBookings([current.bookingId], tx);
    });
    return (await this.inspections.find(inspectionId))!;
  }

  /**
   * Creates many inspections with their entries in the caller's transaction (the demo seed). The same
   * rules hold: entries are validated, completed ones need every entry scored and get the shared
   * overall score, and their linked bookings are marked completed. Returns the new ids in order.
   */
  async createMany(items: BulkInspection[], tx: Tx): Promise<number[]> {
    const rows: NewInspectionRow[] = items.map((item, index) => {
      try {
        this.validateEntries(item.entries);
      } catch (error) {
        throw new ValidationError(
          `Inspection ${index}: ${(error as Error).message}`,
          (error as ValidationError).fields,
        );
      }
      let overall: number | null = null;
      if (item.status === "completed") {
        const unscored = item.entries.find(
          (e) => e.score === null && subcategoryWeight(e.categoryName, e.subcategoryName) !== 0,
        );
        if (unscored) throw new ValidationError(`Inspection ${index}: ${label(unscored)} needs a score`);
        overall = this.score(item.entries.map((e) => ({ ...e, notes: e.notes ?? null })));
        if (overall === null) throw new ValidationError(`Inspection ${index}: no scored entry`);
      }
      return {
        propertyId: item.propertyId,
        bookingId: item.bookingId,
        inspectorId: item.inspectorId,
        inspectionDate: item.inspectionDate,
        status: item.status,
        overallScore: overall,
        notes: item.notes ?? null,
        completedAt: item.status === "completed" ? (item.completedAt ?? item.createdAt ?? new Date()) : null,
        createdAt: item.createdAt,
      };
    });
    const ids = await this.inspections.insert(rows, tx);
    const entries = items.flatMap((item, i) =>
      this.lastOfEachKey(item.entries).map((e) => ({
        inspectionId: ids[i]!,
        categoryName: e.categoryName,
        subcategoryName: e.subcategoryName,
        score: e.score,
        notes: e.notes ?? null,
        urgent: e.urgent ?? false,
        updatedAt: rows[i]!.completedAt ?? rows[i]!.createdAt,
      })),
    );
    await this.inspections.insertEntries(entries, tx);
    await this.inspections.completeBookings(
      items.filter((item) => item.status === "completed" && item.bookingId).map((item) => item.bookingId!),
      tx,
    );
    return ids;
  }

  /** The shared scoring (scoring.ts) over stored entries: the overall 0–100 score, or null. */
  private score(
    entries: {
      categoryName: string;
      subcategoryName: string;
      score: EntryScore | null;
      notes: string | null;
      urgent?: boolean;
    }[],
  ): number | null {
    return overallScore(
      scoreCategories(
        entries.map((e) => ({
          categoryName: e.categoryName,
          subcategoryName: e.subcategoryName,
          score: e.score,
          notes: e.notes ?? undefined,
          urgent: e.urgent,
        })),
      ),
    );
  }

  /** Two sends of one key in a batch: the last one wins (a batch upsert cannot touch a row twice). */
  private lastOfEachKey(entries: EntryInput[]): EntryInput[] {
    const byKey = new Map<string, EntryInput>();
    for (const entry of entries) {
      byKey.delete(entryKey(entry));
      byKey.set(entryKey(entry), entry);
    }
    return [...byKey.values()];
  }

  /** Merges what was not sent with what is stored, then upserts; on a completed inspection only a no-op passes. */
  private async write(inspectionId: number, entries: EntryInput[], completed: boolean, tx: Tx): Promise<void> {
    if (!entries.length) return;
    const photoIds = [...new Set(entries.flatMap((e) => e.photoIds ?? []))];
    const existingPhotos = await this.inspections.existingPhotoIds(photoIds, tx);
    const missing: Record<string, string> = {};
    entries.forEach((e, i) => {
      const unknown = (e.photoIds ?? []).filter((id) => !existingPhotos.has(id));
      if (unknown.length) missing[`${i}.photoIds`] = `${label(e)}: no photo ${unknown.join(", ")}`;
    });
    if (Object.keys(missing).length) throw new ValidationError(Object.values(missing)[0]!, missing);

    const stored = await this.inspections.entriesByKey(inspectionId, entries, tx);
    const merged: EntryWrite[] = entries.map((e) => {
      const before = stored.get(entryKey(e));
      return {
        categoryName: e.categoryName,
        subcategoryName: e.subcategoryName,
        score: e.score === undefined ? (before?.score ?? null) : e.score,
        notes: e.notes === undefined ? (before?.notes ?? null) : e.notes === null ? null : e.notes,
        urgent: e.urgent === undefined ? (before?.urgent ?? false) : e.urgent,
      };
    });
    if (completed) {
      const photos = await this.inspections.photoIds(
        [...stored.values()].map((s) => s.id),
        tx,
      );
      const unchanged = merged.every((m, i) => {
        const before = stored.get(entryKey(m));
        if (!before || before.score !== m.score || before.notes !== m.notes || before.urgent !== m.urgent) return false;
        const ids = entries[i]!.photoIds;
        return !ids || sameIds(ids, photos.get(before.id) ?? []);
      });
      if (!unchanged) throw new ConflictError(COMPLETED_MESSAGE);
      return;
    }
    const ids = await this.inspections.upsertEntries(inspectionId, merged, tx);
    const touched: number[] = [];
    for (const entry of entries) {
      if (!entry.photoIds) continue;
      const entryId = ids.get(entryKey(entry))!;
      if (await this.inspections.replacePhotos(entryId, entry.photoIds, tx)) touched.push(entryId);
    }
    await this.inspections.touchEntries(touched, tx);
  }
}
