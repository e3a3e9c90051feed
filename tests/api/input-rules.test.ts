// Input rules: dates out of bounds, lone surrogates, control characters in
// single-line fields and ids in odd forms are all 400s naming the field, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestContext, signInStaff } from "../support/context.js";
import { type Smtp, shareReport, sharedReportFixture, sharingTestApp } from "./sharing-fixtures.js";

let ctx: TestContext;
let smtp: Smtp;
let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];
let fixture: Awaited<ReturnType<typeof sharedReportFixture>>;

beforeAll(async () => {
  ({ ctx, smtp, staff } = await sharingTestApp());
  fixture = await sharedReportFixture(ctx);
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const count = async (table: string) => Number((await ctx.db(table).count({ n: "*" }).first())!.n);
const YEARS = "must be between 1900 and 2200";
const SURROGATE = "Contains a character that is not allowed (a lone UTF-16 surrogate)";

describe("dates out of bounds", () => {
  it("POST /api/inspections with year 0000 is a 400 naming inspectionDate, and writes nothing", async () => {
    const before = await count("inspections");
    for (const inspectionDate of ["0000-01-01", "1899-12-31", "2201-01-01", "9999-12-31"]) {
      const res = await staff
        .post("/api/inspections")
        .send({ propertyId: fixture.propertyId, inspectionDate })
        .expect(400);
      expect(res.body.fields, inspectionDate).toEqual({ inspectionDate: `Inspection date ${YEARS}` });
    }
    expect(await count("inspections")).toBe(before);
    await staff
      .post("/api/inspections")
      .send({ propertyId: fixture.propertyId, inspectionDate: "1900-01-01" })
      .expect(201);
  });

  it("PATCH /api/maintenance-tasks/{id} with completedAt in year 0000 is a 400 naming completedAt", async () => {
    const taskId = fixture.taskIds[0]!;
    for (const completedAt of ["0000-01-01T00:00:00Z", "1899-12-31T23:59:59Z", "2201-01-01T00:00:00Z"]) {
      const res = await staff
        .patch(`/api/maintenance-tasks/${taskId}`)
        .send({ status: "completed", completedAt })
        .expect(400);
      expect(res.body.fields, completedAt).toEqual({ completedAt: `Completed at ${YEARS}` });
    }
    expect((await ctx.db("maintenance_tasks").where({ id: taskId }).first()).completed_at).toBeNull();
    // An offset Postgres would refuse (beyond ±15:59) is taken, as the same instant in UTC.
    const late = await staff
      .patch(`/api/maintenance-tasks/${taskId}`)
      .send({ status: "completed", completedAt: "2026-03-01T10:00:00+20:00" })
      .expect(200);
    expect(late.body.completedAt).toBe("2026-02-28T14:00:00.000Z");
  });

  it("schedule start dates, list and calendar ranges and months keep to the same years", async () => {
    const before = await count("maintenance_schedules");
    const start = await staff
      .post("/api/maintenance-schedules")
      .send({ propertyId: fixture.propertyId, title: "Gutters", category: "exterior", startDate: "1850-06-01" })
      .expect(400);
    expect(start.body.fields).toEqual({ startDate: `Start date ${YEARS}` });
    expect(await count("maintenance_schedules")).toBe(before);
    expect((await staff.get("/api/maintenance-calendar?month=0000-01").expect(400)).body.fields).toEqual({
      month: `Month ${YEARS}`,
    });
    expect(
      (await staff.get("/api/maintenance-calendar?from=0000-01-01&to=0000-01-31").expect(400)).body.fields,
    ).toEqual({ from: `From ${YEARS}`, to: `To ${YEARS}` });
    expect((await staff.get("/api/maintenance-tasks?from=0000-01-01").expect(400)).body.fields).toEqual({
      from: `From ${YEARS}`,
    });
  });
});

describe("lone UTF-16 surrogates", () => {
  it('POST /api/inspection-categories with notes "\\ud800" is a 400 naming the entry\'s notes', async () => {
    const inspection = await ctx.container.inspections.create(
      { propertyId: fixture.propertyId, inspectionDate: "2026-03-02" },
      null,
    );
    const res = await staff
      .post("/api/inspection-categories")
      .set("Content-Type", "application/json")
      .send(
        '[{"inspectionId":' +
          inspection.id +
          ',"categoryName":"Roof","subcategoryName":"Gutters","score":7,"notes":"\\ud800"}]',
      )
      .expect(400);
    expect(res.body.fields).toEqual({ "0.notes": SURROGATE });
    expect(await ctx.db("inspection_entries").where({ inspection_id: inspection.id }).first()).toBeUndefined();
  });

  it("any other string field with a lone surrogate is a 400 too, instead of a stored U+FFFD", async () => {
    const before = await count("maintenance_schedules");
    const res = await staff
      .post("/api/maintenance-schedules")
      .set("Content-Type", "application/json")
      .send(`{"propertyId":${fixture.propertyId},"title":"Gutters \\udc00","category":"exterior"}`)
      .expect(400);
    expect(res.body).toEqual({ message: "Invalid input", fields: { title: SURROGATE } });
    expect(await count("maintenance_schedules")).toBe(before);
    // A proper pair (an emoji) is fine.
    await staff
      .post("/api/maintenance-schedules")
      .send({ propertyId: fixture.propertyId, title: "Gutters 🍂", category: "exterior" })
      .expect(201);
  });
});

describe("control characters in single-line fields", () => {
  it("a task title, a quoted amount, a name, an address and a city refuse CR/LF; notes keep their line breaks", async () => {
    const schedule = await staff
      .post("/api/maintenance-schedules")
      .send({
        propertyId: fixture.propertyId,
        title: "Gutters\r\nBcc: victim@example.com",
        category: "exterior",
        description: "North side\nand east side",
      })
      .expect(400);
    expect(schedule.body.fields).toEqual({ title: "Title must be one line without control characters" });

    const wizard = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send({
        propertyAddress: "1 Main St\r\nX",
        firstName: "Jo\u0085",
        lastName: "Line\u2028Break",
        email: "jo@example.com",
        phone: "306-555-0100",
      })
      .expect(400);
    expect(wizard.body.fields).toMatchObject({
      propertyAddress: "Property address must be one line without control characters",
      firstName: "First name must be one line without control characters",
      lastName: "Last name must be one line without control characters",
    });

    const taskId = fixture.taskIds[1]!;
    const notes = await staff
      .patch(`/api/maintenance-tasks/${taskId}`)
      .send({ status: "in_progress", notes: "Called the client.\r\nBack on Tuesday.\tOK" })
      .expect(200);
    expect(notes.body.notes).toBe("Called the client.\r\nBack on Tuesday.\tOK");
    const bell = await staff.patch(`/api/maintenance-tasks/${taskId}`).send({ notes: "ding\u0007" }).expect(400);
    expect(bell.body.fields).toEqual({ notes: "Notes holds a control character that is not allowed" });
  });

  it("PATCH /api/quote-requests/{id} refuses a quotedAmount with a line break (it is printed into the client's e-mail)", async () => {
    const { token } = await shareReport(staff, fixture.report.id, "rules-client@example.com");
    const client = ctx.agent();
    await client.get(`/api/client-report/${token}`).expect(200);
    await client
      .post(`/api/client-report/${token}/responses`)
      .send({
        responses: [{ maintenanceTaskId: fixture.taskIds[2], action: "request_quote", notes: "Mornings\nplease" }],
      })
      .expect(201);
    const [quote] = (await staff.get(`/api/quote-requests?propertyId=${fixture.propertyId}`).expect(200)).body as {
      id: number;
    }[];
    const res = await staff
      .patch(`/api/quote-requests/${quote!.id}`)
      .send({ status: "quoted", quotedAmount: "$450\r\nSubject: free", adminNotes: "Two\nlines" })
      .expect(400);
    expect(res.body.fields).toEqual({ quotedAmount: "Quoted amount must be one line without control characters" });
    expect((await ctx.db("quote_requests").where({ id: quote!.id }).first()).status).toBe("pending");
    await staff
      .patch(`/api/quote-requests/${quote!.id}`)
      .send({ status: "quoted", quotedAmount: "$450", adminNotes: "Two\nlines" })
      .expect(200);
    expect((await ctx.db("quote_requests").where({ id: quote!.id }).first()).admin_notes).toBe("Two\nlines");
  });
});

describe("ids in odd forms", () => {
  it("/api/reports/0x2c, /4.4e1 and /%2044 are 400s, where the canonical id answers", async () => {
    const id = fixture.report.id;
    await staff.get(`/api/reports/${id}`).expect(200);
    const odd = [
      `0x${id.toString(16)}`,
      `${id / 10}e1`,
      `%20${id}`,
      `${id}%20`,
      `0${id}`,
      `+${id}`,
      `${id}.0`,
      "0",
      "-1",
      "2147483648",
      "99999999999",
    ];
    for (const form of odd) {
      const res = await staff.get(`/api/reports/${form}`);
      expect(res.status, form).toBe(400);
      expect(Object.keys(res.body.fields), form).toEqual(["id"]);
    }
  });

  it("every kind of id route follows the same rule: API, pages, nested ids and query filters", async () => {
    const hex = `0x${fixture.propertyId.toString(16)}`;
    const urls = [
      `/api/properties/${hex}`,
      `/api/inspections/%20${fixture.inspectionId}`,
      `/api/maintenance-tasks/${fixture.taskIds[0]}.0/ics`,
      `/api/photos/0${fixture.photos[0]}`,
      `/api/property-history/${hex}`,
      `/api/maintenance-tasks?propertyId=${hex}`,
      `/api/maintenance-schedules?propertyId=%20${fixture.propertyId}`,
      `/api/quote-requests?propertyId=${fixture.propertyId}.0`,
      `/admin/reports/${fixture.report.id}e0`,
      `/admin/properties/${hex}`,
    ];
    for (const url of urls) expect((await staff.get(url)).status, url).toBe(400);
    const patched = await staff.patch(`/api/maintenance-tasks/1e0`).send({ status: "pending" });
    expect(patched.status).toBe(400);
  });

  it("ids in a body take a number or canonical text only", async () => {
    const before = await count("inspections");
    for (const propertyId of [`0x${fixture.propertyId.toString(16)}`, ` ${fixture.propertyId}`, true]) {
      const res = await staff.post("/api/inspections").send({ propertyId, inspectionDate: "2026-03-10" }).expect(400);
      expect(Object.keys(res.body.fields), String(propertyId)).toEqual(["propertyId"]);
    }
    expect(await count("inspections")).toBe(before);
    await staff
      .post("/api/inspections")
      .send({ propertyId: String(fixture.propertyId), inspectionDate: "2026-03-10" })
      .expect(201);
  });
});
