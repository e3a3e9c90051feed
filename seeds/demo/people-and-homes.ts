// People and homes: each demo customer, their home's details and its history (planned from the home's own
// generator, so a home's data depends on its index alone), and the batch step that writes them.
import type { NewProperty, SubscriptionPlan } from "../../src/modules/customers/customers.constants.js";
import type { RepeatableRoom } from "../../src/modules/inspections/index.js";
import { planVisits } from "./bookings.js";
import type { DemoStep, PlannedProperty } from "./model.js";
import { FIRST_NAMES, LAST_NAMES, ascii, pickTown } from "./places.js";
import { type Rng, between, chance, homeRng, pick } from "./random.js";

/** The owner's name and plan, and the home: the first draws of the home's generator. */
function planHome(rng: Rng) {
  const town = pickTown(rng());
  const first = pick(rng, FIRST_NAMES);
  const last = pick(rng, LAST_NAMES);
  const plan: SubscriptionPlan = pick(rng, [
    "free-score",
    "basic",
    "standard",
    "standard",
    "premium",
    "premium",
    "standard",
    "free-score",
  ] as const);
  const postalCode =
    `${pick(rng, town.postal)} ${between(rng, 1, 9)}${String.fromCharCode(65 + between(rng, 0, 25))}${between(rng, 0, 9)}`.replace(
      /[DFIOQU](\d)$/,
      "A$1",
    );
  const yearBuilt = between(rng, 1925, 2021);
  const propertyType = pick(rng, [
    "single-family",
    "single-family",
    "single-family",
    "townhouse",
    "townhouse",
    "condo",
    "duplex",
  ] as const);
  const bathrooms = pick(rng, ["1", "1.5", "2", "2.5", "2.5", "3", "3.5"] as const);
  const coolingType =
    yearBuilt < 1960 && chance(rng, 0.4)
      ? "none"
      : pick(rng, ["central-ac", "central-ac", "mini-split", "window-units"] as const);
  const garageType =
    propertyType === "condo" ? "none" : pick(rng, ["none", "single", "double", "double", "detached"] as const);
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
    roofType:
      propertyType === "condo"
        ? "flat"
        : pick(rng, ["asphalt-shingle", "asphalt-shingle", "asphalt-shingle", "metal"] as const),
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
  return { first, last, plan, property, bathrooms };
}

const INTAKE_NOTES = [
  "Side door is easiest. Small dog.",
  "Please park on the street; the driveway is being redone.",
  "Attic hatch is in the bedroom closet.",
  "Cat indoors, please keep the doors closed.",
  "Basement stairs are steep; there is a light switch at the top.",
];

export function planProperty(index: number, seed: number, now: Date, runPosition: number): PlannedProperty {
  const rng = homeRng(seed, index);
  const { first, last, plan, property, bathrooms } = planHome(rng);
  // Created somewhere in the last 18 months (at least 2 days ago).
  const signedUpAt = new Date(
    now.getTime() - between(rng, 2 * 24, 548 * 24) * 3_600_000 - between(rng, 0, 59) * 60_000,
  );
  const quality = rng();
  const rooms: Record<RepeatableRoom, number> = {
    Kitchen: chance(rng, 0.2) ? 2 : 1,
    Bathroom: Math.min(3, Math.max(1, Math.floor(Number.parseFloat(bathrooms)))),
    Laundry: chance(rng, 0.08) ? 2 : 1,
  };
  const home = {
    createdAt: signedUpAt,
    quality,
    rooms,
    coolingNone: property.coolingType === "none",
    garageNone: property.garageType === "none",
  };
  const { visits, createdAt } = planVisits(rng, home, runPosition, now);
  // What some homeowners type into "Notes for your inspector" at intake (My Day shows it); chosen by the index, not
  // the generator, so every other figure of the demo stays as it was.
  if (index % 3 === 0) property.notes = INTAKE_NOTES[(index / 3) % INTAKE_NOTES.length]!;

  const emailName = `${ascii(first)}.${ascii(last)}`;
  return {
    index,
    createdAt,
    customer: {
      name: `${first} ${last}`,
      email: `${emailName}.${index}@example.com`,
      phone: `${pick(rng, ["613", "343"])}-555-${String(between(rng, 100, 199)).padStart(4, "0")}`,
      subscriptionPlan: plan,
    },
    property,
    visits,
  };
}

export const customersStep: DemoStep = {
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
