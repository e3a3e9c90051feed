import type { PlanType } from "./plans.schemas.js";

/** Every service a plan can include (customer-side §6). */
export const ENTITLEMENTS = {
  "health-report": "Haven Health Report",
  "concierge-line": "Concierge line",
  "repairs-coordination": "Repairs coordination",
  "window-cleaning": "Window cleaning",
  "hvac-maintenance": "HVAC maintenance",
  "gutter-cleaning": "Gutter cleaning",
  "lawn-maintenance": "Lawn maintenance",
  "snow-removal": "Snow removal",
  "vacation-prep": "Vacation prep",
  "absentee-care": "Absentee care",
} as const;

export type Entitlement = keyof typeof ENTITLEMENTS;

const ALL_PLANS: Entitlement[] = ["health-report", "concierge-line", "repairs-coordination"];
const STANDARD_UP: Entitlement[] = ["window-cleaning", "hvac-maintenance", "gutter-cleaning"];
const PREMIUM_ONLY: Entitlement[] = ["lawn-maintenance", "snow-removal", "vacation-prep", "absentee-care"];

export interface PlanSeed {
  type: PlanType;
  name: string;
  description: string;
  monthlyPrice: number;
  checkoutPrice: number;
  coverage: number;
  features: string[];
  baseFeatures: string;
  mostPopular: boolean;
  entitlements: Entitlement[];
  sortOrder: number;
}

const labels = (keys: Entitlement[]) => keys.map((k) => ENTITLEMENTS[k]);

/** The seeded plans: both price readings of customer-side §9 (docs/decisions.md#3). */
export const PLAN_SEEDS: PlanSeed[] = [
  {
    type: "basic",
    name: "Basic",
    description: "Know your home and get help when something needs fixing.",
    monthlyPrice: 149,
    checkoutPrice: 194,
    coverage: 40,
    features: labels(ALL_PLANS),
    baseFeatures: "114-point inspection with your Property Health Score",
    mostPopular: false,
    entitlements: ALL_PLANS,
    sortOrder: 1,
  },
  {
    type: "standard",
    name: "Standard",
    description: "Seasonal upkeep handled for you, on top of the essentials.",
    monthlyPrice: 370,
    checkoutPrice: 412,
    coverage: 60,
    features: labels([...ALL_PLANS, ...STANDARD_UP]),
    baseFeatures: "Everything in Basic, plus seasonal maintenance",
    mostPopular: true,
    entitlements: [...ALL_PLANS, ...STANDARD_UP],
    sortOrder: 2,
  },
  {
    type: "premium",
    name: "Premium",
    description: "Complete care for your home, whether you are there or away.",
    monthlyPrice: 799,
    checkoutPrice: 889,
    coverage: 100,
    features: labels([...ALL_PLANS, ...STANDARD_UP, ...PREMIUM_ONLY]),
    baseFeatures: "Everything in Standard, plus year-round estate care",
    mostPopular: false,
    entitlements: [...ALL_PLANS, ...STANDARD_UP, ...PREMIUM_ONLY],
    sortOrder: 3,
  },
];

/**
 * How a plan service is delivered (docs/decisions.md#26):
 * - `rrule`: a recurring schedule, an RFC 5545 RRULE whose DTSTART is the first visit, on or after the
 *   subscription's start; the seasonal windows are its BYMONTH;
 * - `annual-inspection`: the health report, one inspection-due task a year, a year after the last completed
 *   inspection (two weeks after the start when the home has none);
 * - `on-request`: no schedule; staff or the homeowner request a dated task.
 */
export type PlanServiceCadence = "rrule" | "annual-inspection" | "on-request";

export interface PlanServiceDefinition {
  /** The schedule's `plan_service`: the entitlement, or `entitlement/part` when it has two schedules. */
  key: string;
  entitlement: Entitlement;
  /** The schedule's and its tasks' title. */
  title: string;
  cadence: PlanServiceCadence;
  /** The RRULE (without DTSTART) for `rrule` and `annual-inspection` cadences. */
  rrule: string | null;
  /** A maintenance task category (maintenance.constants TASK_CATEGORIES). */
  category: "hvac" | "exterior" | "landscaping" | "cleaning" | "safety" | "other";
  estimatedDuration: number | null;
}

/**
 * What each entitlement delivers, in BUSINESS_TZ dates. The days are picked to read well: the 15th for the
 * twice-a-year visits (window cleaning May 15 and Oct 15, gutters Jun 15 and Nov 15), the 1st for HVAC
 * (air conditioning May 1, furnace Sep 1), the 1st of each month for absentee care; lawn care every other
 * week May–October and snow removal weekly December–March fall on the weekday of the first visit (the
 * subscription's start).
 */
export const PLAN_SERVICES: readonly PlanServiceDefinition[] = [
  {
    key: "health-report",
    entitlement: "health-report",
    title: "Annual home inspection due",
    cadence: "annual-inspection",
    rrule: "FREQ=YEARLY",
    category: "other",
    estimatedDuration: 180,
  },
  {
    key: "concierge-line",
    entitlement: "concierge-line",
    title: ENTITLEMENTS["concierge-line"],
    cadence: "on-request",
    rrule: null,
    category: "other",
    estimatedDuration: null,
  },
  {
    key: "repairs-coordination",
    entitlement: "repairs-coordination",
    title: ENTITLEMENTS["repairs-coordination"],
    cadence: "on-request",
    rrule: null,
    category: "other",
    estimatedDuration: null,
  },
  {
    key: "window-cleaning",
    entitlement: "window-cleaning",
    title: ENTITLEMENTS["window-cleaning"],
    cadence: "rrule",
    rrule: "FREQ=YEARLY;BYMONTH=5,10;BYMONTHDAY=15",
    category: "cleaning",
    estimatedDuration: 180,
  },
  {
    key: "hvac-maintenance/air-conditioning",
    entitlement: "hvac-maintenance",
    title: "HVAC maintenance: air conditioning",
    cadence: "rrule",
    rrule: "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=1",
    category: "hvac",
    estimatedDuration: 90,
  },
  {
    key: "hvac-maintenance/furnace",
    entitlement: "hvac-maintenance",
    title: "HVAC maintenance: furnace",
    cadence: "rrule",
    rrule: "FREQ=YEARLY;BYMONTH=9;BYMONTHDAY=1",
    category: "hvac",
    estimatedDuration: 90,
  },
  {
    key: "gutter-cleaning",
    entitlement: "gutter-cleaning",
    title: ENTITLEMENTS["gutter-cleaning"],
    cadence: "rrule",
    rrule: "FREQ=YEARLY;BYMONTH=6,11;BYMONTHDAY=15",
    category: "exterior",
    estimatedDuration: 120,
  },
  {
    key: "lawn-maintenance",
    entitlement: "lawn-maintenance",
    title: ENTITLEMENTS["lawn-maintenance"],
    cadence: "rrule",
    rrule: "FREQ=WEEKLY;INTERVAL=2;BYMONTH=5,6,7,8,9,10",
    category: "landscaping",
    estimatedDuration: 60,
  },
  {
    key: "snow-removal",
    entitlement: "snow-removal",
    title: ENTITLEMENTS["snow-removal"],
    cadence: "rrule",
    rrule: "FREQ=WEEKLY;BYMONTH=12,1,2,3",
    category: "exterior",
    estimatedDuration: 60,
  },
  {
    key: "vacation-prep",
    entitlement: "vacation-prep",
    title: ENTITLEMENTS["vacation-prep"],
    cadence: "on-request",
    rrule: null,
    category: "other",
    estimatedDuration: null,
  },
  {
    key: "absentee-care",
    entitlement: "absentee-care",
    title: "Absentee care: home check",
    cadence: "rrule",
    rrule: "FREQ=MONTHLY;BYMONTHDAY=1",
    category: "safety",
    estimatedDuration: 45,
  },
];

/** The plan services of a plan, in catalog order. */
export function planServicesOf(planType: PlanType): PlanServiceDefinition[] {
  const plan = PLAN_SEEDS.find((p) => p.type === planType);
  return plan ? PLAN_SERVICES.filter((s) => plan.entitlements.includes(s.entitlement)) : [];
}

export const planServiceByKey = (key: string) => PLAN_SERVICES.find((s) => s.key === key) ?? null;
