import { z } from "zod";

// Imported by islands too: nothing from the server here.
export const PLAN_TYPES = ["basic", "standard", "premium"] as const;
export const planTypeSchema = z.enum(PLAN_TYPES, { message: "Plan must be one of basic, standard, premium" });
export type PlanType = z.infer<typeof planTypeSchema>;

/** Every value a property's subscriptionPlan may hold; others display as Unknown. */
export const SUBSCRIPTION_PLANS = ["free-score", "basic", "standard", "premium"] as const;

export const priceSchema = z.coerce
  .number({ message: "Price must be a number" })
  .int("Price must be a whole number of dollars")
  .positive("Price must be greater than 0")
  .max(100000, "Price must be at most 100000");

export interface Plan {
  id: number;
  type: PlanType;
  name: string;
  description: string;
  /** Pricing-page reading of the monthly price. */
  price: number;
  /** Payment-page reading: what checkout charges. */
  checkoutPrice: number;
  coverage: number;
  features: string[];
  baseFeatures: string;
  mostPopular: boolean;
  entitlements: string[];
}
