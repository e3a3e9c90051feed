// Staff calls and pages of subscriptions: every call needs a staff session, bad
// input is a 400 naming the field and writes nothing, the list pages and filters, the figures, and cancel /
// resume / change-plan through the demo provider. The pages: the list, one subscription and its forms, the
// dashboard's past-due banner, the properties page's badge and the property dialog's subscription section.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import type { Subscription } from "../../src/modules/subscriptions/subscriptions.constants.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

const TZ = "America/Toronto";
const AMOUNTS: Record<PlanType, number> = { basic: 14900, standard: 37000, premium: 79900 };
const DAY = 24 * 60 * 60 * 1000;

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
let seq = 0;

/** A paid demo purchase attached to a new customer and property, as intake does. */
async function buy(
  planType: PlanType,
  name: string,
  address: string,
  options: { card?: string; startedAt?: Date } = {},
) {
  seq++;
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.com`;
  const checkoutRef = `demo_cs_test_${seq}_${Date.now()}`;
  const sub = await ctx.container.subscriptions.startDemo(
    {
      checkoutRef,
      planType,
      amountCents: AMOUNTS[planType],
      payerEmail: email,
      payerName: name,
      cardNumber: options.card ?? "4242424242424242",
    },
    options.startedAt ?? new Date(),
  );
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name, phone: "613-555-0100", subscriptionPlan: planType },
    { address, city: "Ottawa", province: "ON", postalCode: "K1N 5W8", squareFootage: 1800, yearBuilt: 1990 },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(checkoutRef, { customerId: customer.id, propertyId: property.id }, tx),
  );
  return { sub: await ctx.container.subscriptions.get(sub.id), customer, property };
}

const counts = async () => ({
  events: Number((await ctx.db("subscription_events").count({ n: "*" }).first())!.n),
  invoices: Number((await ctx.db("invoices").count({ n: "*" }).first())!.n),
  versions: (await ctx.db("subscriptions").select("id", "version").orderBy("id"))
    .map((r) => `${r.id}:${r.version}`)
    .join(","),
  tasks: Number((await ctx.db("maintenance_tasks").count({ n: "*" }).first())!.n),
});

let active: Awaited<ReturnType<typeof buy>>;
let pastDue: Awaited<ReturnType<typeof buy>>;
let ended: Awaited<ReturnType<typeof buy>>;

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
  active = await buy("standard", "Avery Tremblay", "12 Elgin Street");
  // Started 40 days ago on the card whose renewals fail: the renewal due since leaves it past due.
  pastDue = await buy("premium", "Blake Okafor", "88 Bank Street", {
    card: "4000000000000341",
    startedAt: new Date(Date.now() - 40 * DAY),
  });
  await ctx.container.subscriptions.renewDue(new Date());
  ended = await buy("basic", "Casey Nguyen", "5 Laurier Avenue");
  await ctx.container.subscriptions.cancel(ended.sub.id, { when: "now", reason: "Sold the house", actor: "cli" });
});
afterAll(() => ctx?.close());

describe("staff subscription calls", () => {
  it("every call needs a staff session", async () => {
    const anon = ctx.agent();
    const id = active.sub.id;
    await anon.get("/api/subscriptions").expect(401);
    await anon.get("/api/subscriptions/metrics").expect(401);
    await anon.get(`/api/subscriptions/${id}`).expect(401);
    await anon.post(`/api/subscriptions/${id}/cancel`).send({ when: "period_end", reason: "x" }).expect(401);
    await anon.post(`/api/subscriptions/${id}/resume`).expect(401);
    await anon.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "premium" }).expect(401);
    await anon
      .post(`/api/subscriptions/${id}/service-requests`)
      .send({ service: "vacation-prep", date: "2030-01-01" })
      .expect(401);
    expect((await ctx.container.subscriptions.get(id)).cancelAt).toBeNull();
  });

  it("lists newest first with X-Total-Count, pages, filters by Stripe's status and the plan, and searches", async () => {
    const all = await staff.agent.get("/api/subscriptions").expect(200);
    expect(all.headers["x-total-count"]).toBe("3");
    expect(all.body.map((s: Subscription) => s.id)).toEqual([ended.sub.id, pastDue.sub.id, active.sub.id]);
    for (const key of [
      "id",
      "customerId",
      "propertyId",
      "planType",
      "status",
      "provider",
      "startedAt",
      "currentPeriodStart",
      "currentPeriodEnd",
      "minimumTermEndsAt",
      "cancelAt",
      "canceledAt",
      "monthlyAmount",
    ]) {
      expect(all.body[0]).toHaveProperty(key);
    }
    const page = await staff.agent.get("/api/subscriptions?limit=1&offset=1").expect(200);
    expect(page.headers["x-total-count"]).toBe("3");
    expect(page.body.map((s: Subscription) => s.id)).toEqual([pastDue.sub.id]);
    const late = await staff.agent.get("/api/subscriptions?status=past_due").expect(200);
    expect(late.headers["x-total-count"]).toBe("1");
    expect(late.body[0]).toMatchObject({ id: pastDue.sub.id, status: "past_due", planType: "premium" });
    expect(
      (await staff.agent.get("/api/subscriptions?plan=basic").expect(200)).body.map((s: Subscription) => s.id),
    ).toEqual([ended.sub.id]);
    expect(
      (await staff.agent.get("/api/subscriptions?status=active&plan=premium").expect(200)).headers["x-total-count"],
    ).toBe("0");
    expect((await staff.agent.get("/api/subscriptions?status=&plan=").expect(200)).headers["x-total-count"]).toBe("3");
    // Search: the customer's name, e-mail and the property's address.
    expect(
      (await staff.agent.get("/api/subscriptions").query({ q: "okafor" }).expect(200)).body.map(
        (s: Subscription) => s.id,
      ),
    ).toEqual([pastDue.sub.id]);
    expect(
      (await staff.agent.get("/api/subscriptions").query({ q: "AVERY.TREMBLAY@" }).expect(200)).body.map(
        (s: Subscription) => s.id,
      ),
    ).toEqual([active.sub.id]);
    expect(
      (await staff.agent.get("/api/subscriptions").query({ q: "laurier" }).expect(200)).body.map(
        (s: Subscription) => s.id,
      ),
    ).toEqual([ended.sub.id]);
    expect(
      (await staff.agent.get("/api/subscriptions").query({ q: "nobody here" }).expect(200)).headers["x-total-count"],
    ).toBe("0");
  });

  it("refuses bad list input with a 400 naming the field", async () => {
    for (const [query, field] of [
      ["status=late", "status"],
      ["status=ACTIVE", "status"],
      ["plan=gold", "plan"],
      ["limit=0", "limit"],
      ["limit=501", "limit"],
      ["offset=-1", "offset"],
      ["offset=abc", "offset"],
    ] as const) {
      const res = await staff.agent.get(`/api/subscriptions?${query}`).expect(400);
      expect(Object.keys(res.body.fields)).toContain(field);
    }
    const res = await staff.agent.get("/api/subscriptions?status=late").expect(400);
    expect(res.body.fields.status).toMatch(/past_due/);
  });

  it("GET /api/subscriptions/{id}: the subscription with its invoices, events and plan services; 404 unknown; 400 bad id", async () => {
    const res = await staff.agent.get(`/api/subscriptions/${pastDue.sub.id}`).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(["events", "invoices", "priceList", "services", "subscription"]);
    expect(res.body.priceList).toBe("pricing");
    expect(res.body.subscription).toMatchObject({
      id: pastDue.sub.id,
      status: "past_due",
      planType: "premium",
      propertyId: pastDue.property.id,
      customerId: pastDue.customer.id,
    });
    expect(res.body.invoices.map((i: { status: string }) => i.status)).toEqual(["open", "paid"]);
    expect(res.body.events.map((e: { kind: string }) => e.kind)).toContain("payment_failed");
    // Past due: its plan visits are held, and say so.
    expect(res.body.services.length).toBeGreaterThan(0);
    expect(
      res.body.services
        .filter((svc: { onRequest: boolean }) => !svc.onRequest)
        .every((svc: { held: boolean }) => svc.held),
    ).toBe(true);
    await staff.agent.get("/api/subscriptions/999999").expect(404);
    for (const bad of ["0x2c", "044", "0", "abc"])
      expect((await staff.agent.get(`/api/subscriptions/${bad}`).expect(400)).body.fields).toHaveProperty("id");
  });

  it("metrics: MRR in dollars of active and past-due plans, the counts, and this month's cancellations", async () => {
    const res = await staff.agent.get("/api/subscriptions/metrics").expect(200);
    expect(res.body).toEqual({ mrr: 370 + 799, active: 1, pastDue: 1, canceledThisMonth: 1 });
  });

  it("cancel: bad input writes nothing; before the minimum it takes effect when the minimum ends; resume undoes it; now ends it", async () => {
    const id = active.sub.id;
    const before = await counts();
    for (const [payload, field] of [
      [{}, "when"],
      [{ when: "tomorrow" }, "when"],
      [{ when: "period_end", reason: "a".repeat(1001) }, "reason"],
      [{ when: "period_end", reason: "bad\u0000byte" }, "reason"],
      [{ when: "period_end", reason: 42 }, "reason"],
    ] as const) {
      const res = await staff.agent.post(`/api/subscriptions/${id}/cancel`).send(payload).expect(400);
      expect(Object.keys(res.body.fields)).toContain(field);
    }
    await staff.agent.post("/api/subscriptions/999999/cancel").send({ when: "period_end" }).expect(404);
    expect(await counts()).toEqual(before);

    const scheduled = await staff.agent
      .post(`/api/subscriptions/${id}/cancel`)
      .send({ when: "period_end", reason: "Moving to Toronto" })
      .expect(200);
    expect(scheduled.body.cancelAt).toBe(active.sub.minimumTermEndsAt);
    expect(scheduled.body).toMatchObject({ status: "active", cancellationReason: "Moving to Toronto" });
    const events = (await staff.agent.get(`/api/subscriptions/${id}`).expect(200)).body.events;
    expect(events[0]).toMatchObject({ kind: "cancel_scheduled", actor: `staff:${staff.user.id}` });

    const resumed = await staff.agent.post(`/api/subscriptions/${id}/resume`).expect(200);
    expect(resumed.body.cancelAt).toBeNull();
    expect((await staff.agent.post(`/api/subscriptions/${id}/resume`).expect(409)).body.message).toMatch(
      /no cancellation/i,
    );
    await staff.agent.post("/api/subscriptions/999999/resume").expect(404);

    const endedNow = await staff.agent
      .post(`/api/subscriptions/${ended.sub.id}/cancel`)
      .send({ when: "now", reason: "Again" })
      .expect(409);
    expect(endedNow.body.message).toMatch(/ended/i);
  });

  it("change-plan: bad input writes nothing; an upgrade applies at once with a prorated invoice; a downgrade waits; the same plan is a 409", async () => {
    const fresh = await buy("standard", "Devon Roy", "301 Rideau Street");
    const id = fresh.sub.id;
    const before = await counts();
    for (const payload of [{}, { planType: "gold" }, { planType: "" }, { planType: ["premium"] }]) {
      const res = await staff.agent.post(`/api/subscriptions/${id}/change-plan`).send(payload).expect(400);
      expect(Object.keys(res.body.fields)).toContain("planType");
    }
    await staff.agent.post("/api/subscriptions/999999/change-plan").send({ planType: "premium" }).expect(404);
    expect(await counts()).toEqual(before);

    await staff.agent.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "standard" }).expect(409);
    const up = await staff.agent.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "premium" }).expect(200);
    expect(up.body).toMatchObject({ planType: "premium", monthlyAmount: 799, scheduledPlanType: null });
    const detail = (await staff.agent.get(`/api/subscriptions/${id}`).expect(200)).body;
    expect(detail.invoices.some((i: { billingReason: string }) => i.billingReason === "subscription_update")).toBe(
      true,
    );
    expect((await ctx.db("properties").where({ id: fresh.property.id }).first()).subscription_plan).toBe("premium");

    const down = await staff.agent.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "basic" }).expect(200);
    expect(down.body).toMatchObject({
      planType: "premium",
      scheduledPlanType: "basic",
      scheduledPlanAt: down.body.currentPeriodEnd,
    });
    const log = (await staff.agent.get(`/api/subscriptions/${id}`).expect(200)).body.events;
    expect(log[0]).toMatchObject({
      kind: "plan_change_scheduled",
      fromPlan: "premium",
      toPlan: "basic",
      actor: `staff:${staff.user.id}`,
    });
    // The page offers to take the waiting downgrade back, and not the plan already scheduled.
    const page = await staff.agent.get(`/admin/subscriptions/${id}`).expect(200);
    expect(page.text).toContain("Stay on Premium");
    expect(page.text).not.toMatch(/name="planType" value="basic"/);
    expect(page.text).toMatch(/name="planType" value="standard"/);
  });

  it("service-requests: bad input is a 400 naming the field and writes nothing; unknown id 404; an on-request service becomes a dated task", async () => {
    const fresh = await buy("premium", "Emery Clarke", "14 Sussex Drive");
    const id = fresh.sub.id;
    const before = await counts();
    for (const [payload, field] of [
      [{ date: "2030-01-01" }, "service"],
      [{ service: "", date: "2030-01-01" }, "service"],
      [{ service: "vacation-prep" }, "date"],
      [{ service: "vacation-prep", date: "2030-02-30" }, "date"],
      [{ service: "vacation-prep", date: "1800-01-01" }, "date"],
      [{ service: "vacation\nprep", date: "2030-01-01" }, "service"],
      [{ service: "vacation-prep", date: "2030-01-01", notes: 7 }, "notes"],
    ] as const) {
      const res = await staff.agent.post(`/api/subscriptions/${id}/service-requests`).send(payload).expect(400);
      expect(Object.keys(res.body.fields)).toContain(field);
    }
    await staff.agent
      .post("/api/subscriptions/999999/service-requests")
      .send({ service: "vacation-prep", date: "2030-01-01" })
      .expect(404);
    expect(await counts()).toEqual(before);

    const made = await staff.agent
      .post(`/api/subscriptions/${id}/service-requests`)
      .send({ service: "vacation-prep", date: "2030-01-15", notes: "Away for a month" })
      .expect(201);
    expect(made.body).toMatchObject({ propertyId: fresh.property.id });
    expect(made.body).toMatchObject({ scheduledDate: "2030-01-15", notes: "Away for a month" });
    // The plan services' schedules are in the detail, and the page offers the on-request ones.
    const services = (await staff.agent.get(`/api/subscriptions/${id}`).expect(200)).body.services;
    expect(services.find((s: { service: string }) => s.service === "vacation-prep")).toMatchObject({
      onRequest: true,
      held: false,
    });
    expect(services.some((s: { onRequest: boolean; nextDate: string | null }) => !s.onRequest && s.nextDate)).toBe(
      true,
    );
    const page = await staff.agent.get(`/admin/subscriptions/${id}`).expect(200);
    expect(page.text).toMatch(/<option value="vacation-prep"/);
    // A service the plan delivers on its schedule is not requested.
    const scheduled = await staff.agent
      .post(`/api/subscriptions/${id}/service-requests`)
      .send({ service: "window-cleaning", date: "2030-01-15" })
      .expect(400);
    expect(scheduled.body.fields).toHaveProperty("service");
  });

  it("is documented in the OpenAPI document", async () => {
    const doc = (await ctx.agent().get("/api/openapi.json").expect(200)).body;
    for (const path of [
      "/api/subscriptions",
      "/api/subscriptions/metrics",
      "/api/subscriptions/{id}",
      "/api/subscriptions/{id}/cancel",
      "/api/subscriptions/{id}/resume",
      "/api/subscriptions/{id}/change-plan",
      "/api/subscriptions/{id}/service-requests",
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
  });
});

describe("staff subscription pages", () => {
  it("/admin/subscriptions needs a staff session and shows the figures, the filters and the rows, past due in red with its label", async () => {
    const login = await ctx.agent().get("/admin/subscriptions").expect(302);
    expect(login.headers.location).toMatch(/^\/login/);
    const page = await staff.agent.get("/admin/subscriptions").expect(200);
    expect(page.text).toContain('data-stat="mrr"');
    expect(page.text).toMatch(/Cancellations this month/);
    expect(page.text).toMatch(/href="\/admin\/subscriptions"[^>]*aria-current="page"/);
    const row = new RegExp(`data-subscription-id="${pastDue.sub.id}" data-status="past_due" class="sub-row-past-due"`);
    expect(page.text).toMatch(row);
    expect(page.text).toContain("Payment past due");
    // Filtered: htmx gets the results alone.
    const fragment = await staff.agent
      .get("/admin/subscriptions?status=past_due")
      .set("HX-Request", "true")
      .set("HX-Target", "subscription-results")
      .expect(200);
    expect(fragment.text).not.toContain("admin-shell");
    expect(fragment.text.match(/data-testid="subscription-row"/g)).toHaveLength(1);
    const search = await staff.agent.get("/admin/subscriptions?q=laurier&plan=basic").expect(200);
    expect(search.text.match(/data-testid="subscription-row"/g)).toHaveLength(1);
    // Unknown filter values on the page are no filter, never an error page.
    await staff.agent.get("/admin/subscriptions?status=nope&page=abc").expect(200);
  });

  it("/admin/subscriptions/{id}: facts, invoices, events, and the cancel form's dates; 404 unknown", async () => {
    const page = await staff.agent.get(`/admin/subscriptions/${pastDue.sub.id}`).expect(200);
    expect(page.text).toContain("Minimum term ends");
    expect(page.text).toContain('data-testid="invoice"');
    expect(page.text).toContain("Payment failed");
    expect(page.text).toContain("Held: payment past due");
    expect(page.text).toContain(`/admin/properties/${pastDue.property.id}`);
    expect(page.text).toMatch(/At the end of the (minimum term|paid period): /);
    await staff.agent.get("/admin/subscriptions/999999").expect(404);
    const endedPage = await staff.agent.get(`/admin/subscriptions/${ended.sub.id}`).expect(200);
    expect(endedPage.text).toContain("This subscription has ended");
    expect(endedPage.text).not.toContain('data-testid="cancel-form"');
  });

  it("the forms work without script: a refused field keeps what was typed; success redirects with the outcome", async () => {
    const fresh = await buy("standard", "Finley Park", "77 Metcalfe Street");
    const id = fresh.sub.id;
    const refused = await staff.agent
      .post(`/admin/subscriptions/${id}/cancel`)
      .type("form")
      .send({ when: "period_end", reason: "" })
      .expect(400);
    expect(refused.text).toContain("Reason is required");
    expect(refused.text).toMatch(/id="cancel-reason"[^>]*aria-invalid="true"/);
    const typed = await staff.agent
      .post(`/admin/subscriptions/${id}/cancel`)
      .type("form")
      .send({ when: "sometime", reason: "Keeps this text" })
      .expect(400);
    expect(typed.text).toContain("Keeps this text");
    expect((await ctx.container.subscriptions.get(id)).cancelAt).toBeNull();

    const done = await staff.agent
      .post(`/admin/subscriptions/${id}/cancel`)
      .type("form")
      .send({ when: "period_end", reason: "Budget" })
      .expect(303);
    expect(done.headers.location).toBe(`/admin/subscriptions/${id}?done=cancel`);
    const after = await staff.agent.get(String(done.headers.location)).expect(200);
    expect(after.text).toContain("Cancellation scheduled");
    expect(after.text).toContain("Undo cancellation");
    expect((await ctx.container.subscriptions.get(id)).cancellationReason).toBe("Budget");

    // htmx: the details come back in place, with the outcome.
    const undone = await staff.agent
      .post(`/admin/subscriptions/${id}/resume`)
      .set("HX-Request", "true")
      .type("form")
      .send({})
      .expect(200);
    expect(undone.text).toContain("Cancellation undone");
    expect(undone.text).not.toContain("admin-shell");
    // A refusal of the whole action (409) is a notice, nothing changed.
    const again = await staff.agent.post(`/admin/subscriptions/${id}/resume`).type("form").send({}).expect(409);
    expect(again.text).toContain("Nothing was changed");

    const plan = await staff.agent.post(`/admin/subscriptions/${id}/change-plan`).type("form").send({}).expect(400);
    expect(plan.text).toMatch(/Plan must be one of/);
    await staff.agent
      .post(`/admin/subscriptions/${id}/change-plan`)
      .type("form")
      .send({ planType: "basic" })
      .expect(303);
    expect((await ctx.container.subscriptions.get(id)).scheduledPlanType).toBe("basic");
  });

  it("the dashboard shows a red banner for failed plan payments; its cards keep the spec's text; Total Revenue opens the subscriptions", async () => {
    const page = await staff.agent.get("/admin").expect(200);
    expect(page.text).toMatch(/data-testid="past-due-banner"[\s\S]*1 plan payment failed/);
    expect(page.text).toContain('href="/admin/subscriptions?status=past_due"');
    for (const label of ["Total Properties", "Pending Inspections", "Completed This Month", "Total Revenue"])
      expect(page.text).toContain(`<p class="stat-label">${label}</p>`);
    expect(page.text).toMatch(
      /data-stat="totalRevenue">\s*<a class="stat-card stat-card-link" href="\/admin\/subscriptions"/,
    );
  });

  it("the properties page marks a past-due plan; the property dialog shows the subscription and its invoices", async () => {
    const list = await staff.agent.get("/admin/properties?q=88%20bank").expect(200);
    expect(list.text).toContain('data-testid="past-due-badge"');
    const other = await staff.agent.get("/admin/properties?q=12%20elgin").expect(200);
    expect(other.text).not.toContain('data-testid="past-due-badge"');
    const dialog = await staff.agent
      .get(`/admin/properties/${pastDue.property.id}`)
      .set("HX-Request", "true")
      .expect(200);
    expect(dialog.text).toContain('data-testid="property-subscription" data-status="past_due"');
    expect(dialog.text).toContain("Payment past due");
    expect(dialog.text).toContain("Minimum term ends");
    expect(dialog.text).toContain('data-testid="property-invoices"');
    expect(dialog.text).toContain(`/admin/subscriptions/${pastDue.sub.id}`);
    const none = await ctx.container.customers.createWithProperty(
      { email: "none@example.com", name: "No Plan", phone: "613-555-0199", subscriptionPlan: "free-score" },
      {
        address: "1 Free Way",
        city: "Ottawa",
        province: "ON",
        postalCode: "K1N 5W8",
        squareFootage: 900,
        yearBuilt: 1970,
      },
    );
    expect(
      (await staff.agent.get(`/admin/properties/${none.property.id}`).set("HX-Request", "true").expect(200)).text,
    ).toContain('data-testid="property-subscription-none"');
  });
});
