import type { Knex } from "knex";
import type { PlanSeed } from "./plans.catalog.js";
import type { Plan, PlanType } from "./plans.schemas.js";

interface PlanRow {
  id: number;
  type: PlanType;
  name: string;
  description: string;
  monthly_price: number;
  checkout_price: number;
  coverage: number;
  features: string[];
  base_features: string;
  most_popular: boolean;
  entitlements: string[];
}

const toPlan = (row: PlanRow): Plan => ({
  id: row.id,
  type: row.type,
  name: row.name,
  description: row.description,
  price: row.monthly_price,
  checkoutPrice: row.checkout_price,
  coverage: row.coverage,
  features: row.features,
  baseFeatures: row.base_features,
  mostPopular: row.most_popular,
  entitlements: row.entitlements,
});

export class PlansRepository {
  constructor(private readonly db: Knex) {}

  async list(): Promise<Plan[]> {
    const rows = await this.db<PlanRow>("plans").orderBy("sort_order").orderBy("id");
    return rows.map(toPlan);
  }

  async findByType(type: PlanType): Promise<Plan | null> {
    const row = await this.db<PlanRow>("plans").where({ type }).first();
    return row ? toPlan(row) : null;
  }

  /** Inserts the plans that are missing; existing rows (and prices set since) are kept. */
  async insertMissing(seeds: PlanSeed[]): Promise<number> {
    const rows = seeds.map((s) => ({
      type: s.type,
      name: s.name,
      description: s.description,
      monthly_price: s.monthlyPrice,
      checkout_price: s.checkoutPrice,
      coverage: s.coverage,
      features: JSON.stringify(s.features),
      base_features: s.baseFeatures,
      most_popular: s.mostPopular,
      entitlements: JSON.stringify(s.entitlements),
      sort_order: s.sortOrder,
    }));
    const inserted = await this.db("plans").insert(rows).onConflict("type").ignore().returning("id");
    return inserted.length;
  }

  async updatePrices(
    type: PlanType,
    prices: { monthly_price?: number; checkout_price?: number },
  ): Promise<Plan | null> {
    const [row] = await this.db<PlanRow>("plans")
      .where({ type })
      .update({ ...prices, updated_at: this.db.fn.now() } as never)
      .returning("*");
    return row ? toPlan(row as PlanRow) : null;
  }
}
