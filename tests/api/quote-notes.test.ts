import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestContext, signInStaff } from "../support/context.js";
import { type Smtp, shareReport, sharedReportFixture, sharingTestApp } from "./sharing-fixtures.js";
import { suiteToday } from "../support/clock.js";

// a client who asks again for a quote is never lost.
let ctx: TestContext;
let smtp: Smtp;
let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];

beforeAll(async () => {
  ({ ctx, smtp, staff } = await sharingTestApp());
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

/** Shares the report to a fresh browser and submits its answers through the link. */
async function answer(
  reportId: number,
  responses: { maintenanceTaskId: number; action: "request_quote" | "ignore"; notes?: string }[],
) {
  const { token } = await shareReport(staff, reportId);
  const client = ctx.agent();
  await client.get(`/api/client-report/${token}`).expect(200);
  return (await client.post(`/api/client-report/${token}/responses`).send({ responses }).expect(201)).body;
}

const requestsOf = (taskId: number) => ctx.db("quote_requests").where({ maintenance_task_id: taskId }).orderBy("id");

describe("a second quote request for the same item", () => {
  it("appends the new note, with its date, to the open request, and shows staff it was asked again", async () => {
    const { report, taskIds, propertyId } = await sharedReportFixture(ctx);
    await answer(report.id, [
      { maintenanceTaskId: taskIds[0]!, action: "request_quote", notes: "Before winter please" },
    ]);
    const [first] = await requestsOf(taskIds[0]!);
    expect(
      await answer(report.id, [
        { maintenanceTaskId: taskIds[0]!, action: "request_quote", notes: "Water is now coming in\nnear the window" },
      ]),
    ).toEqual({ recorded: 1, quoteRequests: 1 });

    const rows = await requestsOf(taskIds[0]!);
    expect(rows).toHaveLength(1);
    const today = suiteToday(ctx.container.env.BUSINESS_TZ);
    expect(rows[0].client_notes).toBe(
      `Before winter please\n\nAsked again on ${today}: Water is now coming in\nnear the window`,
    );
    expect(rows[0].version).toBe(first.version + 1);
    expect(rows[0].client_noted_at.getTime()).toBeGreaterThanOrEqual(first.client_noted_at.getTime());

    // A request without a note still tells staff the client asked again.
    await answer(report.id, [{ maintenanceTaskId: taskIds[0]!, action: "request_quote" }]);
    expect((await requestsOf(taskIds[0]!))[0].client_notes).toBe(
      `Before winter please\n\nAsked again on ${today}: Water is now coming in\nnear the window\n\nAsked again on ${today}.`,
    );

    const listed = await staff.get(`/api/quote-requests?propertyId=${propertyId}`).expect(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({
      clientNotes: expect.stringContaining("Water is now coming in"),
      clientNotedAt: expect.any(String),
      version: first.version + 2,
    });
  });

  it("a staff dialog opened before the new note gets a 409 with it, instead of saving over it unseen", async () => {
    const { report, taskIds } = await sharedReportFixture(ctx);
    await answer(report.id, [{ maintenanceTaskId: taskIds[1]!, action: "request_quote", notes: "First" }]);
    const [opened] = await requestsOf(taskIds[1]!);
    await answer(report.id, [{ maintenanceTaskId: taskIds[1]!, action: "request_quote", notes: "Second" }]);
    const stale = await staff
      .patch(`/api/quote-requests/${opened.id}`)
      .send({ status: "quoted", quotedAmount: "$500", version: opened.version })
      .expect(409);
    expect(stale.body.current.clientNotes).toContain("Second");
  });

  it("opens a new request when the earlier one is closed (declined or completed)", async () => {
    const { report, taskIds } = await sharedReportFixture(ctx);
    await answer(report.id, [
      { maintenanceTaskId: taskIds[0]!, action: "request_quote", notes: "Declined one" },
      { maintenanceTaskId: taskIds[1]!, action: "request_quote", notes: "Completed one" },
    ]);
    const [declined] = await requestsOf(taskIds[0]!);
    const [completed] = await requestsOf(taskIds[1]!);
    await staff.patch(`/api/quote-requests/${declined.id}`).send({ status: "declined" }).expect(200);
    await staff
      .patch(`/api/quote-requests/${completed.id}`)
      .send({ status: "quoted", quotedAmount: "$300" })
      .expect(200);
    await staff.patch(`/api/quote-requests/${completed.id}`).send({ status: "accepted" }).expect(200);
    await staff.patch(`/api/quote-requests/${completed.id}`).send({ status: "completed" }).expect(200);

    expect(
      await answer(report.id, [
        { maintenanceTaskId: taskIds[0]!, action: "request_quote", notes: "Changed my mind" },
        { maintenanceTaskId: taskIds[1]!, action: "request_quote", notes: "It leaks again" },
      ]),
    ).toEqual({ recorded: 2, quoteRequests: 2 });
    for (const [taskId, closed, note] of [
      [taskIds[0]!, declined, "Changed my mind"],
      [taskIds[1]!, completed, "It leaks again"],
    ] as const) {
      const rows = await requestsOf(taskId);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ id: closed.id, client_notes: closed.client_notes, version: expect.any(Number) });
      expect(rows[1]).toMatchObject({ status: "pending", client_notes: note });
    }
  });

  it("two links answered at once for one item make one open request holding both notes", async () => {
    const { report, taskIds } = await sharedReportFixture(ctx);
    const links = await Promise.all([shareReport(staff, report.id), shareReport(staff, report.id)]);
    const clients = links.map(() => ctx.agent());
    await Promise.all(links.map(({ token }, i) => clients[i]!.get(`/api/client-report/${token}`).expect(200)));
    await Promise.all(
      links.map(({ token }, i) =>
        clients[i]!.post(`/api/client-report/${token}/responses`)
          .send({ responses: [{ maintenanceTaskId: taskIds[2]!, action: "request_quote", notes: `Note ${i}` }] })
          .expect(201),
      ),
    );
    const rows = await requestsOf(taskIds[2]!);
    expect(rows).toHaveLength(1);
    expect(rows[0].client_notes).toMatch(/Note 0/);
    expect(rows[0].client_notes).toMatch(/Note 1/);
  });
});
