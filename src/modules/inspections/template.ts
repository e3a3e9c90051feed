// The inspection template (staff-side §9, docs/decisions.md#16 and #41): 14 categories and their weights, held once.
// The form island, the scoring, the service's validation, the reports and the seeds all read it here.
// Plain data and functions, no zod and no server imports. Its rules and score choices live in template-rules.ts, which
// the form island imports without this data (the page gives it the categories, docs/decisions.md#79).
import {
  type CategoryWeights,
  type RepeatableRoom,
  roomSubcategoryName,
  subcategoryWeightIn,
} from "./template-rules.js";

export {
  type CategoryWeights,
  DEFAULT_OPEN_CATEGORIES,
  type EntryScore,
  type RepeatableRoom,
  SCORE_CHOICES,
  SCORE_VALUES,
  baseSubcategory,
  isEntryScore,
  roomNumber,
  roomSubcategoryName,
  subcategoryWeightIn,
} from "./template-rules.js";

/** Staff-side §9's categories and subcategory weights, in its order. */
const SPEC_WEIGHTS: CategoryWeights[] = [
  {
    name: "Basement, Foundation, Crawlspace & Structure",
    weight: 16,
    subcategories: {
      "Foundation Cracks": 30,
      "Basement Moisture / Mold": 30,
      "Settlement Indicators": 25,
      "Structural Assemblies": 15,
    },
  },
  {
    name: "Plumbing",
    weight: 13,
    subcategories: {
      "Water Main Shut Off": 10,
      "Pressure and Flow": 20,
      "Drain/Waste/Vent": 20,
      "Water Distribution": 15,
      "Hot Water System": 15,
      Hydronics: 5,
      "Sewer Ejection/Lift": 7.5,
      "Sump Pump": 7.5,
    },
  },
  {
    name: "Site & Drainage",
    weight: 11,
    subcategories: {
      "Grading and Drainage": 25,
      Vegetation: 15,
      "Driveway / Parking": 15,
      "Patios / Hardscapes": 15,
      "Retaining Walls / Slopes": 15,
      "Fencing / Gates": 15,
    },
  },
  {
    name: "Kitchens & Wet Bars",
    weight: 10,
    repeatable: "Kitchen",
    subcategories: {
      "Refrigerator / Freezer": 5,
      "Range / Oven": 10,
      Dishwasher: 10,
      Microwave: 5,
      "Hood Vent": 10,
      Garburator: 5,
      "Sink and Faucet": 15,
      Cabinetry: 10,
      Countertops: 5,
      "Backsplash / Wall Finishes": 5,
      Flooring: 10,
      Lighting: 10,
    },
  },
  {
    name: "Bathrooms",
    weight: 9,
    repeatable: "Bathroom",
    subcategories: {
      Toilets: 10,
      Sinks: 8,
      Bathtubs: 8,
      Showers: 10,
      Ventilation: 7,
      Waterproofing: 10,
      "Cabinetry and Storage": 5,
      Flooring: 7,
      "Wall Surfaces": 5,
      "Fixtures / Finish": 5,
      "Electrical Safety": 5,
      "Pressure / Temp / Functionality": 7,
      "Mold / Mildew": 5,
      "Leaks / Water Damage": 5,
      Cleanliness: 3,
    },
  },
  {
    name: "Exterior Envelope",
    weight: 8,
    subcategories: {
      "Type of Cladding": 0,
      "Cladding Condition": 20,
      "Eaves / Soffits": 10,
      "Paint / Finish": 10,
      "Caulking / Sealants": 10,
      "Decks / Steps": 15,
      "Exterior Rails": 5,
      "Grade Clearance / Flashing": 10,
      "Exterior Venting / Openings": 10,
      "Exterior Lighting": 10,
    },
  },
  {
    name: "Roof",
    weight: 7,
    subcategories: {
      Shingles: 15,
      Delamination: 10,
      Ponding: 10,
      Ventilation: 10,
      Flashings: 15,
      Penetrations: 10,
      "Roof Vent Systems": 10,
      Gutters: 20,
    },
  },
  {
    name: "HVAC",
    weight: 6,
    subcategories: {
      "Heating Source": 20,
      "Cooling System": 15,
      "Heating Condition": 15,
      "HVAC Components": 15,
      "Airflow / Registers": 10,
      Thermostat: 15,
      "Filter Cleaning": 10,
    },
  },
  {
    name: "Electrical",
    weight: 6,
    subcategories: {
      "Service Entrance": 15,
      "Main Panel": 15,
      "Sub-Panels": 10,
      "Branch Wiring": 15,
      "Receptacles / Switches": 10,
      Lighting: 10,
      Grounding: 10,
      "Smoke / CO Detectors": 15,
    },
  },
  {
    name: "Interior Finishes",
    weight: 5,
    subcategories: {
      Flooring: 15,
      Walls: 10,
      Ceiling: 10,
      Doors: 10,
      Trim: 10,
      Baseboard: 5,
      Cabinetry: 10,
      Hardware: 10,
      "Guard Rails": 10,
      Cleanliness: 10,
    },
  },
  {
    name: "Attic",
    weight: 4,
    subcategories: {
      Access: 10,
      Insulation: 25,
      Ventilation: 15,
      Moisture: 20,
      "Pest Intrusion": 15,
      "Air Sealing": 15,
    },
  },
  {
    name: "Windows and Doors",
    weight: 3,
    subcategories: { "Windows / Screens": 30, Egress: 30, "Exterior Doors": 25, "Overhead Doors": 15 },
  },
  {
    name: "Laundry Room",
    weight: 2,
    repeatable: "Laundry",
    subcategories: {
      "Washer / Dryer": 20,
      "Sink / Fixtures": 20,
      "Supply / Drain": 20,
      "Dryer Ventilation": 20,
      "Electrical Safety": 20,
    },
  },
  {
    name: "Miscellaneous / Safety",
    weight: 0.5,
    subcategories: { Fireplace: 33, "Stair Treads / Risers": 33, "Egress Obstructions": 34 },
  },
];

/**
 * Haven's own scored items, each on its category's scale (docs/decisions.md#41): home-health points a Canadian
 * inspector scores that staff-side §9 leaves out. With them the form holds INSPECTION_POINTS scored items. An
 * inspection that never scored one scores exactly as before (an unscored item is left out of the mean).
 */
export const HAVEN_ITEMS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  // Health Canada asks every home to test for radon in its lowest lived-in level: weighed like settlement.
  "Basement, Foundation, Crawlspace & Structure": { "Radon Test": 15 },
  // A backwater valve keeps a surcharged sewer out of the basement (weighed as the sump pump); hose bibs that
  // are not frost-free split inside walls in a Canadian winter.
  Plumbing: { "Backwater Valve": 7.5, "Frost-Free Hose Bibs": 5 },
  // Ice dams: staining at the eaves, lifted shingles, missing ice-and-water membrane.
  Roof: { "Ice Dam Indicators": 10 },
  // The HRV or ERV that airtight Canadian homes rely on for fresh air: weighed as airflow.
  HVAC: { "HRV / ERV": 10 },
  // GFCI outlets near water and AFCI breakers on bedroom circuits (Canadian Electrical Code).
  Electrical: { "GFCI / AFCI Protection": 10 },
  // Insulation depth against today's attic target, apart from its condition ('Insulation').
  Attic: { "Insulation Depth": 15 },
  // Covers on basement window wells: snow, water and falls.
  "Windows and Doors": { "Window Well Covers": 10 },
  // The attached garage's gas-proof wall and self-closing door to the house, weighed as the other safety items.
  "Miscellaneous / Safety": { "Garage Fire Separation": 33 },
};

/** Inspection categories with their subcategory weights: staff-side §9's, then Haven's own items. */
export const INSPECTION_WEIGHTS: CategoryWeights[] = SPEC_WEIGHTS.map((category) => ({
  ...category,
  subcategories: { ...category.subcategories, ...HAVEN_ITEMS[category.name] },
}));

/**
 * The scored points of one visit (one kitchen, bathroom and laundry room): the '114-point inspection' of the
 * pricing, booking and confirmation copy (docs/decisions.md#41). Type of Cladding is described, not a point.
 */
export const INSPECTION_POINTS = 114;

export const CATEGORY_NAMES: readonly string[] = INSPECTION_WEIGHTS.map((c) => c.name);

/** The subcategory that is a description only (staff-side §5): it never takes a score. */
export const TYPE_OF_CLADDING = "Type of Cladding";

const CATEGORY_BY_NAME = new Map(INSPECTION_WEIGHTS.map((c) => [c.name, c]));

export function findCategory(name: string): CategoryWeights | undefined {
  return CATEGORY_BY_NAME.get(name);
}

/**
 * The weight of a subcategory name in its category, or undefined when the name is not part of the
 * template. A suffix is only valid on the category's own room kind, with n ≥ 2 and no leading zero.
 */
export function subcategoryWeight(categoryName: string, subcategoryName: string): number | undefined {
  return subcategoryWeightIn(findCategory(categoryName), subcategoryName);
}

/** True for items that take no score: weight 0 (Type of Cladding). */
export const isDescriptionOnly = (categoryName: string, subcategoryName: string) =>
  subcategoryWeight(categoryName, subcategoryName) === 0;

/** Every (category, subcategory) of one room of each category, in template order. */
export function templateEntries(
  rooms: Partial<Record<RepeatableRoom, number>> = {},
): { categoryName: string; subcategoryName: string; weight: number }[] {
  const out: { categoryName: string; subcategoryName: string; weight: number }[] = [];
  for (const category of INSPECTION_WEIGHTS) {
    const count = category.repeatable ? Math.max(1, rooms[category.repeatable] ?? 1) : 1;
    for (let n = 1; n <= count; n++) {
      for (const [sub, weight] of Object.entries(category.subcategories)) {
        out.push({ categoryName: category.name, subcategoryName: roomSubcategoryName(category, sub, n), weight });
      }
    }
  }
  return out;
}
