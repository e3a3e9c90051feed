import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN_SEEDS } from "../../src/modules/plans/index.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("plans", () => {
  it("seeding twice changes nothing", async () => {
    expect(await ctx.container.plans.seed()).toBe(3);
    const first = await ctx.db("plans").orderBy("id");
    expect(await ctx.container.plans.seed()).toBe(0);
    expect(await ctx.db("plans").orderBy("id")).toEqual(first);
  });

  it("GET /api/plans lists both price readings, coverage and the Most Popular flag", async () => {
    const res = await ctx.agent().get("/api/plans").expect(200);
    expect(res.body.map((p: { type: string }) => p.type)).toEqual(["basic", "standard", "premium"]);
    expect(res.body.map((p: { price: number }) => p.price)).toEqual([149, 370, 799]);
    expect(res.body.map((p: { checkoutPrice: number }) => p.checkoutPrice)).toEqual([194, 412, 889]);
    expect(res.body.map((p: { coverage: number }) => p.coverage)).toEqual([40, 60, 100]);
    expect(
      res.body.filter((p: { mostPopular: boolean }) => p.mostPopular).map((p: { type: string }) => p.type),
    ).toEqual(["standard"]);
    const standard = res.body[1];
    expect(standard).toMatchObject({ name: "Standard", baseFeatures: expect.any(String), features: expect.any(Array) });
  });

  it("entitlements follow customer-side §6", async () => {
    const byType = Object.fromEntries(PLAN_SEEDS.map((p) => [p.type, new Set(p.entitlements)]));
    for (const type of ["basic", "standard", "premium"]) {
      for (const e of ["health-report", "concierge-line", "repairs-coordination"])
        expect(byType[type]?.has(e as never)).toBe(true);
    }
    for (const e of ["window-cleaning", "hvac-maintenance", "gutter-cleaning"]) {
      expect(byType.basic?.has(e as never)).toBe(false);
      expect(byType.standard?.has(e as never)).toBe(true);
      expect(byType.premium?.has(e as never)).toBe(true);
    }
    for (const e of ["lawn-maintenance", "snow-removal", "vacation-prep", "absentee-care"]) {
      expect(byType.standard?.has(e as never)).toBe(false);
      expect(byType.premium?.has(e as never)).toBe(true);
    }
  });

  it("set-price changes one reading and a later seed keeps it", async () => {
    const plan = await ctx.container.plans.setPrice("basic", { checkout: 199 });
    expect(plan).toMatchObject({ price: 149, checkoutPrice: 199 });
    await ctx.container.plans.seed();
    expect((await ctx.container.plans.get("basic")).checkoutPrice).toBe(199);
  });

  it("set-price refuses a call with no price", async () => {
    await expect(ctx.container.plans.setPrice("basic", {})).rejects.toMatchObject({ status: 400 });
  });
});
