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

/** The seeded plans: both price readings of customer-side §9 (DESIGN.md decision 3). */
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
