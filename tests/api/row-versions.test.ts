// quote requests and maintenance tasks carry a version; a PATCH naming an older one is a
// 409 with the record as it is now, and writes nothing. Real Postgres, real concurrent requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];

beforeAll(async () => {
  ctx = await createTestContext();
  staff = (await signInStaff(ctx)).agent;
});
afterAll(() => ctx?.close());

const PARALLEL = 20;
let seq = 0;

/** A property with one recommendation task and the client's quote request for it. */
async function quoteRequest() {
  seq += 1;
  const { property } = await ctx.container.customers.createWithProperty(
    { email: `versions${seq}@example.com`, name: `Vera Version ${seq}`, subscriptionPlan: "standard" },
    { address: `${seq} Version Row`, city: "Ottawa", province: "ON", postalCode: "K1A 0B1" },
  );
  const [task] = await ctx.container.maintenance.createTasks([
    { propertyId: property.id, title: `Regrade the yard ${seq}`, category: "exterior", priority: "high" },
  ]);
  const [id] = await ctx.container.transaction((tx) =>
    ctx.container.quotes.createRequests(
      [{ propertyId: property.id, maintenanceTaskId: task!.id, shareId: null, priority: "high", clientNotes: null }],
      tx,
    ),
  );
  return { id: id!, taskId: task!.id, propertyId: property.id };
}

const quoteRow = (id: number) => ctx.db("quote_requests").where({ id }).first();
const taskRow = (id: number) => ctx.db("maintenance_tasks").where({ id }).first();

describe("quote request versions", () => {
  it("every answer carries the version; an edit from the current one lands and bumps it", async () => {
    const { id, propertyId } = await quoteRequest();
    const [listed] = (await staff.get(`/api/quote-requests?propertyId=${propertyId}`).expect(200)).body;
    expect(listed).toMatchObject({ id, version: 1 });
    const res = await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", quotedAmount: "$400", adminNotes: "Half a day", version: 1 })
      .expect(200);
    expect(res.body).toMatchObject({ status: "quoted", quotedAmount: "$400", version: 2 });
    expect((await quoteRow(id)).version).toBe(2);
  });

  it("a stale edit is a 409 with the fresh request, and writes nothing", async () => {
    const { id } = await quoteRequest();
    await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", quotedAmount: "$1,200", adminNotes: "First", version: 1 })
      .expect(200);
    const before = await quoteRow(id);

    // A second person still looking at version 1 edits the quote.
    const stale = await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", quotedAmount: "$999", adminNotes: "Second", version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/changed by someone else/);
    expect(stale.body.current).toMatchObject({
      id,
      status: "quoted",
      quotedAmount: "$1,200",
      adminNotes: "First",
      version: 2,
    });
    expect(await quoteRow(id)).toEqual(before);

    // A stale status move is refused too, even a legal one: it would accept an amount its sender never saw.
    const accept = await staff.patch(`/api/quote-requests/${id}`).send({ status: "accepted", version: 1 });
    expect(accept.status).toBe(409);
    expect(accept.body.current.version).toBe(2);
    expect(await quoteRow(id)).toEqual(before);
    expect((await taskRow((before as { maintenance_task_id: number }).maintenance_task_id)).status).toBe("pending");

    // With the fresh version it goes through.
    await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", quotedAmount: "$999", adminNotes: "Second", version: 2 })
      .expect(200);
    expect(await quoteRow(id)).toMatchObject({ quoted_amount: "$999", admin_notes: "Second", version: 3 });
  });

  it(`${PARALLEL} parallel edits from one version: exactly one 200, the others 409, and the winner's values stay`, async () => {
    const { id } = await quoteRequest();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        staff
          .patch(`/api/quote-requests/${id}`)
          .send({ status: "quoted", quotedAmount: `$${100 + i}`, adminNotes: `Editor ${i}`, version: 1 }),
      ),
    );
    const ok = answers.filter((r) => r.status === 200);
    const conflicts = answers.filter((r) => r.status === 409);
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(PARALLEL - 1);
    const winner = ok[0]!.body;
    const row = await quoteRow(id);
    expect(row).toMatchObject({
      status: "quoted",
      quoted_amount: winner.quotedAmount,
      admin_notes: winner.adminNotes,
      version: 2,
    });
    for (const conflict of conflicts)
      expect(conflict.body.current).toMatchObject({ quotedAmount: winner.quotedAmount, version: 2 });
  });

  it("without a version (plain API calls, the CLI) the status machine alone decides, and the version still grows", async () => {
    const { id } = await quoteRequest();
    await staff.patch(`/api/quote-requests/${id}`).send({ status: "quoted", quotedAmount: "$50" }).expect(200);
    await staff.patch(`/api/quote-requests/${id}`).send({ status: "quoted", quotedAmount: "$60" }).expect(200);
    expect(await quoteRow(id)).toMatchObject({ quoted_amount: "$60", version: 3 });
    // An illegal move is still the status machine's 409, without `current`.
    const illegal = await staff.patch(`/api/quote-requests/${id}`).send({ status: "pending" });
    expect(illegal.status).toBe(409);
    expect(illegal.body.current).toBeUndefined();
  });

  it("refuses a version that is not a whole number of at least 1, naming the field, and writes nothing", async () => {
    const { id } = await quoteRequest();
    for (const version of ["1", 0, 1.5, -3, null]) {
      const res = await staff.patch(`/api/quote-requests/${id}`).send({ status: "declined", version });
      expect(res.status, JSON.stringify(version)).toBe(400);
      expect(res.body.fields).toHaveProperty("version");
    }
    expect(await quoteRow(id)).toMatchObject({ status: "pending", version: 1 });
  });

  it("accepting a quote moves its task and bumps the task's version", async () => {
    const { id, taskId } = await quoteRequest();
    await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", quotedAmount: "$70", version: 1 })
      .expect(200);
    await staff.patch(`/api/quote-requests/${id}`).send({ status: "accepted", version: 2 }).expect(200);
    expect(await taskRow(taskId)).toMatchObject({ status: "scheduled", version: 2 });
    // A task dialog opened before the accept is now stale.
    const stale = await staff.patch(`/api/maintenance-tasks/${taskId}`).send({ status: "cancelled", version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({ id: taskId, status: "scheduled", version: 2 });
  });
});

describe("maintenance task versions", () => {
  async function datedTask() {
    const { taskId } = await quoteRequest();
    await ctx
      .db("maintenance_tasks")
      .where({ id: taskId })
      .update({ scheduled_date: ctx.container.maintenance.today(), status: "scheduled" });
    return taskId;
  }

  it("the list, the calendar and the PATCH answer carry the version", async () => {
    const taskId = await datedTask();
    const today = ctx.container.maintenance.today();
    const listed = (await staff.get(`/api/maintenance-tasks?limit=500`).expect(200)).body.find(
      (t: { id: number }) => t.id === taskId,
    );
    expect(listed.version).toBe(1);
    const calendar = (await staff.get(`/api/maintenance-calendar?from=${today}&to=${today}`).expect(200)).body;
    expect(calendar.tasks.find((t: { id: number }) => t.id === taskId).version).toBe(1);
    const res = await staff
      .patch(`/api/maintenance-tasks/${taskId}`)
      .send({ status: "in_progress", notes: "Started", version: 1 })
      .expect(200);
    expect(res.body).toMatchObject({ status: "in_progress", notes: "Started", version: 2 });
  });

  it("a stale edit is a 409 with the fresh task, and writes nothing", async () => {
    const taskId = await datedTask();
    await staff
      .patch(`/api/maintenance-tasks/${taskId}`)
      .send({ status: "in_progress", notes: "Crew on site", version: 1 })
      .expect(200);
    const before = await taskRow(taskId);
    const stale = await staff
      .patch(`/api/maintenance-tasks/${taskId}`)
      .send({ status: "completed", notes: "Done", completedAt: new Date().toISOString(), version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/changed by someone else/);
    expect(stale.body.current).toMatchObject({
      id: taskId,
      status: "in_progress",
      notes: "Crew on site",
      completedAt: null,
      version: 2,
    });
    expect(await taskRow(taskId)).toEqual(before);
    // The plain call of the spec (no version) keeps today's behaviour: it lands.
    await staff.patch(`/api/maintenance-tasks/${taskId}`).send({ status: "completed" }).expect(200);
    expect(await taskRow(taskId)).toMatchObject({ status: "completed", version: 3 });
  });

  it(`${PARALLEL} parallel edits from one version: exactly one 200, the others 409, and the winner's values stay`, async () => {
    const taskId = await datedTask();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        staff
          .patch(`/api/maintenance-tasks/${taskId}`)
          .send({ status: "in_progress", notes: `Editor ${i}`, version: 1 }),
      ),
    );
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(PARALLEL - 1);
    expect(await taskRow(taskId)).toMatchObject({ notes: ok[0]!.body.notes, version: 2 });
  });

  it("refuses a bad version naming the field; an unknown task is still a 404", async () => {
    const taskId = await datedTask();
    const res = await staff.patch(`/api/maintenance-tasks/${taskId}`).send({ status: "cancelled", version: "two" });
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty("version");
    expect((await taskRow(taskId)).status).toBe("scheduled");
    await staff.patch("/api/maintenance-tasks/2147483000").send({ status: "cancelled", version: 1 }).expect(404);
  });
});
