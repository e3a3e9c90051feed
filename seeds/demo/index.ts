// Demo data for a living portal (issue 9 §6): customers, properties, bookings, inspections in every status,
// payments and the monthly subscriptions they bought (issue 19), spread over the last 18 months, in one city
// and three nearby towns. Everything is written through the services' batch methods, so the rules hold
// (entries checked against the template, completed inspections fully scored with the shared scoring, their
// bookings marked completed); the subscriptions and their invoices in bulk SQL by the demo provider's rules.
//
// Deterministic: each property's data comes from a PRNG seeded by (seed, its index), so the same database
// and the same options give the same data. A run appends: indexes start after the properties already there,
// so a second run adds new, different homes and never collides (payment ids are unique per index).
//
// Built as a list of steps run per batch of ~1,000 properties, each batch in one transaction; a step sees what
// earlier steps made. Then `seedDemoExtras` adds, through the services and capped per run (DEMO_EXTRAS_CAP):
// reports for ~80% of the completed inspections, shares with client answers (quote requests in every
// status) and recurring maintenance schedules, some made from recommendations.
import type { Container } from "../../src/container.js";
import type { Tx } from "../../src/db/transaction.js";
import { ACCESS_METHODS } from "../../src/modules/bookings/bookings.constants.js";
import { addDays, todayIn } from "../../src/modules/bookings/business-time.js";
import type { NewProperty, SubscriptionPlan } from "../../src/modules/customers/customers.constants.js";
import type { EntryInput, EntryScore, InspectionStatus } from "../../src/modules/inspections/inspections.schemas.js";
import { INSPECTION_TEMPLATE, type RepeatableRoom, roomSubcategoryName } from "../../src/modules/inspections/template.js";
import type { RecurrenceType, TaskCategory, TaskPriority } from "../../src/modules/maintenance/maintenance.constants.js";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import type { QuoteStatus } from "../../src/modules/quotes/quotes.constants.js";
import { cancellationTakesEffect, minimumTermEnd, period, periodOn } from "../../src/modules/subscriptions/billing-dates.js";
import { DEMO_RENEWAL_DECLINE } from "../../src/modules/subscriptions/demo-billing.js";
import { SERVING_STATUSES } from "../../src/modules/subscriptions/subscriptions.constants.js";
import type { ClientResponseInput } from "../../src/modules/sharing/sharing.schemas.js";

// ---------- deterministic randomness ----------

/** mulberry32: small, fast, good enough for demo data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const between = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const chance = (rng: Rng, p: number) => rng() < p;

// ---------- places and people ----------

interface Town {
  city: string;
  weight: number;
  postal: readonly string[];
  streets: readonly string[];
}

/** Ottawa and three nearby towns; street names as they are written there, accents included. */
export const DEMO_TOWNS: readonly Town[] = [
  {
    city: "Ottawa",
    weight: 0.46,
    postal: ["K1N", "K1S", "K1Y", "K1H", "K2P", "K1R", "K1Z", "K2A", "K1K", "K1G"],
    streets: ["Rideau Street", "Bank Street", "Elgin Street", "Somerset Street West", "Gladstone Avenue", "Carling Avenue", "Fifth Avenue", "Clemow Avenue", "Holland Avenue", "Wellington Street West", "Rue Beausoleil", "Avenue Laurier Est", "Chapel Street", "Fentiman Avenue", "Kirkwood Avenue"],
  },
  {
    city: "Kanata",
    weight: 0.2,
    postal: ["K2K", "K2L", "K2M", "K2T", "K2V", "K2W"],
    streets: ["Hazeldean Road", "Castlefrank Road", "Terry Fox Drive", "Klondike Road", "Stonehaven Drive", "Abbeyhill Drive", "Kakulu Road", "Penfield Drive", "Walden Drive", "Goulbourn Forced Road"],
  },
  {
    city: "Orléans",
    weight: 0.18,
    postal: ["K1C", "K1E", "K1W", "K4A"],
    streets: ["Boulevard Saint-Joseph", "Rue Duford", "Promenade de l'Île", "Chemin Innes", "Rue Jeanne-d'Arc", "Avenue Champlain", "Rue Vaillancourt", "Rue Dussère", "Boulevard Orléans", "Rue Chénier"],
  },
  {
    city: "Barrhaven",
    weight: 0.16,
    postal: ["K2G", "K2J"],
    streets: ["Greenbank Road", "Strandherd Drive", "Longfields Drive", "Jockvale Road", "Fallowfield Road", "Cedarview Road", "Chapman Mills Drive", "Kilbirnie Drive", "Highbury Park Drive"],
  },
];

const FIRST_NAMES = ["Émilie", "François", "Chloé", "Hélène", "Zoë", "Amélie", "Jérôme", "Noémie", "Gaël", "Mathéo", "Liam", "Olivia", "Noah", "Emma", "Aarav", "Priya", "Wei", "Mei", "Mohammed", "Fatima", "Ethan", "Ava", "Lucas", "Sophie", "Benjamin", "Charlotte", "Daniel", "Grace", "Samuel", "Isabelle", "Owen", "Maëlle", "Raphaël", "Jasmine", "Kwame", "Ngozi", "Mateo", "Sofia", "Connor", "Aisling"];
const LAST_NAMES = ["Tremblay", "Gagnon", "Roy", "Côté", "Bouchard", "Gauthier", "Morin", "Lavoie", "Fortin", "Gélinas", "Bélanger", "Lévesque", "Pelletier", "Bergeron", "Smith", "Brown", "Wilson", "MacDonald", "Campbell", "Anderson", "Thompson", "Martin", "Nguyen", "Patel", "Singh", "Chen", "Li", "Wong", "Haddad", "Okafor", "O'Brien", "Murphy", "Kowalski", "Novak", "Ahmed", "Khan", "Fraser", "Sinclair", "St-Pierre", "Ouellette"];

const ascii = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9]+/g, "").toLowerCase();

/** The town whose share of the cumulative weights holds r (0 ≤ r < 1). */
function pickTown(r: number): Town {
  let cumulative = 0;
  for (const town of DEMO_TOWNS) {
    cumulative += town.weight;
    if (r < cumulative) return town;
  }
  return DEMO_TOWNS[0]!;
}

// ---------- what a batch plans ----------

export interface PlannedInspection {
  status: InspectionStatus;
  inspectionDate: string;
  createdAt: Date;
  completedAt: Date | null;
  notes: string | null;
  entries: EntryInput[];
}

export interface PlannedVisit {
  scheduledDate: string;
  timeSlot: string;
  source: "wizard" | "booking-page" | "onboarding";
  accessMethod: string | null;
  accessCode: string | null;
  bookingStatus: "scheduled" | "completed";
  bookingCreatedAt: Date;
  inspection: PlannedInspection | null;
}

export interface PlannedProperty {
  /** The property's index across all demo runs: its PRNG seed and its unique payment id. */
  index: number;
  createdAt: Date;
  customer: { name: string; email: string; phone: string; subscriptionPlan: SubscriptionPlan };
  property: NewProperty;
  visits: PlannedVisit[];
}

/** One batch: what it planned, then the ids each step wrote (filled in as the steps run). */
export interface DemoBatch {
  tx: Tx;
  planned: PlannedProperty[];
  customerIds: number[];
  propertyIds: number[];
  /** Per property, per visit: the booking id. */
  bookingIds: number[][];
  /** Every inspection written in this batch. */
  inspections: { id: number; propertyId: number; status: InspectionStatus; bookingId: number | null }[];
  payments: number;
  /** The subscriptions written in this batch, by their demo state. */
  subscriptions: Record<DemoSubscriptionKind, number>;
  invoices: number;
}

export interface DemoRun {
  container: Container;
  now: Date;
  seed: number;
  /** Active staff users, the inspectors of the demo inspections (none: inspectorId stays null). */
  inspectorIds: number[];
}

/** A step of the demo seed: runs once per batch, inside the batch's transaction. */
export interface DemoStep {
  name: string;
  run(batch: DemoBatch, run: DemoRun): Promise<void>;
}

// ---------- planning (pure: rng in, data out) ----------

const DAY = 86_400_000;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const atUtc = (date: string, hour: number, minute = 0) => new Date(`${date}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00Z`);

const CLADDING = ["Vinyl siding", "Brick veneer", "Fibre cement board", "Stucco", "Aluminium siding", "Wood clapboard", "Stone veneer and vinyl"];

/** Findings an inspector would write, by subcategory; a generic line for the others. */
const FINDINGS: Record<string, { poor: string[]; fair: string[] }> = {
  "Foundation Cracks": { poor: ["Active vertical crack, 6 mm, NE corner with efflorescence", "Stair-step cracking in block wall behind the furnace"], fair: ["Hairline shrinkage cracks, monitor yearly"] },
  "Basement Moisture / Mold": { poor: ["Mould growth on drywall behind the laundry, 1.5 m²", "Standing water at the floor drain after rain"], fair: ["Minor dampness on the north wall in spring"] },
  "Hot Water System": { poor: ["Tank is 17 years old and weeping at the base", "No expansion tank; relief valve discharges to floor"], fair: ["Tank at 11 years: plan a replacement"] },
  "Sump Pump": { poor: ["Pump seized; no backup. Replace before the spring thaw"], fair: ["Check valve noisy, discharge close to the foundation"] },
  Shingles: { poor: ["Curling and missing shingles on the south slope", "Granule loss exposing the mat; roof at end of life"], fair: ["Some granule loss, 5–7 years left"] },
  Gutters: { poor: ["Gutters overflowing; downspout disconnected at the rear"], fair: ["Gutters need cleaning; add leaf guards"] },
  Flashings: { poor: ["Chimney flashing lifted; staining in the attic below"], fair: ["Reseal step flashing at the dormer"] },
  "Main Panel": { poor: ["Double-tapped breakers and scorch marks on the bus bar", "Federal Pacific panel: replace"], fair: ["Panel near capacity; label the circuits"] },
  "Smoke / CO Detectors": { poor: ["No CO detector near the bedrooms; smoke alarms past 10 years"], fair: ["Replace batteries; one detector chirping"] },
  "Grading and Drainage": { poor: ["Negative grading at the rear; water pools against the foundation"], fair: ["Extend downspouts 2 m from the wall"] },
  Insulation: { poor: ["Attic insulation R-12 and compressed; top up to R-50"], fair: ["Insulation uneven near the hatch"] },
  Ventilation: { poor: ["Bathroom fan vents into the attic"], fair: ["Fan is noisy; clean the grille"] },
  "Caulking / Sealants": { poor: ["Failed caulking at the windows on the west wall"], fair: ["Recaulk the exterior door frames"] },
  "Dryer Ventilation": { poor: ["Foil duct crushed behind the dryer: fire risk"], fair: ["Clean the lint from the exterior hood"] },
  Waterproofing: { poor: ["Grout failing in the shower; soft drywall behind the tiles"], fair: ["Reseal the tub surround"] },
  "Leaks / Water Damage": { poor: ["Active leak at the vanity trap; cabinet floor swollen"], fair: ["Old stain on the ceiling below, dry today"] },
  "Heating Source": { poor: ["Furnace 24 years old; cracked heat exchanger suspected"], fair: ["Furnace serviced over 2 years ago"] },
  "Filter Cleaning": { poor: ["Filter clogged; airflow restricted"], fair: ["Replace the filter every 3 months"] },
  "Stair Treads / Risers": { poor: ["Loose basement stair tread; no handrail"], fair: ["Tighten the handrail brackets"] },
  "Windows / Screens": { poor: ["Failed seals, fogging in 4 windows"], fair: ["Torn screens in two bedrooms"] },
  "Decks / Steps": { poor: ["Rotted deck joists at the ledger; keep off until repaired"], fair: ["Deck boards need sealing"] },
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
  if (score === 4) return chance(rng, 0.75) ? (known ? pick(rng, [...known.poor, ...known.fair]) : `${base}: wear beyond normal, repair this season`) : null;
  if (score === 7) return chance(rng, 0.12) ? (known ? pick(rng, known.fair) : `${base}: serviceable, minor wear`) : null;
  return null;
}

/** Every entry of a home, in template order; `share` < 1 keeps only the first part (an inspection under way). */
function planEntries(rng: Rng, quality: number, rooms: Record<RepeatableRoom, number>, options: { share: number; complete: boolean; coolingNone: boolean; garageNone: boolean }): EntryInput[] {
  const entries: EntryInput[] = [];
  for (const category of INSPECTION_TEMPLATE) {
    const count = category.repeatable ? rooms[category.repeatable] : 1;
    for (let n = 1; n <= count; n++) {
      for (const [sub, weight] of Object.entries(category.subcategories)) {
        const subcategoryName = roomSubcategoryName(category, sub, n);
        if (weight === 0) {
          entries.push({ categoryName: category.name, subcategoryName, score: null, notes: pick(rng, CLADDING), urgent: false });
          continue;
        }
        const absent = (sub === "Cooling System" && options.coolingNone) || (sub === "Overhead Doors" && options.garageNone) || chance(rng, OFTEN_ABSENT[sub] ?? 0);
        if (absent) continue;
        const score = entryScore(rng, quality);
        const notes = finding(rng, subcategoryName, score);
        entries.push({ categoryName: category.name, subcategoryName, score, notes, urgent: score === 1 ? chance(rng, 0.6) : score === 4 && chance(rng, 0.04) });
      }
    }
  }
  if (options.complete) return entries;
  const kept = entries.slice(0, Math.floor(entries.length * options.share));
  // Under way: a few items carry a note but no score yet.
  return kept.map((e) => (e.score !== null && chance(rng, 0.06) ? { ...e, score: null, notes: e.notes ?? "Come back to this one: access blocked" } : e));
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

const WIZARD_SLOTS = ["9:00 AM", "10:30 AM", "12:00 PM", "1:30 PM", "3:00 PM"];
const PAGE_SLOTS = ["morning", "afternoon", "evening"];

/** Forces the first four homes of a run into each open status, so even a tiny run shows every one. */
const FORCED: (InspectionStatus | null)[] = ["completed", "in_progress", "scheduled", "draft"];

export function planProperty(index: number, seed: number, now: Date, runPosition: number): PlannedProperty {
  const rng = prng((seed * 1_000_003 + index * 7919) >>> 0);
  const town = pickTown(rng());
  const first = pick(rng, FIRST_NAMES);
  const last = pick(rng, LAST_NAMES);
  const name = `${first} ${last}`;
  const plan: SubscriptionPlan = pick(rng, ["free-score", "basic", "standard", "standard", "premium", "premium", "standard", "free-score"] as const);
  const postalCode = `${pick(rng, town.postal)} ${between(rng, 1, 9)}${String.fromCharCode(65 + between(rng, 0, 25))}${between(rng, 0, 9)}`.replace(/[DFIOQU](\d)$/, "A$1");
  const yearBuilt = between(rng, 1925, 2021);
  const propertyType = pick(rng, ["single-family", "single-family", "single-family", "townhouse", "townhouse", "condo", "duplex"] as const);
  const bathrooms = pick(rng, ["1", "1.5", "2", "2.5", "2.5", "3", "3.5"] as const);
  const coolingType = yearBuilt < 1960 && chance(rng, 0.4) ? "none" : pick(rng, ["central-ac", "central-ac", "mini-split", "window-units"] as const);
  const garageType = propertyType === "condo" ? "none" : pick(rng, ["none", "single", "double", "double", "detached"] as const);
  const property: NewProperty = {
    address: `${between(rng, 2, 2400)} ${pick(rng, town.streets)}`,
    city: town.city,
    province: "ON",
    postalCode,
    propertyType,
    squareFootage: propertyType === "condo" ? between(rng, 650, 1400) : between(rng, 1100, 4200),
    yearBuilt,
    bedrooms: pick(rng, ["2", "3", "3", "4", "4", "5"] as const),
    bathrooms,
    stories: propertyType === "condo" ? "1" : pick(rng, ["1", "1.5", "2", "2", "2.5"] as const),
    hvacUnits: pick(rng, ["1", "1", "2"] as const),
    electricalPanels: pick(rng, ["1", "1", "2"] as const),
    roofType: propertyType === "condo" ? "flat" : pick(rng, ["asphalt-shingle", "asphalt-shingle", "asphalt-shingle", "metal"] as const),
    heatingType: pick(rng, ["gas", "gas", "gas", "electric", "heat-pump", "oil"] as const),
    coolingType,
    waterHeaterType: pick(rng, ["gas-tank", "electric-tank", "gas-tankless"] as const),
    foundationType: pick(rng, ["Poured concrete", "Concrete block", "Stone and mortar", "Slab on grade"]),
    garageType,
    basementStatus: pick(rng, ["finished", "partially-finished", "unfinished", "walkout", "crawlspace"] as const),
    ownershipType: pick(rng, ["owner", "owner", "owner", "landlord"] as const),
    occupation: pick(rng, ["professional", "manager", "tradesperson", "entrepreneur", "retired"] as const),
    householdIncome: pick(rng, ["50k-100k", "100k-150k", "150k-200k", "200k-300k"] as const),
    householdSize: pick(rng, ["1", "2", "3", "4", "5+"] as const),
  };

  // Created somewhere in the last 18 months (at least 2 days ago).
  let createdAt = new Date(now.getTime() - between(rng, 2 * 24, 548 * 24) * 3_600_000 - between(rng, 0, 59) * 60_000);
  const today = isoDate(now);
  const quality = rng();
  const rooms: Record<RepeatableRoom, number> = {
    Kitchen: chance(rng, 0.2) ? 2 : 1,
    Bathroom: Math.min(3, Math.max(1, Math.floor(Number.parseFloat(bathrooms)))),
    Laundry: chance(rng, 0.08) ? 2 : 1,
  };
  const forced = runPosition < FORCED.length ? FORCED[runPosition] : null;

  const visits: PlannedVisit[] = [];
  let bookedAt = createdAt;
  let visitQuality = quality;
  for (let v = 0; v < 2; v++) {
    let date = new Date(bookedAt.getTime() + between(rng, 4, 21) * DAY);
    if (forced && v === 0) {
      // In progress and draft: a visit in the last week; scheduled: in the coming weeks; completed: a month ago.
      const offset = forced === "scheduled" ? between(rng, 3, 20) : forced === "completed" ? -between(rng, 25, 60) : -between(rng, 0, 6);
      date = new Date(now.getTime() + offset * DAY);
      bookedAt = new Date(Math.min(bookedAt.getTime(), date.getTime() - 5 * DAY));
      createdAt = new Date(Math.min(createdAt.getTime(), bookedAt.getTime() - DAY));
    }
    const scheduledDate = isoDate(date);
    const source = pick(rng, ["wizard", "wizard", "booking-page", "onboarding"] as const);
    const accessMethod = source === "wizard" ? pick(rng, ACCESS_METHODS) : null;
    const past = scheduledDate <= today;
    const daysAgo = Math.floor((now.getTime() - date.getTime()) / DAY);
    let status: InspectionStatus | null;
    if (forced && v === 0) status = forced;
    else if (!past) status = chance(rng, 0.4) ? "scheduled" : null;
    else if (daysAgo > 14) status = "completed";
    else status = pick(rng, ["completed", "completed", "in_progress", "in_progress", "draft"] as const);

    let inspection: PlannedInspection | null = null;
    if (status) {
      const complete = status === "completed";
      const share = status === "in_progress" ? 0.2 + rng() * 0.6 : status === "draft" ? rng() * 0.08 : 0;
      const entries = status === "scheduled" ? [] : planEntries(rng, visitQuality, rooms, { share, complete, coolingNone: coolingType === "none", garageNone: garageType === "none" });
      const startedAt = status === "scheduled" ? new Date(Math.min(now.getTime() - 60_000, bookedAt.getTime() + DAY)) : atUtc(scheduledDate, 13, between(rng, 0, 59));
      inspection = {
        status,
        inspectionDate: scheduledDate,
        createdAt: new Date(Math.min(startedAt.getTime(), now.getTime() - 60_000)),
        completedAt: complete ? new Date(Math.min(atUtc(scheduledDate, 16, between(rng, 0, 59)).getTime(), now.getTime() - 30_000)) : null,
        notes: complete ? pick(rng, INSPECTION_NOTES) : null,
        entries,
      };
    }
    visits.push({
      scheduledDate,
      timeSlot: source === "wizard" ? pick(rng, WIZARD_SLOTS) : pick(rng, PAGE_SLOTS),
      source,
      accessMethod,
      accessCode: accessMethod === "lockbox" || accessMethod === "smart-lock" ? String(between(rng, 1000, 9999)) : null,
      bookingStatus: status === "completed" ? "completed" : "scheduled",
      bookingCreatedAt: bookedAt,
      inspection,
    });
    // About a third of homes inspected over 7 months ago came back for a second inspection ~6 months later.
    const returnDate = new Date(date.getTime() + between(rng, 170, 200) * DAY);
    if (status !== "completed" || returnDate.getTime() > now.getTime() + 20 * DAY || !chance(rng, 0.35)) break;
    bookedAt = new Date(returnDate.getTime() - between(rng, 5, 20) * DAY);
    visitQuality = Math.min(1, Math.max(0, visitQuality + (rng() - 0.35) * 0.3));
  }

  const emailName = `${ascii(first)}.${ascii(last)}`;
  return {
    index,
    createdAt,
    customer: { name, email: `${emailName}.${index}@example.com`, phone: `${pick(rng, ["613", "343"])}-555-${String(between(rng, 100, 199)).padStart(4, "0")}`, subscriptionPlan: plan },
    property,
    visits,
  };
}

// ---------- the steps ----------

const customersStep: DemoStep = {
  name: "customers and properties",
  async run(batch, { container }) {
    const ids = await container.customers.importMany(
      batch.planned.map((p) => ({ customer: p.customer, property: p.property, createdAt: p.createdAt })),
      batch.tx,
    );
    batch.customerIds = ids.map((i) => i.customerId);
    batch.propertyIds = ids.map((i) => i.propertyId);
  },
};

const bookingsStep: DemoStep = {
  name: "inspection bookings",
  async run(batch, { container }) {
    const rows = batch.planned.flatMap((p, i) =>
      p.visits.map((v) => ({
        propertyId: batch.propertyIds[i]!,
        customerId: batch.customerIds[i]!,
        scheduledDate: v.scheduledDate,
        timeSlot: v.timeSlot,
        accessMethod: v.accessMethod,
        accessCode: v.accessCode,
        source: v.source,
        // Booked as scheduled; completing its inspection (next step) marks it completed.
        status: "scheduled" as const,
        createdAt: v.bookingCreatedAt,
      })),
    );
    const ids = await container.bookings.importMany(rows, batch.tx);
    let k = 0;
    batch.bookingIds = batch.planned.map((p) => p.visits.map(() => ids[k++]!));
  },
};

const inspectionsStep: DemoStep = {
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
    batch.inspections = items.map((item, k) => ({ id: ids[k]!, propertyId: item.propertyId, status: item.status, bookingId: item.bookingId }));
  },
};

const paymentsStep: DemoStep = {
  name: "payments",
  async run(batch, { container }) {
    const paid = batch.planned.filter((p) => p.customer.subscriptionPlan !== "free-score");
    batch.payments = await container.payments.importDemoPayments(
      paid.map((p) => ({
        providerId: `pi_demo_seed_${p.index}`,
        planType: p.customer.subscriptionPlan as PlanType,
        customerEmail: p.customer.email,
        customerName: p.customer.name,
        createdAt: new Date(p.createdAt.getTime() - 20 * 60_000),
      })),
      batch.tx,
    );
  },
};

// ---------- subscriptions (issue 19) ----------
//
// Every paid purchase is a monthly demo subscription (decision 24) billed since the purchase: one invoice per
// period up to today's, paid at the period's start. The purchase's payment row is linked to it
// (payments.subscription_id), so Total Revenue counts the invoices and never the payment too. Written in bulk
// (a few statements per batch); the invoice ids are the demo provider's (demo_in_<subscription>_<period start>),
// so `haven subscriptions renew` carries on from here and never bills a seeded period twice.

export type DemoSubscriptionKind = "active" | "past_due" | "cancel_scheduled" | "canceled";

/**
 * The state of the paid homes of a batch, by their rank among them: mostly active; in every 50 paid homes two past
 * due (their card, 4000 0000 0000 0341, failed this period's renewal), one with a cancellation scheduled and one
 * canceled. A 40-home run shows a couple past due and one of each of the others.
 */
export function demoSubscriptionKind(rank: number, periodsBilled: number): DemoSubscriptionKind {
  const slot = rank % 50;
  // Past due needs a renewal: the first invoice always pays.
  if ((slot === 1 || slot === 7) && periodsBilled > 1) return "past_due";
  if (slot === 3) return "cancel_scheduled";
  if (slot === 5) return "canceled";
  return "active";
}

const REASONS = ["Selling the house in the spring", "Moving out of the area", "Budget: will come back next year"];
const DECLINED_CARD = "0341";

interface PlannedSubscription {
  kind: DemoSubscriptionKind;
  row: Record<string, unknown>;
  /** Invoices for periods 0..lastPeriod; the last one open (declined) when past due. */
  lastPeriod: number;
  lastOpen: boolean;
  events: { kind: string; actor: string; at: Date; fromPlan?: string | null; toPlan?: string | null; detail?: Record<string, unknown> }[];
}

/** One paid home's subscription, from its purchase to `now` (pure). */
function planSubscription(p: PlannedProperty, rank: number, ids: { customerId: number; propertyId: number }, amountCents: number, now: Date, timeZone: string): PlannedSubscription {
  const startedAt = new Date(p.createdAt.getTime() - 20 * 60_000);
  const anchor = todayIn(timeZone, startedAt);
  const current = periodOn(anchor, todayIn(timeZone, now), timeZone).index;
  const kind = demoSubscriptionKind(rank, current + 1);
  const minimumTermEndsAt = minimumTermEnd(anchor, timeZone);
  const planType = p.customer.subscriptionPlan as PlanType;
  const events: PlannedSubscription["events"] = [{ kind: "created", actor: "customer", at: startedAt, toPlan: planType, detail: { status: "active" } }];
  let lastPeriod = current;
  let status = "active";
  let cancelAt: Date | null = null;
  let canceledAt: Date | null = null;
  let reason: string | null = null;
  if (kind === "past_due") {
    status = "past_due";
    events.push({ kind: "payment_failed", actor: "system", at: period(anchor, current, timeZone).start, detail: { from: "active", to: "past_due" } });
  } else if (kind === "cancel_scheduled") {
    // Asked two days ago (or right after the purchase): decision 25 says when it takes effect.
    const askedAt = new Date(Math.max(startedAt.getTime() + 3_600_000, now.getTime() - 2 * DAY));
    cancelAt = cancellationTakesEffect({ now: askedAt, minimumTermEndsAt, currentPeriodEnd: period(anchor, current, timeZone).end });
    reason = REASONS[p.index % REASONS.length]!;
    events.push({ kind: "cancel_scheduled", actor: "customer", at: askedAt, detail: { cancelAt: cancelAt.toISOString(), reason } });
  } else if (kind === "canceled") {
    status = "canceled";
    reason = REASONS[(p.index + 1) % REASONS.length]!;
    if (current >= 3) {
      // Canceled after the minimum term: it took effect at the end of the last paid period.
      lastPeriod = current - 1;
      canceledAt = period(anchor, lastPeriod, timeZone).end;
      events.push({ kind: "cancel_scheduled", actor: "customer", at: new Date(canceledAt.getTime() - 10 * DAY), detail: { cancelAt: canceledAt.toISOString(), reason } });
    } else {
      // Within the minimum term only staff end one at once (a duplicate purchase, say).
      canceledAt = new Date(Math.max(startedAt.getTime() + 3_600_000, now.getTime() - 2 * DAY));
      reason = "Duplicate purchase";
    }
    cancelAt = canceledAt;
    events.push({ kind: "canceled", actor: "system", at: canceledAt, detail: { status: "canceled", reason } });
  }
  const periodNow = period(anchor, lastPeriod, timeZone);
  return {
    kind,
    lastPeriod,
    lastOpen: kind === "past_due",
    events,
    row: {
      customer_id: ids.customerId,
      property_id: ids.propertyId,
      plan_type: planType,
      provider: "demo",
      provider_subscription_id: `demo_sub_seed_${p.index}`,
      // The seeded payment of the purchase (pi_demo_seed_<index>) is this subscription's checkout.
      checkout_ref: `pi_demo_seed_${p.index}`,
      status,
      monthly_amount_cents: amountCents,
      currency: "cad",
      payer_email: p.customer.email,
      payer_name: p.customer.name,
      started_at: startedAt,
      billing_anchor: anchor,
      current_period_start: periodNow.start,
      current_period_end: periodNow.end,
      minimum_term_ends_at: minimumTermEndsAt,
      cancel_at: cancelAt,
      canceled_at: canceledAt,
      cancellation_reason: reason,
      card_last4: kind === "past_due" ? DECLINED_CARD : "4242",
      card_fails_renewals: kind === "past_due",
      last_payment_error: kind === "past_due" ? DEMO_RENEWAL_DECLINE : null,
      created_at: startedAt,
      updated_at: canceledAt ?? now,
    },
  };
}

const subscriptionsStep: DemoStep = {
  name: "subscriptions",
  async run(batch, { container, now }) {
    const { tx } = batch;
    const timeZone = container.env.BUSINESS_TZ;
    // The purchase path of the seeded payments (/checkout) bills its own reading of the price every month (decision 23).
    const prices = new Map((await container.plans.list()).map((plan) => [plan.type, plan.checkoutPrice * 100]));
    let rank = 0;
    const planned = batch.planned.flatMap((p, i) => {
      if (p.customer.subscriptionPlan === "free-score") return [];
      const ids = { customerId: batch.customerIds[i]!, propertyId: batch.propertyIds[i]! };
      return [planSubscription(p, rank++, ids, prices.get(p.customer.subscriptionPlan as PlanType)!, now, timeZone)];
    });
    if (!planned.length) return;
    const inserted: { id: number; provider_subscription_id: string }[] = await tx("subscriptions").insert(planned.map((s) => s.row)).returning(["id", "provider_subscription_id"]);
    const idOf = new Map(inserted.map((r) => [r.provider_subscription_id, r.id]));
    const subIds = planned.map((s) => idOf.get(s.row.provider_subscription_id as string)!);
    // Periods 0..last of each, computed in SQL by the same month-end rule as billing-dates.ts (anchor + n months, at midnight in the zone).
    const invoices = await tx.raw(
      `insert into invoices (subscription_id, provider, provider_invoice_id, amount_cents, currency, period_start, period_end, status,
                             billing_reason, paid_at, failure_reason, attempt_count, created_at, updated_at)
       select s.id, 'demo', 'demo_in_' || s.id || '_' || to_char(s.billing_anchor + g * interval '1 month', 'YYYY-MM-DD'),
              s.monthly_amount_cents, 'cad',
              (s.billing_anchor + g * interval '1 month') at time zone ?, (s.billing_anchor + (g + 1) * interval '1 month') at time zone ?,
              case when v.last_open and g = v.last then 'open' else 'paid' end,
              case when g = 0 then 'subscription_create' else 'subscription_cycle' end,
              case when v.last_open and g = v.last then null when g = 0 then s.started_at else (s.billing_anchor + g * interval '1 month') at time zone ? end,
              case when v.last_open and g = v.last then ? end, 1,
              greatest(s.started_at, (s.billing_anchor + g * interval '1 month') at time zone ?), now()
         from unnest(?::int[], ?::int[], ?::boolean[]) as v(sid, last, last_open)
         join subscriptions s on s.id = v.sid
         cross join lateral generate_series(0, v.last) g`,
      [timeZone, timeZone, timeZone, DEMO_RENEWAL_DECLINE, timeZone, subIds, planned.map((s) => s.lastPeriod), planned.map((s) => s.lastOpen)],
    );
    await tx("subscription_events").insert(
      planned.flatMap((s, k) =>
        s.events.map((e) => ({
          subscription_id: subIds[k],
          kind: e.kind,
          actor: e.actor,
          from_plan: e.fromPlan ?? null,
          to_plan: e.toPlan ?? null,
          detail: e.detail ? JSON.stringify(e.detail) : null,
          created_at: e.at,
        })),
      ),
    );
    // The purchase's payment is the first invoice's: revenue counts the invoice alone.
    await tx.raw(
      `update payments p set subscription_id = s.id from subscriptions s
        where s.id = any(?::int[]) and p.provider = 'demo' and p.provider_id = s.checkout_ref and p.subscription_id is null`,
      [subIds],
    );
    // A canceled plan leaves the home on the free score, as the service does when one ends.
    const ended = planned.flatMap((s) => (s.kind === "canceled" ? [s.row.property_id as number] : []));
    if (ended.length) await tx("properties").whereIn("id", ended).update({ subscription_plan: "free-score" });
    // The plan services of each serving subscription become schedules on its home (decision 26).
    const today = todayIn(timeZone, now);
    for (const [k, s] of planned.entries()) {
      if (!SERVING_STATUSES.includes(s.row.status as string)) continue;
      await container.planServices.sync(tx, { id: subIds[k]!, propertyId: s.row.property_id as number, planType: s.row.plan_type as PlanType, status: s.row.status as string, anchor: s.row.billing_anchor as string }, today);
    }
    for (const s of planned) batch.subscriptions[s.kind]++;
    batch.invoices += invoices.rowCount ?? 0;
  },
};

/** The steps, in order. Other modules append theirs (reports, shares, quotes, maintenance). */
export const DEMO_STEPS: DemoStep[] = [customersStep, bookingsStep, inspectionsStep, paymentsStep, subscriptionsStep];

// ---------- after the batches: reports, shares, quote requests, schedules ----------
//
// These go through the services' ordinary methods (reports.generate, sharing.share / clientReport / respond,
// quotes.update, maintenance.createSchedule), which open their own transactions and read committed rows:
// so they run once the batches have committed, on this run's homes only (a second run never touches the
// first run's data). Capped per run, so `--properties 100000` stays practical.

/** The most each run adds, however many homes it seeds. */
export const DEMO_EXTRAS_CAP = { reports: 300, shares: 40, schedules: 150, recurringRecommendations: 20 } as const;

/** What the batches leave for the extras: this run's homes and completed inspections, by property index. */
export interface SeededHome {
  index: number;
  propertyId: number;
  clientEmail: string;
  propertyType: NewProperty["propertyType"];
  completedInspectionIds: number[];
}

export interface DemoExtrasResult {
  reports: number;
  recommendationTasks: number;
  shares: number;
  quoteRequests: Record<QuoteStatus, number>;
  schedules: number;
  scheduledTasks: number;
}

interface ScheduleTemplate {
  title: string;
  description: string;
  category: TaskCategory;
  priority: TaskPriority;
  recurrenceType: RecurrenceType;
  estimatedDuration: number;
  /** Houses only: a condo has no gutters, roof or driveway of its own. */
  housesOnly?: boolean;
  /** Winter only: starts with the first week of December (or now, in a winter month). */
  winter?: boolean;
}

const SCHEDULE_TEMPLATES: readonly ScheduleTemplate[] = [
  { title: "Furnace filter replacement", description: "Swap the 16×25×1 pleated filter; note the pressure drop.", category: "hvac", priority: "medium", recurrenceType: "monthly", estimatedDuration: 20 },
  { title: "Gutter cleaning", description: "Clear gutters and downspouts, check the extensions drain 1.5 m from the foundation.", category: "exterior", priority: "medium", recurrenceType: "quarterly", estimatedDuration: 90, housesOnly: true },
  { title: "Snow removal", description: "Driveway, walkway and steps; salt the landing. Winter service.", category: "landscaping", priority: "high", recurrenceType: "weekly", estimatedDuration: 45, housesOnly: true, winter: true },
  { title: "Annual roof check", description: "Shingles, flashing, vents and the attic's underside after the freeze-thaw season.", category: "roofing", priority: "medium", recurrenceType: "annually", estimatedDuration: 120, housesOnly: true },
  { title: "Smoke and CO alarm test", description: "Test every alarm, replace batteries twice a year, log the dates.", category: "safety", priority: "high", recurrenceType: "monthly", estimatedDuration: 15 },
  { title: "Sump pump check", description: "Pour water into the pit, confirm the float starts the pump and the check valve holds.", category: "plumbing", priority: "medium", recurrenceType: "quarterly", estimatedDuration: 30, housesOnly: true },
  { title: "Dryer vent cleaning", description: "Brush the duct to the exterior hood; lint build-up is a fire risk.", category: "cleaning", priority: "low", recurrenceType: "annually", estimatedDuration: 60 },
];

const QUOTE_AMOUNTS = ["$450", "$275", "$1,250", "$800-1,200", "$3,400", "$180", "$625.50", "$2,150"];
const ADMIN_NOTES = [
  "Parts and labour; one visit, about two hours.",
  "Subcontracted to Rideau Roofing; price held 30 days.",
  "Includes disposal of the old unit.",
  "Estimate from photos: confirm on site before work starts.",
];
const CLIENT_NOTES = ["Weekday mornings work best for us.", "Could you bundle this with the other items?", "Please call before coming; the dog is home.", null, null];
/** The status each quote request ends in, in turn, so a handful of them already shows every status. */
const QUOTE_STATUS_CYCLE: readonly QuoteStatus[] = ["pending", "quoted", "accepted", "declined", "completed", "quoted", "pending", "accepted"];
/** The staff moves from pending to each status (staff-side §4). */
const MOVES_TO: Record<QuoteStatus, readonly QuoteStatus[]> = {
  pending: [],
  quoted: ["quoted"],
  accepted: ["quoted", "accepted"],
  declined: ["declined"],
  completed: ["quoted", "accepted", "completed"],
};

const emptyExtras = (): DemoExtrasResult => ({ reports: 0, recommendationTasks: 0, shares: 0, quoteRequests: { pending: 0, quoted: 0, accepted: 0, declined: 0, completed: 0 }, schedules: 0, scheduledTasks: 0 });

/** A committed batch's homes, for the extras. */
function seededHomes(batch: DemoBatch): SeededHome[] {
  const completed = new Map<number, number[]>();
  for (const x of batch.inspections) if (x.status === "completed") completed.set(x.propertyId, [...(completed.get(x.propertyId) ?? []), x.id]);
  return batch.propertyIds.map((propertyId, i) => ({
    index: batch.planned[i]!.index,
    propertyId,
    clientEmail: batch.planned[i]!.customer.email,
    propertyType: batch.planned[i]!.property.propertyType,
    completedInspectionIds: completed.get(propertyId) ?? [],
  }));
}

/** Reports, shares, client responses, quote moves and maintenance schedules for this run's homes. */
export async function seedDemoExtras(container: Container, homes: SeededHome[], run: Pick<DemoRun, "now" | "seed">): Promise<DemoExtrasResult> {
  const result = emptyExtras();
  const ordered = [...homes].sort((a, b) => a.index - b.index);
  const rngOf = (home: SeededHome, salt: number) => prng((run.seed * 1_000_003 + home.index * 7919 + salt * 104_729) >>> 0);
  const today = container.maintenance.today(run.now);

  // Reports for about 80% of the completed inspections (the reports service also makes the recommendation tasks).
  const reports: { home: SeededHome; reportId: number; taskIds: number[] }[] = [];
  for (const home of ordered) {
    const rng = rngOf(home, 1);
    for (const inspectionId of home.completedInspectionIds) {
      if (reports.length >= DEMO_EXTRAS_CAP.reports || !chance(rng, 0.8)) continue;
      const report = await container.reports.generate(inspectionId);
      const taskIds = ((report.reportData.recommendations ?? []) as { id: number }[]).map((r) => Number(r.id));
      reports.push({ home, reportId: report.id, taskIds });
      result.recommendationTasks += taskIds.length;
    }
  }
  result.reports = reports.length;

  // Shares of about a third of the reports, spread over the list. Of those links a quarter stays unopened,
  // a quarter is opened only, and half get the client's answers (claimed with a binding, as a browser would).
  const origin = (container.env.PUBLIC_URL ?? `http://localhost:${container.env.PORT}`).replace(/\/+$/, "");
  const withItems = reports.filter((r) => r.taskIds.length > 0);
  const shareCount = Math.min(DEMO_EXTRAS_CAP.shares, withItems.length, Math.max(6, Math.round(withItems.length / 3)));
  const shared = new Set<number>();
  let quoteSlot = 0;
  for (let k = 0; k < shareCount; k++) {
    const target = withItems[Math.floor((k * withItems.length) / shareCount)]!;
    shared.add(target.reportId);
    // No e-mail: the demo clients are made up, and the links are for clicking around the portal.
    const { reportLink } = await container.sharing.share(target.reportId, target.home.clientEmail, origin, { sendEmail: false });
    result.shares++;
    if (k % 4 === 0) continue;
    const token = reportLink.slice(reportLink.lastIndexOf("/") + 1);
    const opened = await container.sharing.clientReport(token, []);
    if ("gone" in opened || !opened.binding || k % 4 === 1) continue;
    const rng = rngOf(target.home, 2 + k);
    // A client asks for quotes on a few of the first (highest-priority) items and passes on the rest.
    const responses: ClientResponseInput[] = target.taskIds.map((maintenanceTaskId, i) =>
      i === 0 || (i < 8 && chance(rng, 0.6)) ? { maintenanceTaskId, action: "request_quote", notes: pick(rng, CLIENT_NOTES) } : { maintenanceTaskId, action: "ignore", notes: null },
    );
    await container.sharing.respond(token, [opened.binding], responses);
    const { rows } = await container.quotes.list({ limit: 500, offset: 0, propertyId: target.home.propertyId });
    for (const quote of [...rows].sort((a, b) => a.id - b.id)) {
      if (quote.status !== "pending") continue;
      const status = QUOTE_STATUS_CYCLE[quoteSlot++ % QUOTE_STATUS_CYCLE.length]!;
      for (const move of MOVES_TO[status]) {
        await container.quotes.update(
          quote.id,
          move === "quoted" ? { status: move, quotedAmount: pick(rng, QUOTE_AMOUNTS), adminNotes: pick(rng, ADMIN_NOTES) } : { status: move },
        );
      }
      result.quoteRequests[status]++;
    }
  }

  // Recurring care for about a quarter of the homes, expanded to the default horizon by createSchedule.
  const scheduledHomes = ordered.filter((home) => chance(rngOf(home, 3), 0.25) || home === ordered[0]);
  for (const home of scheduledHomes) {
    if (result.schedules >= DEMO_EXTRAS_CAP.schedules) break;
    const rng = rngOf(home, 4);
    const fits = SCHEDULE_TEMPLATES.filter((t) => !t.housesOnly || home.propertyType !== "condo");
    const count = Math.min(fits.length, between(rng, 1, 3));
    const chosen = new Set<ScheduleTemplate>();
    // The first home shows the whole year's round: furnace, gutters, snow and roof.
    if (home === ordered[0]) for (const t of fits.slice(0, 4)) chosen.add(t);
    while (chosen.size < count) chosen.add(pick(rng, fits));
    for (const template of chosen) {
      if (result.schedules >= DEMO_EXTRAS_CAP.schedules) break;
      const { housesOnly: _h, winter, ...fields } = template;
      const month = Number(today.slice(5, 7));
      // Winter care starts in the first week of December, or now when it is winter already.
      const startDate = winter && month >= 4 && month <= 11 ? `${today.slice(0, 4)}-12-0${between(rng, 1, 7)}` : addDays(today, between(rng, -40, 14));
      const schedule = await container.maintenance.createSchedule({ ...fields, propertyId: home.propertyId, recurrenceInterval: 1, startDate }, run.now);
      result.schedules++;
      result.scheduledTasks += schedule.tasksCreated;
    }
  }

  // A few recommendations (of reports no client has seen) made recurring from a date this month: the
  // recommendation task becomes scheduled and its first visit sits on the calendar next to the bookings.
  const lastOfMonth = addDays(`${addDays(`${today.slice(0, 7)}-28`, 4).slice(0, 7)}-01`, -1);
  const daysLeft = Math.round((Date.parse(lastOfMonth) - Date.parse(today)) / DAY);
  let recurring = 0;
  for (const report of reports) {
    if (recurring >= Math.min(DEMO_EXTRAS_CAP.recurringRecommendations, Math.max(3, Math.round(reports.length / 6)))) break;
    if (shared.has(report.reportId) || !report.taskIds.length) continue;
    const rng = rngOf(report.home, 5);
    const fromTaskId = pick(rng, report.taskIds);
    const schedule = await container.maintenance.createSchedule({ fromTaskId, recurrenceType: "annually", startDate: addDays(today, between(rng, 0, daysLeft)) }, run.now);
    recurring++;
    result.schedules++;
    result.scheduledTasks += schedule.tasksCreated;
  }
  return result;
}

// ---------- running ----------

export interface SeedDemoOptions {
  /** How many properties to add (default 40). */
  properties?: number;
  /** Properties per transaction (default 1,000). */
  batchSize?: number;
  /** PRNG seed (default 2026). */
  seed?: number;
  /** "Now" for the 18-month spread (default: the clock); fixed in tests for the same data every time. */
  now?: Date;
  onProgress?: (progress: { done: number; total: number }) => void;
  steps?: DemoStep[];
  /** Reports, shares, quote requests and schedules after the batches (default true). */
  extras?: boolean;
  /** Batches written at the same time, each in its own transaction (default 2). */
  concurrency?: number;
}

export interface SeedDemoResult {
  properties: number;
  customers: number;
  bookings: number;
  inspections: Record<InspectionStatus, number>;
  payments: number;
  /** Demo subscriptions by state, and their invoices (issue 19). */
  subscriptions: Record<DemoSubscriptionKind, number> & { invoices: number };
  extras: DemoExtrasResult;
}

const noSubscriptions = (): Record<DemoSubscriptionKind, number> => ({ active: 0, past_due: 0, cancel_scheduled: 0, canceled: 0 });

/** Adds demo data through the services, in batches of one transaction each. */
export async function seedDemo(container: Container, options: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const total = options.properties ?? 40;
  if (!Number.isInteger(total) || total < 0) throw new Error("properties must be a whole number of 0 or more");
  const batchSize = options.batchSize ?? 1000;
  const seed = options.seed ?? 2026;
  const now = options.now ?? new Date();
  const steps = options.steps ?? DEMO_STEPS;
  // Payments need the plans' prices.
  await container.plans.seed();
  const users = await container.users.list();
  const run: DemoRun = { container, now, seed, inspectorIds: users.filter((u) => !u.disabled).map((u) => u.id) };
  // Indexes continue after the homes already there, so a second run adds new ones.
  const [{ count }] = (await container.db("properties").count({ count: "*" })) as [{ count: number | string }];
  const start = Number(count);

  const result: SeedDemoResult = { properties: 0, customers: 0, bookings: 0, inspections: { scheduled: 0, in_progress: 0, completed: 0, draft: 0 }, payments: 0, subscriptions: { ...noSubscriptions(), invoices: 0 }, extras: emptyExtras() };
  const homes: SeededHome[] = [];
  options.onProgress?.({ done: 0, total });
  // Two batches at a time: one plans and scores in Node while Postgres writes the other. Each property's data
  // depends only on its index, so the data is the same whichever batch commits first.
  const offsets = Array.from({ length: Math.ceil(total / batchSize) }, (_, k) => k * batchSize);
  let done = 0;
  const worker = async () => {
    for (let offset = offsets.shift(); offset !== undefined; offset = offsets.shift()) {
      const size = Math.min(batchSize, total - offset);
      const planned = Array.from({ length: size }, (_, k) => planProperty(start + offset + k, seed, now, offset + k));
      await container.transaction(async (tx) => {
        const batch: DemoBatch = { tx, planned, customerIds: [], propertyIds: [], bookingIds: [], inspections: [], payments: 0, subscriptions: noSubscriptions(), invoices: 0 };
        for (const step of steps) await step.run(batch, run);
        result.properties += batch.propertyIds.length;
        result.customers += batch.customerIds.length;
        result.bookings += batch.bookingIds.reduce((sum, ids) => sum + ids.length, 0);
        for (const i of batch.inspections) result.inspections[i.status]++;
        result.payments += batch.payments;
        for (const [kind, n] of Object.entries(batch.subscriptions)) result.subscriptions[kind as DemoSubscriptionKind] += n;
        result.subscriptions.invoices += batch.invoices;
        homes.push(...seededHomes(batch));
      });
      done += size;
      options.onProgress?.({ done, total });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 2, offsets.length) }, worker));
  if (options.extras !== false) result.extras = await seedDemoExtras(container, homes, run);
  return result;
}
