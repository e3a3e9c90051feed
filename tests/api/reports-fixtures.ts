// Completed inspections for the reports tests (API, CLI, browser), made through the services.
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Container } from "../../src/container.js";
import type { EntryInput } from "../../src/modules/inspections/inspections.schemas.js";

let n = 0;

export async function newProperty(container: Container, address = `${++n} Rue Élise`) {
  const tag = randomBytes(3).toString("hex");
  const { property } = await container.customers.createWithProperty(
    { email: `owner-${tag}@example.ca`, name: "Łucja O’Brien", phone: "418-555-0100", subscriptionPlan: "standard" },
    { address, city: "Québec", province: "QC", postalCode: "G1R 4P5" },
  );
  return property;
}

/** A small JPEG, different per seed (the photos table keeps one row per distinct image). */
export async function photo(container: Container, seed: number, width = 640, height = 480): Promise<number> {
  const bytes = await sharp({
    create: { width, height, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: 120 } },
  })
    .jpeg({ quality: 70 })
    .toBuffer();
  return (await container.photos.ingest(bytes)).id;
}

/** The hand-computed inspection of the reports tests (see tests/api/reports.test.ts for its figures). */
export async function smallEntries(container: Container): Promise<EntryInput[]> {
  const photos = [await photo(container, 1), await photo(container, 2)];
  return [
    { categoryName: "Plumbing", subcategoryName: "Water Main Shut Off", score: 10 },
    { categoryName: "Plumbing", subcategoryName: "Pressure and Flow", score: 4, notes: "Low pressure upstairs" },
    {
      categoryName: "Plumbing",
      subcategoryName: "Hot Water System",
      score: 1,
      notes: "Tank leaking at the base",
      photoIds: photos,
    },
    { categoryName: "Roof", subcategoryName: "Gutters", score: 7, notes: "Sagging at the north corner" },
    { categoryName: "Roof", subcategoryName: "Flashings", score: 10, notes: "Loose at the chimney", urgent: true },
    { categoryName: "Exterior Envelope", subcategoryName: "Type of Cladding", score: null, notes: "Vinyl siding" },
  ];
}

/** A property (new unless given) with a completed inspection of these entries. */
export async function completedInspection(
  container: Container,
  entries: EntryInput[],
  options: { propertyId?: number; inspectorId?: number | null; inspectionDate?: string; address?: string } = {},
): Promise<{ propertyId: number; inspectionId: number }> {
  const propertyId = options.propertyId ?? (await newProperty(container, options.address)).id;
  const inspection = await container.inspections.create(
    { propertyId, inspectionDate: options.inspectionDate ?? "2026-02-03" },
    options.inspectorId ?? null,
  );
  await container.inspections.complete(inspection.id, entries);
  return { propertyId, inspectionId: inspection.id };
}

/** Every scored item of the template at 10 except a few: a quick completed inspection. */
export function quickEntries(score: 10 | 7 | 4 | 1 = 10): EntryInput[] {
  return [
    { categoryName: "Plumbing", subcategoryName: "Pressure and Flow", score },
    { categoryName: "HVAC", subcategoryName: "Thermostat", score: 7 },
    { categoryName: "Roof", subcategoryName: "Gutters", score: 4, notes: "Clogged" },
  ];
}
