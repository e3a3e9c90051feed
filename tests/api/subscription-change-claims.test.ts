// A staff or customer change is claimed, sent to Stripe with no transaction open, then applied (change-runner.ts,
// docs/decisions.md#56): a Stripe call that hangs holds no row lock, a change Stripe did not answer is a 202 that the
// `subscriptions:finish-change` job settles once, and a change Stripe refused changed nothing and may be asked again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STALE_CHANGE_MINUTES } from "../../src/modules/subscriptions/change-runner.js";
import { type TestContext, signInStaff } from "../support/context.js";
import type { StripeStandIn } from "../support/stripe-stand-in.js";
import { closeStripeSite, openStripeSite, stripeSubscription } from "../support/subscriptions.js";

type Agent = Awaited<ReturnType<typeof signInStaff>>["agent"];

describe("plan changes claimed first, Stripe called with no transaction open", () => {
  let ctx: TestContext;
  let stripe: StripeStandIn;
  let staff: Agent;
  beforeAll(async () => {
    ({ ctx, stripe } = await openStripeSite());
    ({ agent: staff } = await signInStaff(ctx));
  });
  afterAll(() => closeStripeSite({ ctx, stripe }));

  const providerIdOf = async (id: number) =>
    (await ctx.db("subscriptions").where({ id }).first()).provider_subscription_id as string;
  const upgrades = (providerId: string) =>
    stripe.apiCalls("POST", `/v1/subscriptions/${providerId}`).filter((r) => r.form["items[0][price]"]);
  const prorations = (id: number) =>
    ctx.db("invoices").where({ subscription_id: id, billing_reason: "subscription_update" });
  const claims = (id: number) => ctx.db("subscription_changes").where({ subscription_id: id }).orderBy("id");

  it("while Stripe holds the upgrade, the subscription's row is not locked; an identical request gets the first's answer", async () => {
    const id = await stripeSubscription(ctx, stripe, "hang@example.com", "basic");
    const providerId = await providerIdOf(id);
    // The Standard price exists already (found again by lookup key): the calls held are the change's own.
    await ctx.container.stripe!.billing.priceFor(await ctx.container.plans.get("standard"), 37000);
    const stall = stripe.stall(`/v1/subscriptions/${providerId}`);
    const send = () =>
      staff
        .post(`/api/subscriptions/${id}/change-plan`)
        .send({ planType: "standard" })
        .then((r) => r);
    const first = send();
    await stall.held(1);
    const second = send();
    // Another transaction takes the row at once (NOWAIT: an error if anyone held it).
    const other = await ctx.db.transaction();
    try {
      const row = await other("subscriptions").where({ id }).forUpdate().noWait().first("id");
      expect(row).toEqual({ id });
    } finally {
      await other.commit();
    }
    stall.release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body).toMatchObject({ planType: "standard" });
    expect(upgrades(providerId)).toHaveLength(1);
    expect(await prorations(id)).toHaveLength(1);
    expect((await claims(id)).map((c) => c.status)).toEqual(["done"]);
  });

  it("Stripe's 500: 202 pending, another change meanwhile is a 409; the job (its clock past the stale mark) applies it once", async () => {
    const id = await stripeSubscription(ctx, stripe, "five-hundred@example.com", "basic");
    const providerId = await providerIdOf(id);
    await ctx.container.stripe!.billing.priceFor(await ctx.container.plans.get("premium"), 79900);
    const before = await ctx.db("subscriptions").where({ id }).first();
    // The change's POST and the SDK's one retry.
    stripe.failing = { path: `/v1/subscriptions/${providerId}`, method: "POST", status: 500, times: 2 };
    const res = await staff.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "premium" });
    stripe.failing = null;
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "pending", subscription: { id, planType: "basic" } });
    expect(res.body.message).toMatch(/pending/);
    expect(await ctx.db("subscriptions").where({ id }).first()).toEqual(before);
    const [claim] = await claims(id);
    expect(claim).toMatchObject({ status: "pending", sending_since: null });
    const other = await staff.post(`/api/subscriptions/${id}/cancel`).send({ when: "period_end" }).expect(409);
    expect(other.body.message).toMatch(/Another change to this plan is in progress/);

    // The job, its clock past the stale mark, reads Stripe back and sends the change again with its key; run twice,
    // it applies it once.
    const stale = new Date(Date.now() + (STALE_CHANGE_MINUTES + 1) * 60_000);
    await ctx.container.subscriptions.finishChange(Number(claim.id), stale);
    await ctx.container.subscriptions.finishChange(Number(claim.id), stale);
    const after = await ctx.db("subscriptions").where({ id }).first();
    expect(after).toMatchObject({ plan_type: "premium" });
    expect((await claims(id)).map((c) => c.status)).toEqual(["done"]);
    expect(await prorations(id)).toHaveLength(1);
    expect(await ctx.db("subscription_events").where({ subscription_id: id, kind: "plan_changed" })).toHaveLength(1);
    // Every try carried the claim's key.
    expect(new Set(upgrades(providerId).map((u) => u.idempotencyKey)).size).toBe(1);
  });

  it("Stripe's 400: 503 'Nothing was changed', the claim failed, and the same request again is made", async () => {
    const id = await stripeSubscription(ctx, stripe, "four-hundred@example.com", "basic");
    const providerId = await providerIdOf(id);
    await ctx.container.stripe!.billing.priceFor(await ctx.container.plans.get("standard"), 37000);
    const before = await ctx.db("subscriptions").where({ id }).first();
    stripe.failing = { path: `/v1/subscriptions/${providerId}`, method: "POST", status: 400, times: 1 };
    const res = await staff.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "standard" });
    stripe.failing = null;
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/Nothing was changed/);
    expect(await ctx.db("subscriptions").where({ id }).first()).toEqual(before);
    expect((await claims(id)).map((c) => c.status)).toEqual(["failed"]);
    const again = await staff.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "standard" }).expect(200);
    expect(again.body).toMatchObject({ planType: "standard" });
    expect((await claims(id)).map((c) => c.status)).toEqual(["done"]);
    expect(await prorations(id)).toHaveLength(1);
  });
});
