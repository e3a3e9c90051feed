import { NotFoundError, ValidationError } from "../../http/errors.js";
import { PLAN_SEEDS } from "./plans.catalog.js";
import type { PlansRepository } from "./plans.repository.js";
import type { Plan, PlanType } from "./plans.schemas.js";

export class PlansService {
  constructor(private readonly plans: PlansRepository) {}

  list(): Promise<Plan[]> {
    return this.plans.list();
  }

  async get(type: PlanType): Promise<Plan> {
    const plan = await this.plans.findByType(type);
    if (!plan) throw new NotFoundError(`Plan ${type} not found`);
    return plan;
  }

  /** Safe to run again: only missing plans are inserted. Returns how many were added. */
  seed(): Promise<number> {
    return this.plans.insertMissing(PLAN_SEEDS);
  }

  async setPrice(type: PlanType, prices: { monthly?: number; checkout?: number }): Promise<Plan> {
    if (prices.monthly === undefined && prices.checkout === undefined) {
      throw new ValidationError("Give a monthly price, a checkout price, or both (--monthly, --checkout)");
    }
    const updated = await this.plans.updatePrices(type, {
      ...(prices.monthly !== undefined && { monthly_price: prices.monthly }),
      ...(prices.checkout !== undefined && { checkout_price: prices.checkout }),
    });
    if (!updated) throw new NotFoundError(`Plan ${type} not found: run 'haven plans seed' first`);
    return updated;
  }
}
