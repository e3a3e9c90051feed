import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, signInStaff } from "../support/context.js";
import { type Smtp, shareReport, sharedReportFixture, sharingTestApp } from "./sharing-fixtures.js";

// the bell counts new quote requests and client responses, and lists them. One count (docs/decisions.md#55): the
// same number on every page and on /admin/notifications, until the person marks the rows seen.
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

async function answer(
  reportId: number,
  responses: { maintenanceTaskId: number; action: "request_quote" | "ignore"; notes?: string }[],
) {
  const { token } = await shareReport(staff, reportId);
  const client = ctx.agent();
  await client.get(`/api/client-report/${token}`).expect(200);
  await client.post(`/api/client-report/${token}/responses`).send({ responses }).expect(201);
}

/** Marks the client rows seen, as the page's "Mark seen" button does. */
async function markSeen(agent = staff) {
  const html = (await agent.get("/admin/notifications").expect(200)).text;
  const until = html.match(/name="until" value="([^"]+)"/)?.[1];
  expect(until).toBeDefined();
  // As the page's form posts it: no filters is an empty `back`.
  await agent.post("/admin/notifications/seen").type("form").send({ until, back: "" }).expect(303);
}

/** The bell as an admin page's header shows it: its accessible name and its badge. */
async function bell(agent = staff, path = "/admin") {
  const html = (await agent.get(path).expect(200)).text;
  const label = html.match(/aria-label="(Notifications[^"]*)" data-bell/)?.[1];
  const count = html.match(/data-bell-count>([^<]+)</)?.[1] ?? null;
  return { label, count };
}

const listItems = (html: string) =>
  [...html.matchAll(/data-bell-item="([a-z-]+)" data-new="(true|false)"/g)].map((m) => [m[1], m[2] === "true"]);

describe("the staff bell", () => {
  it("counts what clients did until this user marks it seen, the same on every page, and lists it with links", async () => {
    // Start from a clean slate: this user has seen everything so far (nothing to mark yet: no button).
    expect((await staff.get("/admin/notifications").expect(200)).text).not.toContain("data-mark-seen");
    expect(await bell()).toEqual({ label: "Notifications", count: null });

    const { report, taskIds } = await sharedReportFixture(ctx, "12 Bell Street");
    await answer(report.id, [{ maintenanceTaskId: taskIds[0]!, action: "request_quote", notes: "Soon please" }]);
    // A new quote request and the answered report.
    expect(await bell()).toEqual({ label: "Notifications, 2 new", count: "2" });

    const page = (await staff.get("/admin/notifications").expect(200)).text;
    // One answer, one instant: its quote request first, then the report it came from.
    expect(listItems(page)).toEqual([
      ["quote", true],
      ["response", true],
    ]);
    expect(page).toContain(`href="/admin/reports/${report.id}"`);
    expect(page).toContain("/admin/quote-requests?q=12+Bell+Street");
    // Opening the list changes nothing: the bell and the list's "new" say 2 there and on every page.
    expect(await bell(staff, "/admin/notifications")).toEqual({ label: "Notifications, 2 new", count: "2" });
    expect(page).toMatch(/data-testid="notifications-new">2 new</);
    expect(await bell()).toEqual({ label: "Notifications, 2 new", count: "2" });
    expect(await bell(staff, "/admin/quote-requests")).toEqual({ label: "Notifications, 2 new", count: "2" });
    // Marked seen: quiet everywhere at once.
    await markSeen();
    expect(await bell()).toEqual({ label: "Notifications", count: null });
    expect(await bell(staff, "/admin/notifications")).toEqual({ label: "Notifications", count: null });
    // A refused mark (no time) writes nothing.
    await staff.post("/admin/notifications/seen").type("form").send({ until: "soon" }).expect(400);

    // Asking again counts again, and reads as such; a report answered with ignores only is a response.
    await answer(report.id, [
      { maintenanceTaskId: taskIds[0]!, action: "request_quote", notes: "Still waiting" },
      { maintenanceTaskId: taskIds[1]!, action: "ignore" },
    ]);
    expect(await bell()).toEqual({ label: "Notifications, 2 new", count: "2" });
    const again = (await staff.get("/admin/notifications").expect(200)).text;
    await markSeen();
    expect(listItems(again).slice(0, 2)).toEqual([
      ["asked-again", true],
      ["response", true],
    ]);
    expect(again).toContain("Asked again for a quote");
    // Seen ones stay listed, no longer new.
    expect(listItems(again).slice(2)).toEqual([["response", false]]);
    // (The first request is now the asked-again line: one line per request, at its latest.)

    // Each user has a bell of their own: a new colleague sees the last 7 days as new.
    const { agent: colleague } = await signInStaff(ctx);
    expect((await bell(colleague)).count).toBe("3");
  });

  it("needs a staff session", async () => {
    const res = await ctx.agent().get("/admin/notifications").expect(302);
    expect(res.headers.location).toBe("/login?next=%2Fadmin%2Fnotifications");
  });
});
