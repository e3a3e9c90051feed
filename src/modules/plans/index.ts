// The plans module's interface for other modules, the CLI and the seeds (README "Interface for other modules").
export { PlansService } from "./plans.service.js";
export { plansApi, type PlansRoutesDeps } from "./plans.routes.js";
export {
  ENTITLEMENTS,
  type Entitlement,
  PLAN_SEEDS,
  type PlanSeed,
  PLAN_SERVICES,
  type PlanServiceCadence,
  type PlanServiceDefinition,
  planServiceByKey,
  planServicesOf,
} from "./plans.catalog.js";
export {
  PLAN_TYPES,
  SUBSCRIPTION_PLANS,
  type Plan,
  type PlanType,
  planTypeSchema,
  priceSchema,
} from "./plans.schemas.js";
