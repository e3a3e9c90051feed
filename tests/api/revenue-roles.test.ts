// Revenue figures are the owner's (docs/decisions.md#36): Total Revenue and MRR, in every page and call, for each
// role. The office keeps the other figures; an inspector sees none of billing.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffRole } from "../../src/http/roles.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
const agents = {} as Record<StaffRole, ReturnType<TestContext["agent"]>>;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
  // Two plans (an MRR no single row shows) and a one-time payment: revenue the owner sees.
  for (const [i, planType] of (["premium", "standard"] as const).entries())
    await ctx.container.subscriptions.startDemo({
      checkoutRef: `demo_cs_revenue_${i}`,
      planType,
      amountCents: planType === "premium" ? 14900 : 7900,
      payerEmail: `payer${i}@example.com`,
      payerName: "Pat Payer",
      cardNumber: "4242424242424242",
    });
  await ctx.db("payments").insert({
    provider: "demo",
    provider_id: "pi_revenue",
    kind: "payment_intent",
    amount_cents: 4321,
    status: "succeeded",
  });
  for (const role of ["owner", "office", "inspector"] as const) {
    const agent = ctx.agent();
    const email = `${role}-${randomBytes(3).toString("hex")}@haven.test`;
    const password = "correct horse battery";
    await ctx.container.users.create({ email, password, firstName: "Rita", lastName: "Revenue", role });
    await agent.post("/api/auth/login").send({ email, password }).expect(200);
    agents[role] = agent;
  }
});
afterAll(() => ctx.close());

describe("revenue figures by role", () => {
  it("GET /api/dashboard/stats: the owner gets totalRevenue, the office null (the spec's field kept), an inspector 403", async () => {
    const owner = (await agents.owner.get("/api/dashboard/stats").expect(200)).body;
    expect(owner.totalRevenue).toBeGreaterThan(43.21);
    const office = (await agents.office.get("/api/dashboard/stats").expect(200)).body;
    expect(office).toEqual({ ...owner, totalRevenue: null });
    await agents.inspector.get("/api/dashboard/stats").expect(403);
  });

  it("GET /api/subscriptions/metrics (MRR) is the owner's only", async () => {
    const metrics = (await agents.owner.get("/api/subscriptions/metrics").expect(200)).body;
    expect(metrics.mrr).toBe(228);
    await agents.office.get("/api/subscriptions/metrics").expect(403);
    await agents.inspector.get("/api/subscriptions/metrics").expect(403);
  });

  it("/admin: the Total Revenue card for the owner only; the other three for everyone", async () => {
    const revenue = (await agents.owner.get("/api/dashboard/stats").expect(200)).body.totalRevenue as number;
    const shown = `$${revenue.toLocaleString("en-CA", { maximumFractionDigits: 0 })}`;
    const owner = (await agents.owner.get("/admin").expect(200)).text;
    expect(owner).toContain('data-stat="totalRevenue"');
    expect(owner).toContain(shown);
    for (const role of ["office", "inspector"] as const) {
      const html = (await agents[role].get("/admin").expect(200)).text;
      expect(html).not.toContain("Total Revenue");
      expect(html).not.toContain('data-stat="totalRevenue"');
      expect(html).not.toContain(shown);
      for (const key of ["totalProperties", "pendingInspections", "completedThisMonth"])
        expect(html).toContain(`data-stat="${key}"`);
    }
  });

  it("/admin/subscriptions: MRR for the owner only; the office sees the counts; an inspector is refused", async () => {
    const owner = (await agents.owner.get("/admin/subscriptions").expect(200)).text;
    expect(owner).toContain('data-stat="mrr"');
    expect(owner).toContain("$228");
    const office = (await agents.office.get("/admin/subscriptions").expect(200)).text;
    expect(office).not.toContain('data-stat="mrr"');
    expect(office).not.toContain(">MRR<");
    expect(office).not.toContain("$228");
    for (const key of ["active", "pastDue", "canceledThisMonth"]) expect(office).toContain(`data-stat="${key}"`);
    await agents.inspector.get("/admin/subscriptions").expect(403);
  });
});
