import type { Router } from "express";
import { z } from "zod";
import { ForbiddenError, ValidationError } from "../../http/errors.js";
import { MAX_ID, idInput } from "../../http/fields.js";
import { requireStaffApi } from "../../http/guards.js";
import { inspectorScopeOf } from "../../http/roles.js";
import { parse } from "../../http/validate.js";
import { type EntryInput, type EntryScore, entryInputSchema } from "./inspections.schemas.js";
import type { InspectionsService } from "./inspections.service.js";
import { photoIdFromUrl } from "./photos.constants.js";
import type { PhotosService } from "./photos.service.js";
import { createRouter } from "../../http/router.js";

/** What the entries API uses; src/app.ts passes it (docs/architecture.md "Modules and layers"). */
export interface EntriesApiDeps {
  inspections: InspectionsService;
  photos: PhotosService;
  /**
   * Whether an inspector may put this stored photo on their entry: it is on none yet, or on their own inspection
   * (src/http/ownership.repository.ts; docs/decisions.md#36).
   */
  inspectorOwnsPhoto: (photoId: number, staffUserId: number) => Promise<boolean>;
}

/** The most entries one call takes: every item of a house with many repeated rooms. */
export const MAX_ENTRIES_PER_CALL = 1000;
const MAX_PHOTOS_PER_ENTRY = 200;

/**
 * One inspection category entry as staff-side §3 has it: inspectionId, categoryName, subcategoryName,
 * score, notes, urgent and photos, each photo a URL of a stored photo ('/api/photos/12') or an embedded
 * image data string. `photoIds` (the service's shape) is also taken.
 */
const entryBodySchema = entryInputSchema.extend({
  inspectionId: z.preprocess(
    idInput,
    z
      .number({ message: "Inspection is required" })
      .int("Inspection must be a whole number")
      .positive("Inspection must be positive")
      .max(MAX_ID, "Inspection is not valid"),
  ),
  score: z.number({ message: "Score must be 10, 7, 4, 1 or null" }).nullable().optional(),
  photos: z
    .array(
      z
        .string({ message: "A photo must be a photo URL or an image data string" })
        .min(1, "A photo must be a photo URL or an image data string"),
      { message: "Photos must be a list" },
    )
    .max(MAX_PHOTOS_PER_ENTRY, `At most ${MAX_PHOTOS_PER_ENTRY} photos per entry`)
    .optional(),
});
const entriesBodySchema = z
  .array(entryBodySchema, { message: "Send a list of entries" })
  .min(1, "Send at least one entry")
  .max(MAX_ENTRIES_PER_CALL, `At most ${MAX_ENTRIES_PER_CALL} entries per call`);
type EntryBody = z.infer<typeof entryBodySchema>;

/** Every entry of one call belongs to one inspection; its id. */
function inspectionOf(entries: EntryBody[]): number {
  const id = entries[0]!.inspectionId;
  const fields: Record<string, string> = {};
  entries.forEach((e, i) => {
    if (e.inspectionId !== id)
      fields[`${i}.inspectionId`] = "Every entry of one call must belong to the same inspection";
  });
  if (Object.keys(fields).length)
    throw new ValidationError("Every entry of one call must belong to the same inspection", fields);
  return id;
}

/**
 * Turns the entries' photos into photo ids: URLs must name stored photos; data strings are stored
 * (once per distinct image). Runs after every other check, so bad input stores no photo.
 */
async function resolvePhotos(
  deps: EntriesApiDeps,
  entries: EntryBody[],
  inspectorId: number | undefined,
): Promise<EntryInput[]> {
  const fields: Record<string, string> = {};
  const named = new Set<number>();
  for (const [i, entry] of entries.entries()) {
    for (const [j, photo] of (entry.photos ?? []).entries()) {
      const id = photoIdFromUrl(photo);
      if (id !== null) named.add(id);
      else if (!photo.startsWith("data:"))
        fields[`${i}.photos.${j}`] = "A photo must be a photo URL (/api/photos/{id}) or an image data string";
    }
  }
  const existing = await deps.photos.existing([...named, ...entries.flatMap((e) => e.photoIds ?? [])]);
  entries.forEach((entry, i) => {
    entry.photos?.forEach((photo, j) => {
      const id = photoIdFromUrl(photo);
      if (id !== null && !existing.has(id)) fields[`${i}.photos.${j}`] = `Photo ${id} does not exist`;
    });
    entry.photoIds?.forEach((id, j) => {
      if (!existing.has(id)) fields[`${i}.photoIds.${j}`] = `Photo ${id} does not exist`;
    });
  });
  if (Object.keys(fields).length) throw new ValidationError("Some photos are not valid", fields);
  // An inspector's entry takes only photos they sent, never one of another inspector's inspection.
  if (inspectorId !== undefined)
    for (const id of existing)
      if (!(await deps.inspectorOwnsPhoto(id, inspectorId)))
        throw new ForbiddenError("Your role (inspector) cannot use another inspector's photos.");

  const out: EntryInput[] = [];
  for (const [i, entry] of entries.entries()) {
    let photoIds = entry.photoIds;
    if (entry.photos) {
      photoIds = [];
      for (const [j, photo] of entry.photos.entries()) {
        const id = photoIdFromUrl(photo) ?? (await deps.photos.ingest(photo, undefined, `${i}.photos.${j}`)).id;
        if (!photoIds.includes(id)) photoIds.push(id);
      }
    }
    out.push({
      categoryName: entry.categoryName,
      subcategoryName: entry.subcategoryName,
      score: (entry.score ?? null) as EntryScore | null,
      // Left out, they keep what is stored.
      notes: entry.notes,
      urgent: entry.urgent,
      ...(photoIds && { photoIds }),
    });
  }
  return out;
}

/** Checks (zod, then the template through validateEntries) and resolves the photos of one call. */
async function parseEntries(
  deps: EntriesApiDeps,
  input: unknown,
  inspectorId: number | undefined,
): Promise<{ inspectionId: number; entries: EntryInput[] }> {
  const parsed = parse(entriesBodySchema, input ?? {});
  const inspectionId = inspectionOf(parsed);
  deps.inspections.validateEntries(parsed.map((e) => ({ ...e, score: (e.score ?? null) as EntryScore | null })));
  return { inspectionId, entries: await resolvePhotos(deps, parsed, inspectorId) };
}

/** The inspection form's save and complete calls (staff-side §7; docs/decisions.md#16). */
export function entriesApi(deps: EntriesApiDeps): Router {
  const router = createRouter();
  router.use("/inspection-categories", requireStaffApi);

  /** Save: an upsert per (inspection, category, subcategory); the form sends chunks of 5. */
  router.post("/inspection-categories", async (req, res) => {
    const { inspectionId, entries } = await parseEntries(deps, req.body, inspectorScopeOf(req));
    const { saved } = await deps.inspections.saveEntries(inspectionId, entries);
    res.json({ saved });
  });

  /** Complete: every entry at once; each needs a score; one transaction (InspectionsService.complete). */
  router.post("/inspection-categories/bulk-complete", async (req, res) => {
    const { inspectionId, entries } = await parseEntries(deps, req.body, inspectorScopeOf(req));
    res.json(await deps.inspections.complete(inspectionId, entries));
  });
  return router;
}
