// Inspections: the entries an inspector would write (scores and findings), the batch step that writes them,
// and after the batches the reports of most completed ones.
import type { Container } from "../../src/container.js";
import type { EntryInput, EntryScore, InspectionStatus } from "../../src/modules/inspections/inspections.schemas.js";
import { INSPECTION_WEIGHTS, type RepeatableRoom, roomSubcategoryName } from "../../src/modules/inspections/index.js";
import { DAY, atUtc } from "./dates.js";
import { DEMO_EXTRAS_CAP, type DemoReport, type DemoStep, type PlannedInspection, type SeededHome } from "./model.js";
import { type Rng, between, chance, homeRng, pick } from "./random.js";

const CLADDING = [
  "Vinyl siding",
  "Brick veneer",
  "Fibre cement board",
  "Stucco",
  "Aluminium siding",
  "Wood clapboard",
  "Stone veneer and vinyl",
];

/** Findings an inspector would write, by subcategory; a generic line for the others. */
const FINDINGS: Record<string, { poor: string[]; fair: string[] }> = {
  "Foundation Cracks": {
    poor: [
      "Active vertical crack, 6 mm, NE corner with efflorescence",
      "Stair-step cracking in block wall behind the furnace",
    ],
    fair: ["Hairline shrinkage cracks, monitor yearly"],
  },
  "Basement Moisture / Mold": {
    poor: ["Mould growth on drywall behind the laundry, 1.5 m²", "Standing water at the floor drain after rain"],
    fair: ["Minor dampness on the north wall in spring"],
  },
  "Hot Water System": {
    poor: ["Tank is 17 years old and weeping at the base", "No expansion tank; relief valve discharges to floor"],
    fair: ["Tank at 11 years: plan a replacement"],
  },
  "Sump Pump": {
    poor: ["Pump seized; no backup. Replace before the spring thaw"],
    fair: ["Check valve noisy, discharge close to the foundation"],
  },
  Shingles: {
    poor: ["Curling and missing shingles on the south slope", "Granule loss exposing the mat; roof at end of life"],
    fair: ["Some granule loss, 5–7 years left"],
  },
  Gutters: {
    poor: ["Gutters overflowing; downspout disconnected at the rear"],
    fair: ["Gutters need cleaning; add leaf guards"],
  },
  Flashings: {
    poor: ["Chimney flashing lifted; staining in the attic below"],
    fair: ["Reseal step flashing at the dormer"],
  },
  "Main Panel": {
    poor: ["Double-tapped breakers and scorch marks on the bus bar", "Federal Pacific panel: replace"],
    fair: ["Panel near capacity; label the circuits"],
  },
  "Smoke / CO Detectors": {
    poor: ["No CO detector near the bedrooms; smoke alarms past 10 years"],
    fair: ["Replace batteries; one detector chirping"],
  },
  "Grading and Drainage": {
    poor: ["Negative grading at the rear; water pools against the foundation"],
    fair: ["Extend downspouts 2 m from the wall"],
  },
  Insulation: {
    poor: ["Attic insulation R-12 and compressed; top up to R-50"],
    fair: ["Insulation uneven near the hatch"],
  },
  Ventilation: { poor: ["Bathroom fan vents into the attic"], fair: ["Fan is noisy; clean the grille"] },
  "Caulking / Sealants": {
    poor: ["Failed caulking at the windows on the west wall"],
    fair: ["Recaulk the exterior door frames"],
  },
  "Dryer Ventilation": {
    poor: ["Foil duct crushed behind the dryer: fire risk"],
    fair: ["Clean the lint from the exterior hood"],
  },
  Waterproofing: {
    poor: ["Grout failing in the shower; soft drywall behind the tiles"],
    fair: ["Reseal the tub surround"],
  },
  "Leaks / Water Damage": {
    poor: ["Active leak at the vanity trap; cabinet floor swollen"],
    fair: ["Old stain on the ceiling below, dry today"],
  },
  "Heating Source": {
    poor: ["Furnace 24 years old; cracked heat exchanger suspected"],
    fair: ["Furnace serviced over 2 years ago"],
  },
  "Filter Cleaning": { poor: ["Filter clogged; airflow restricted"], fair: ["Replace the filter every 3 months"] },
  "Stair Treads / Risers": {
    poor: ["Loose basement stair tread; no handrail"],
    fair: ["Tighten the handrail brackets"],
  },
  "Windows / Screens": { poor: ["Failed seals, fogging in 4 windows"], fair: ["Torn screens in two bedrooms"] },
  "Decks / Steps": {
    poor: ["Rotted deck joists at the ledger; keep off until repaired"],
    fair: ["Deck boards need sealing"],
  },
};

/** Items often not present in a home: left out (N/A) with these chances. */
const OFTEN_ABSENT: Record<string, number> = {
  Garburator: 0.5,
  "Sump Pump": 0.35,
  Hydronics: 0.7,
  "Sewer Ejection/Lift": 0.75,
  "Sub-Panels": 0.55,
  Fireplace: 0.45,
  "Retaining Walls / Slopes": 0.55,
  Microwave: 0.2,
  Bathtubs: 0.3,
  Delamination: 0.4,
  Ponding: 0.6,
  "Hood Vent": 0.1,
};

function entryScore(rng: Rng, quality: number): EntryScore {
  const p10 = 0.15 + 0.6 * quality;
  const p7 = 0.25;
  const p4 = (1 - p10 - p7) * 0.72;
  const r = rng();
  if (r < p10) return 10;
  if (r < p10 + p7) return 7;
  if (r < p10 + p7 + p4) return 4;
  return 1;
}

function finding(rng: Rng, subcategory: string, score: EntryScore): string | null {
  const base = subcategory.replace(/ \((Kitchen|Bathroom|Laundry) \d+\)$/, "");
  const known = FINDINGS[base];
  if (score === 1) return known ? pick(rng, known.poor) : `${base}: failed, repair or replace now`;
  if (score === 4)
    return chance(rng, 0.75)
      ? known
        ? pick(rng, [...known.poor, ...known.fair])
        : `${base}: wear beyond normal, repair this season`
      : null;
  if (score === 7)
    return chance(rng, 0.12) ? (known ? pick(rng, known.fair) : `${base}: serviceable, minor wear`) : null;
  return null;
}

/** Every entry of a home, in template order; `share` < 1 keeps only the first part (an inspection under way). */
function planEntries(
  rng: Rng,
  quality: number,
  rooms: Record<RepeatableRoom, number>,
  options: { share: number; complete: boolean; coolingNone: boolean; garageNone: boolean },
): EntryInput[] {
  const entries: EntryInput[] = [];
  for (const category of INSPECTION_WEIGHTS) {
    const count = category.repeatable ? rooms[category.repeatable] : 1;
    for (let n = 1; n <= count; n++) {
      for (const [sub, weight] of Object.entries(category.subcategories)) {
        const subcategoryName = roomSubcategoryName(category, sub, n);
        if (weight === 0) {
          entries.push({
            categoryName: category.name,
            subcategoryName,
            score: null,
            notes: pick(rng, CLADDING),
            urgent: false,
          });
          continue;
        }
        const absent =
          (sub === "Cooling System" && options.coolingNone) ||
          (sub === "Overhead Doors" && options.garageNone) ||
          chance(rng, OFTEN_ABSENT[sub] ?? 0);
        if (absent) continue;
        const score = entryScore(rng, quality);
        const notes = finding(rng, subcategoryName, score);
        entries.push({
          categoryName: category.name,
          subcategoryName,
          score,
          notes,
          urgent: score === 1 ? chance(rng, 0.6) : score === 4 && chance(rng, 0.04),
        });
      }
    }
  }
  if (options.complete) return entries;
  const kept = entries.slice(0, Math.floor(entries.length * options.share));
  // Under way: a few items carry a note but no score yet.
  return kept.map((e) =>
    e.score !== null && chance(rng, 0.06)
      ? { ...e, score: null, notes: e.notes ?? "Come back to this one: access blocked" }
      : e,
  );
}

const INSPECTION_NOTES = [
  "Homeowner present for the walk-through.",
  "Tenant-occupied; access to the attic limited by storage.",
  "Snow cover limited the roof inspection to binoculars.",
  "Recently renovated kitchen and main bath.",
  "Client asked for a quote on the urgent items.",
  null,
  null,
  null,
];

/** What an inspection of a home depends on besides the visit: its rooms and the systems it lacks. */
export interface InspectedHome {
  rooms: Record<RepeatableRoom, number>;
  coolingNone: boolean;
  garageNone: boolean;
}

/** The inspection of one visit: a scheduled one has no entries yet, a completed one is fully scored. */
export function planInspection(
  rng: Rng,
  status: InspectionStatus,
  visit: { scheduledDate: string; bookedAt: Date; quality: number },
  home: InspectedHome,
  now: Date,
): PlannedInspection {
  const { scheduledDate, bookedAt } = visit;
  const complete = status === "completed";
  const share = status === "in_progress" ? 0.2 + rng() * 0.6 : status === "draft" ? rng() * 0.08 : 0;
  const entries =
    status === "scheduled"
      ? []
      : planEntries(rng, visit.quality, home.rooms, {
          share,
          complete,
          coolingNone: home.coolingNone,
          garageNone: home.garageNone,
        });
  const startedAt =
    status === "scheduled"
      ? new Date(Math.min(now.getTime() - 60_000, bookedAt.getTime() + DAY))
      : atUtc(scheduledDate, 13, between(rng, 0, 59));
  return {
    status,
    inspectionDate: scheduledDate,
    createdAt: new Date(Math.min(startedAt.getTime(), now.getTime() - 60_000)),
    completedAt: complete
      ? new Date(Math.min(atUtc(scheduledDate, 16, between(rng, 0, 59)).getTime(), now.getTime() - 30_000))
      : null,
    notes: complete ? pick(rng, INSPECTION_NOTES) : null,
    entries,
  };
}

export const inspectionsStep: DemoStep = {
  name: "inspections",
  async run(batch, { container, inspectorIds }) {
    const items = batch.planned.flatMap((p, i) =>
      p.visits.flatMap((v, j) =>
        v.inspection
          ? [
              {
                propertyId: batch.propertyIds[i]!,
                bookingId: batch.bookingIds[i]![j]!,
                inspectorId: inspectorIds.length ? inspectorIds[p.index % inspectorIds.length]! : null,
                inspectionDate: v.inspection.inspectionDate,
                status: v.inspection.status,
                notes: v.inspection.notes,
                createdAt: v.inspection.createdAt,
                completedAt: v.inspection.completedAt,
                entries: v.inspection.entries,
              },
            ]
          : [],
      ),
    );
    const ids = await container.inspections.createMany(items, batch.tx);
    batch.inspections = items.map((item, k) => ({
      id: ids[k]!,
      propertyId: item.propertyId,
      status: item.status,
      bookingId: item.bookingId,
    }));
  },
};

/** Reports for about 80% of the completed inspections (the reports service also makes the recommendation tasks). */
export async function generateReports(container: Container, homes: SeededHome[], seed: number): Promise<DemoReport[]> {
  const reports: DemoReport[] = [];
  for (const home of homes) {
    const rng = homeRng(seed, home.index, 1);
    for (const inspectionId of home.completedInspectionIds) {
      if (reports.length >= DEMO_EXTRAS_CAP.reports || !chance(rng, 0.8)) continue;
      const report = await container.reports.generate(inspectionId);
      const taskIds = ((report.reportData.recommendations ?? []) as { id: number }[]).map((r) => Number(r.id));
      reports.push({ home, reportId: report.id, taskIds });
    }
  }
  return reports;
}
