import { z } from "zod";
import { apiCalls, idNumber } from "../../http/openapi.kit.js";
import { type Plan, planTypeSchema } from "./plans.schemas.js";

// OpenAPI entries of plans.routes.ts; see docs/api.md.

const plan: z.ZodType<Plan> = z
  .object({
    id: idNumber,
    type: planTypeSchema,
    name: z.string(),
    description: z.string(),
    price: z.number().meta({ description: "Pricing-page reading of the monthly price (dollars)" }),
    checkoutPrice: z.number().meta({ description: "What checkout charges (dollars)" }),
    coverage: z.number(),
    features: z.array(z.string()),
    baseFeatures: z.string(),
    mostPopular: z.boolean(),
    entitlements: z.array(z.string()),
  })
  .meta({ id: "Plan" });

export const plansCalls = apiCalls([
  {
    method: "get",
    path: "/api/plans",
    summary: "The plans on sale",
    tags: ["Plans"],
    access: "public",
    responses: { 200: z.array(plan) },
  },
]);
