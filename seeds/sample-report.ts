// The fixed, read-only sample report behind /client-report/sample and /sample-report
// (docs/decisions.md#7). Its scores are computed from these entries with the weights of staff-side §9.
import { clientLabel, clientPriorityLabel } from "../src/modules/inspections/index.js";
import { type Entry, type ScoredReport, scoreInspection } from "../src/modules/inspections/index.js";

/** The hard-coded sample id of the marketing links. A real report token never equals it. */
export const SAMPLE_REPORT_ID = "sample";

export const SAMPLE_PROPERTY = {
  address: "1428 Elmwood Crescent",
  city: "Ottawa",
  province: "ON",
  clientName: "Jordan Avery",
  inspector: "Morgan Ellis",
  inspectionDate: "2024-05-14",
  squareFootage: 2350,
  yearBuilt: 1998,
};

const e = (categoryName: string, subcategoryName: string, score: number | null, notes = "", urgent = false): Entry => ({
  categoryName,
  subcategoryName,
  score,
  notes,
  urgent,
});

const B = "Basement, Foundation, Crawlspace & Structure";

export const SAMPLE_ENTRIES: Entry[] = [
  e(B, "Foundation Cracks", 7, "Hairline shrinkage cracks on the north wall; no movement since the last reading."),
  e(
    B,
    "Basement Moisture / Mold",
    4,
    "Efflorescence and a damp patch below the laundry window; check the window well drain.",
  ),
  e(B, "Settlement Indicators", 10, "Floors level, doors close true."),
  e(B, "Structural Assemblies", 10, "Beams and posts sound."),
  e("Plumbing", "Water Main Shut Off", 10, "Labelled and turns freely."),
  e("Plumbing", "Pressure and Flow", 7, "62 psi; slight drop when two fixtures run."),
  e("Plumbing", "Drain/Waste/Vent", 10),
  e("Plumbing", "Hot Water System", 4, "Tank is 14 years old with rust at the base; plan its replacement."),
  e("Plumbing", "Sump Pump", 10, "Float switch tested."),
  e("Site & Drainage", "Grading and Drainage", 7, "Low spot by the back steps holds water after rain."),
  e("Site & Drainage", "Driveway / Parking", 10),
  e("Site & Drainage", "Fencing / Gates", 7, "Side gate latch sticks."),
  e("Kitchens & Wet Bars", "Range / Oven", 10),
  e("Kitchens & Wet Bars", "Dishwasher", 7, "Door gasket worn."),
  e("Kitchens & Wet Bars", "Sink and Faucet", 10),
  e("Kitchens & Wet Bars", "Hood Vent", 4, "Grease filter clogged; fan moves little air."),
  e("Bathrooms", "Toilets", 10),
  e("Bathrooms", "Showers", 7, "Grout cracking at the shower pan corner."),
  e("Bathrooms", "Ventilation", 4, "Fan vents into the attic instead of outdoors."),
  e("Bathrooms", "Toilets (Bathroom 2)", 10),
  e("Exterior Envelope", "Type of Cladding", null, "Vinyl siding with a brick veneer front."),
  e("Exterior Envelope", "Cladding Condition", 10),
  e("Exterior Envelope", "Caulking / Sealants", 4, "Window perimeter caulking cracked on the west side."),
  e("Exterior Envelope", "Decks / Steps", 7, "Two deck boards soft near the stairs."),
  e("Roof", "Shingles", 7, "Granule loss on the south slope; about 6 years of life left."),
  e("Roof", "Flashings", 10),
  e("Roof", "Gutters", 1, "Gutters overflow at the north-east corner; downspout disconnected.", true),
  e("HVAC", "Heating Source", 10, "High-efficiency gas furnace, 2016."),
  e("HVAC", "Cooling System", 7),
  e("HVAC", "Filter Cleaning", 4, "Filter overdue for replacement."),
  e("HVAC", "Thermostat", 10),
  e("Electrical", "Main Panel", 10, "100 A panel, neatly labelled."),
  e("Electrical", "Receptacles / Switches", 7, "One exterior outlet lacks GFCI protection."),
  e("Electrical", "Smoke / CO Detectors", 1, "No CO detector near the bedrooms.", true),
  e("Interior Finishes", "Flooring", 10),
  e("Interior Finishes", "Walls", 7, "Nail pops in the stairwell."),
  e("Attic", "Insulation", 7, "R-40 with thin spots by the hatch."),
  e("Attic", "Ventilation", 10),
  e("Windows and Doors", "Windows / Screens", 7, "Two torn screens."),
  e("Windows and Doors", "Exterior Doors", 10),
  e("Laundry Room", "Dryer Ventilation", 4, "Lint build-up in the dryer duct: a fire risk."),
  e("Laundry Room", "Supply / Drain", 10),
  e("Miscellaneous / Safety", "Stair Treads / Risers", 10),
];

export interface SampleReport extends ScoredReport {
  id: string;
  property: typeof SAMPLE_PROPERTY;
  /** The client label of the overall score ('Haven Standing' … 'Beyond the Pale'). */
  label: string;
  recommendations: (ScoredReport["recommendations"][number] & { clientPriority: string })[];
}

let cached: SampleReport | null = null;

/** The sample report, scored once per process: it never changes. */
export function sampleReport(): SampleReport {
  if (cached) return cached;
  const scored = scoreInspection(SAMPLE_ENTRIES);
  cached = {
    ...scored,
    id: SAMPLE_REPORT_ID,
    property: SAMPLE_PROPERTY,
    label: clientLabel(scored.overallScore ?? 0),
    recommendations: scored.recommendations.map((r) => ({ ...r, clientPriority: clientPriorityLabel(r.priority) })),
  };
  return cached;
}
