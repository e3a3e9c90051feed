import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPLETED_MESSAGE } from "../../src/modules/inspections/inspections.service.js";
import type { EntryInput } from "../../src/modules/inspections/inspections.schemas.js";
import {
  DEFAULT_OPEN_CATEGORIES,
  INSPECTION_WEIGHTS,
  SCORE_CHOICES,
  subcategoryWeight,
} from "../../src/modules/inspections/template.js";
import { INSPECTION_WEIGHTS as FROM_SCORING } from "../../src/modules/inspections/scoring.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
let n = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = await signInStaff(ctx);
});
afterAll(() => ctx.close());

/** A customer and a property, made through the customers service. */
async function property(address = `${++n} Rideau Street`) {
  const { property } = await ctx.container.customers.createWithProperty(
    { email: `owner${n}@example.ca`, name: `Owner ${n}`, phone: "613-555-0100", subscriptionPlan: "standard" },
    { address, city: "Ottawa", province: "ON", postalCode: "K1N 5Y3" },
  );
  return property;
}

async function booking(propertyId: number, scheduledDate = "2026-03-10", status = "scheduled") {
  const { customer_id } = await ctx.db("properties").where({ id: propertyId }).first("customer_id");
  const [row] = await ctx
    .db("inspection_bookings")
    .insert({
      property_id: propertyId,
      customer_id,
      scheduled_date: scheduledDate,
      time_slot: "09:00 AM",
      source: "booking-page",
      status,
    })
    .returning("id");
  return row.id as number;
}

async function start(propertyId: number, inspectionDate = "2026-03-10") {
  const { body } = await staff.agent
    .post("/api/inspections")
    .send({ propertyId, status: "in_progress", inspectionDate })
    .expect(201);
  return body as {
    id: number;
    bookingId: number | null;
    status: string;
    scheduledDate: string | null;
    inspectorId: number | null;
  };
}

const entries = async (inspectionId: number) =>
  ctx.db("inspection_entries").where({ inspection_id: inspectionId }).orderBy("id");

describe("the template", () => {
  it("holds 14 categories once, re-exported by the scoring module", () => {
    expect(INSPECTION_WEIGHTS).toHaveLength(14);
    expect(FROM_SCORING).toBe(INSPECTION_WEIGHTS);
    expect(SCORE_CHOICES.map((c) => c.value)).toEqual([10, 7, 4, 1, null]);
    expect(DEFAULT_OPEN_CATEGORIES).toEqual(["Attic", "Basement, Foundation, Crawlspace & Structure", "Plumbing"]);
    expect(subcategoryWeight("Bathrooms", "Sinks (Bathroom 2)")).toBe(8);
    expect(subcategoryWeight("Bathrooms", "Sinks (Bathroom 1)")).toBeUndefined();
    expect(subcategoryWeight("Bathrooms", "Sinks (Kitchen 2)")).toBeUndefined();
    expect(subcategoryWeight("Roof", "Shingles (Kitchen 2)")).toBeUndefined();
    expect(subcategoryWeight("Exterior Envelope", "Type of Cladding")).toBe(0);
  });
});

describe("staff session", () => {
  it("every inspection call refuses a request without one (401)", async () => {
    const anon = ctx.agent();
    await anon.get("/api/inspections").expect(401);
    await anon.get("/api/inspections/1").expect(401);
    await anon
      .post("/api/inspections")
      .send({ propertyId: 1, status: "in_progress", inspectionDate: "2026-03-10" })
      .expect(401);
    await anon.patch("/api/inspections/1").send({ status: "draft" }).expect(401);
    const page = await anon.get("/admin/inspections").expect(302);
    expect(page.headers.location).toBe("/login?next=%2Fadmin%2Finspections");
  });
});

describe("POST /api/inspections", () => {
  it("creates it in progress, records the inspector and links the property's scheduled booking", async () => {
    const p = await property();
    await booking(p.id, "2026-02-01", "completed");
    const bookingId = await booking(p.id, "2026-03-12");
    const created = await start(p.id, "2026-03-12");
    expect(created).toMatchObject({
      status: "in_progress",
      bookingId,
      scheduledDate: "2026-03-12",
      inspectorId: staff.user.id,
    });
    expect(created.id).toBeGreaterThan(0);
    // A second inspection of the property finds no booking left to fulfil.
    expect((await start(p.id)).bookingId).toBeNull();
    const { body } = await staff.agent.get(`/api/inspections/${created.id}`).expect(200);
    expect(body.property).toMatchObject({
      id: p.id,
      address: p.address,
      city: "Ottawa",
      clientName: p.clientName,
      clientEmail: p.clientEmail,
    });
    expect(body.categories.map((c: { categoryName: string }) => c.categoryName)).toEqual(
      INSPECTION_WEIGHTS.map((c) => c.name),
    );
  });

  it("two starts at once link one booking once", async () => {
    const p = await property();
    const bookingId = await booking(p.id);
    const both = await Promise.all([start(p.id), start(p.id)]);
    expect(both.map((i) => i.bookingId).sort()).toEqual([bookingId, null].sort());
  });

  it("refuses bad input with 400 naming the field and writes nothing", async () => {
    const before = (await ctx.db("inspections").count({ n: "*" }))[0]!.n;
    const missing = await staff.agent.post("/api/inspections").send({ status: "in_progress" }).expect(400);
    expect(Object.keys(missing.body.fields)).toEqual(expect.arrayContaining(["propertyId", "inspectionDate"]));
    const noProperty = await staff.agent
      .post("/api/inspections")
      .send({ propertyId: 999999, inspectionDate: "2026-03-10" })
      .expect(400);
    expect(noProperty.body.fields).toEqual({ propertyId: "Property not found" });
    const badDate = await staff.agent
      .post("/api/inspections")
      .send({ propertyId: 1, inspectionDate: "2026-02-30" })
      .expect(400);
    expect(badDate.body.fields.inspectionDate).toBeTruthy();
    const completed = await staff.agent
      .post("/api/inspections")
      .send({ propertyId: 1, status: "completed", inspectionDate: "2026-03-10" })
      .expect(400);
    expect(completed.body.fields.status).toBeTruthy();
    expect((await ctx.db("inspections").count({ n: "*" }))[0]!.n).toBe(before);
  });
});

describe("GET /api/inspections and /api/inspections/{id}", () => {
  it("bad ids get 400, missing ones 404", async () => {
    for (const id of ["abc", "0", "-3", "1.5", "99999999999"]) {
      const r = await staff.agent.get(`/api/inspections/${id}`).expect(400);
      expect(r.body.fields.id).toBeTruthy();
    }
    expect((await staff.agent.get("/api/inspections/999999").expect(404)).body.message).toBe("Inspection not found");
    await staff.agent.patch("/api/inspections/999999").send({ status: "draft" }).expect(404);
    await staff.agent.patch("/api/inspections/abc").send({ status: "draft" }).expect(400);
  });

  it("lists newest first, with X-Total-Count, pages, status filter and search", async () => {
    const p = await property("77 Promenade des Érables");
    const a = await start(p.id);
    const b = await start(p.id);
    await staff.agent.patch(`/api/inspections/${b.id}`).send({ status: "draft" }).expect(200);
    const all = await staff.agent.get("/api/inspections").expect(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(Number(all.headers["x-total-count"])).toBe(all.body.length);
    const ids = all.body.map((i: { id: number }) => i.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));

    const page = await staff.agent.get("/api/inspections?limit=1&offset=1").expect(200);
    expect(page.body).toHaveLength(1);
    expect(page.body[0].id).toBe(ids[1]);
    expect(page.headers["x-total-count"]).toBe(all.headers["x-total-count"]);

    const drafts = await staff.agent.get("/api/inspections?status=draft").expect(200);
    expect(drafts.body.every((i: { status: string }) => i.status === "draft")).toBe(true);
    expect(drafts.body.map((i: { id: number }) => i.id)).toContain(b.id);

    const found = await staff.agent.get(`/api/inspections?q=${encodeURIComponent("érables")}`).expect(200);
    expect(found.body.map((i: { id: number }) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect(found.headers["x-total-count"]).toBe("2");

    for (const q of ["limit=0", "limit=501", "offset=-1", "status=done", "limit=x"])
      await staff.agent.get(`/api/inspections?${q}`).expect(400);
  });
});

describe("PATCH /api/inspections/{id}", () => {
  it("allows the legal moves and answers 409 to the others", async () => {
    const p = await property();
    const i = await start(p.id);
    await staff.agent.patch(`/api/inspections/${i.id}`).send({ status: "draft" }).expect(200);
    await staff.agent.patch(`/api/inspections/${i.id}`).send({ status: "scheduled" }).expect(200);
    await staff.agent.patch(`/api/inspections/${i.id}`).send({ status: "in_progress" }).expect(200);
    const back = await staff.agent.patch(`/api/inspections/${i.id}`).send({ status: "scheduled" }).expect(409);
    expect(back.body.message).toContain("in_progress to scheduled");
    // Same status is a no-op.
    expect(
      (await staff.agent.patch(`/api/inspections/${i.id}`).send({ status: "in_progress" }).expect(200)).body.status,
    ).toBe("in_progress");
    await staff.agent.patch(`/api/inspections/${i.id}`).send({ status: "finished" }).expect(400);

    await ctx.container.inspections.saveEntries(i.id, [
      { categoryName: "Roof", subcategoryName: "Shingles", score: 7 },
    ]);
    const done = await staff.agent.patch(`/api/inspections/${i.id}`).send({ status: "completed" }).expect(200);
    expect(done.body).toMatchObject({ status: "completed", overallScore: 70 });
    await staff.agent.patch(`/api/inspections/${i.id}`).send({ status: "completed" }).expect(200);
    for (const status of ["in_progress", "draft", "scheduled"])
      await staff.agent.patch(`/api/inspections/${i.id}`).send({ status }).expect(409);
  });

  it("refuses to complete by status an inspection with an unscored stored entry (400)", async () => {
    const p = await property();
    const i = await start(p.id);
    await ctx.container.inspections.saveEntries(i.id, [
      { categoryName: "Roof", subcategoryName: "Shingles", score: null, notes: "Could not reach" },
    ]);
    const r = await staff.agent.patch(`/api/inspections/${i.id}`).send({ status: "completed" }).expect(400);
    expect(r.body.message).toContain("Roof › Shingles");
    const empty = await start(p.id);
    await staff.agent.patch(`/api/inspections/${empty.id}`).send({ status: "completed" }).expect(400);
  });
});

describe("saveEntries", () => {
  it("upserts per (inspection, category, subcategory): a retried chunk changes nothing", async () => {
    const p = await property();
    const i = await start(p.id);
    const chunk: EntryInput[] = [
      { categoryName: "Roof", subcategoryName: "Shingles", score: 7, notes: "Some granule loss", urgent: false },
      { categoryName: "Attic", subcategoryName: "Insulation", score: 4, notes: null, urgent: true },
      { categoryName: "Bathrooms", subcategoryName: "Sinks (Bathroom 2)", score: 10 },
    ];
    expect(await ctx.container.inspections.saveEntries(i.id, chunk)).toEqual({ saved: 3 });
    const first = await entries(i.id);
    expect(first).toHaveLength(3);
    expect(await ctx.container.inspections.saveEntries(i.id, chunk)).toEqual({ saved: 3 });
    const again = await entries(i.id);
    expect(again).toEqual(first);
  });

  it("two devices saving different entries never overwrite each other; a left-out field keeps its value", async () => {
    const p = await property();
    const i = await start(p.id);
    await Promise.all([
      ctx.container.inspections.saveEntries(i.id, [
        { categoryName: "Plumbing", subcategoryName: "Sump Pump", score: 1, notes: "Seized", urgent: true },
      ]),
      ctx.container.inspections.saveEntries(i.id, [
        { categoryName: "HVAC", subcategoryName: "Thermostat", score: 10, notes: "Smart" },
      ]),
    ]);
    await ctx.container.inspections.saveEntries(i.id, [
      { categoryName: "HVAC", subcategoryName: "Thermostat", score: 7 },
    ]);
    const rows = await entries(i.id);
    expect(rows.map((r) => [r.subcategory_name, r.score, r.notes, r.urgent]).sort()).toEqual([
      ["Sump Pump", 1, "Seized", true],
      ["Thermostat", 7, "Smart", false],
    ]);
    const { body } = await staff.agent.get(`/api/inspections/${i.id}`).expect(200);
    const plumbing = body.categories.find((c: { categoryName: string }) => c.categoryName === "Plumbing");
    expect(plumbing.entries).toHaveLength(1);
    expect(plumbing.entries[0]).toMatchObject({
      inspectionId: i.id,
      subcategoryName: "Sump Pump",
      score: 1,
      urgent: true,
      photoIds: [],
      photos: [],
    });
  });

  it("photoIds replace the entry's photos in order; unknown photos are a 400", async () => {
    const p = await property();
    const i = await start(p.id);
    const photoIds: number[] = [];
    for (const k of [1, 2, 3]) {
      const [row] = await ctx
        .db("photos")
        .insert({
          sha256: `test-${i.id}-${k}`,
          mime_type: "image/png",
          width: 1,
          height: 1,
          byte_size: 1,
          bytes: Buffer.from([k]),
          thumbnail: Buffer.from([k]),
        })
        .returning("id");
      photoIds.push(row.id);
    }
    const entry = { categoryName: "Roof", subcategoryName: "Gutters", score: 4 as const };
    await ctx.container.inspections.saveEntries(i.id, [{ ...entry, photoIds: [photoIds[0]!, photoIds[1]!] }]);
    await ctx.container.inspections.saveEntries(i.id, [{ ...entry, photoIds: [photoIds[2]!, photoIds[0]!] }]);
    let got = (await ctx.container.inspections.get(i.id)).categories.find((c) => c.categoryName === "Roof")!
      .entries[0]!;
    expect(got.photoIds).toEqual([photoIds[2], photoIds[0]]);
    expect(got.photos).toEqual([`/api/photos/${photoIds[2]}`, `/api/photos/${photoIds[0]}`]);
    // Without photoIds the photos stay.
    await ctx.container.inspections.saveEntries(i.id, [{ ...entry, notes: "Sagging" }]);
    got = (await ctx.container.inspections.get(i.id)).categories.find((c) => c.categoryName === "Roof")!.entries[0]!;
    expect(got.photoIds).toEqual([photoIds[2], photoIds[0]]);
    await expect(ctx.container.inspections.saveEntries(i.id, [{ ...entry, photoIds: [999999] }])).rejects.toMatchObject(
      { status: 400, fields: { "0.photoIds": expect.stringContaining("999999") } },
    );
  });

  it("a missing inspection is a 404", async () => {
    await expect(
      ctx.container.inspections.saveEntries(999999, [{ categoryName: "Roof", subcategoryName: "Shingles", score: 7 }]),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe("validateEntries", () => {
  const check = (entry: Partial<EntryInput>) => {
    try {
      ctx.container.inspections.validateEntries([
        { categoryName: "Roof", subcategoryName: "Shingles", score: 7, ...entry } as EntryInput,
      ]);
      return null;
    } catch (error) {
      return error as { status: number; message: string; fields: Record<string, string> };
    }
  };

  it("accepts the template's names, room suffixes from 2 and the five score choices", () => {
    for (const score of [10, 7, 4, 1, null] as const) expect(check({ score })).toBeNull();
    expect(check({ categoryName: "Kitchens & Wet Bars", subcategoryName: "Dishwasher (Kitchen 3)" })).toBeNull();
    expect(check({ categoryName: "Laundry Room", subcategoryName: "Washer / Dryer (Laundry 2)" })).toBeNull();
    expect(
      check({ categoryName: "Exterior Envelope", subcategoryName: "Type of Cladding", score: null, notes: "Brick" }),
    ).toBeNull();
  });

  it("400s name the field", () => {
    expect(check({ score: 5 as never })).toMatchObject({
      status: 400,
      fields: { "0.score": expect.stringContaining("10, 7, 4, 1") },
    });
    expect(check({ categoryName: "Garage" })).toMatchObject({
      status: 400,
      fields: { "0.categoryName": "Unknown category: Garage" },
    });
    expect(check({ subcategoryName: "Chimney" })).toMatchObject({
      status: 400,
      fields: { "0.subcategoryName": expect.stringContaining("Chimney") },
    });
    expect(check({ categoryName: "Bathrooms", subcategoryName: "Sinks (Bathroom 1)" })).toMatchObject({
      fields: { "0.subcategoryName": expect.any(String) },
    });
    expect(check({ categoryName: "Bathrooms", subcategoryName: "Sinks (Kitchen 2)" })).toMatchObject({
      fields: { "0.subcategoryName": expect.any(String) },
    });
    expect(check({ subcategoryName: "Shingles (Kitchen 2)" })).toMatchObject({
      fields: { "0.subcategoryName": expect.any(String) },
    });
    const cladding = check({ categoryName: "Exterior Envelope", subcategoryName: "Type of Cladding", score: 7 });
    expect(cladding).toMatchObject({ status: 400, fields: { "0.score": expect.stringContaining("Type of Cladding") } });
  });

  it("saveEntries validates before writing anything", async () => {
    const p = await property();
    const i = await start(p.id);
    await expect(
      ctx.container.inspections.saveEntries(i.id, [
        { categoryName: "Roof", subcategoryName: "Shingles", score: 7 },
        { categoryName: "Roof", subcategoryName: "Shingles (Bathroom 2)", score: 7 },
      ]),
    ).rejects.toMatchObject({ status: 400, fields: { "1.subcategoryName": expect.any(String) } });
    expect(await entries(i.id)).toHaveLength(0);
  });
});

describe("complete", () => {
  const small: EntryInput[] = [
    { categoryName: "Roof", subcategoryName: "Shingles", score: 10 },
    {
      categoryName: "Roof",
      subcategoryName: "Gutters",
      score: 4,
      notes: "Overflowing at the north corner",
      urgent: true,
    },
    { categoryName: "Attic", subcategoryName: "Insulation", score: 7 },
    { categoryName: "Exterior Envelope", subcategoryName: "Type of Cladding", score: null, notes: "Vinyl siding" },
  ];

  it("refuses an entry without a score, naming it, and writes nothing", async () => {
    const p = await property();
    const bookingId = await booking(p.id);
    const i = await start(p.id);
    await ctx.container.inspections.saveEntries(i.id, [
      { categoryName: "Roof", subcategoryName: "Shingles", score: 7 },
    ]);
    const before = await entries(i.id);
    const unscored = [
      ...small,
      { categoryName: "HVAC", subcategoryName: "Thermostat", score: null, notes: "Missing cover" },
    ];
    await expect(ctx.container.inspections.complete(i.id, unscored)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("HVAC › Thermostat"),
      fields: { "4.score": expect.stringContaining("HVAC › Thermostat") },
    });
    expect(await entries(i.id)).toEqual(before);
    expect((await ctx.db("inspections").where({ id: i.id }).first()).status).toBe("in_progress");
    expect((await ctx.db("inspection_bookings").where({ id: bookingId }).first()).status).toBe("scheduled");
  });

  it("scores by hand, marks it and its booking completed in one go, and then refuses edits", async () => {
    const p = await property();
    const bookingId = await booking(p.id);
    const i = await start(p.id);
    expect(i.bookingId).toBe(bookingId);
    const done = await ctx.container.inspections.complete(i.id, small);
    // Roof: (100×15 + 40×20) / 35 = 65.714…; Attic: 70. Overall: (65.714…×7 + 70×4) / 11 = 740 / 11 = 67.27 → 67.
    expect(done).toMatchObject({ status: "completed", overallScore: 67 });
    expect(done.completedAt).toBeTruthy();
    expect((await ctx.db("inspection_bookings").where({ id: bookingId }).first()).status).toBe("completed");
    expect(await entries(i.id)).toHaveLength(4);

    // A retried completion that changes nothing is answered; any change is a 409.
    expect(await ctx.container.inspections.complete(i.id, small)).toMatchObject({
      status: "completed",
      overallScore: 67,
    });
    await expect(
      ctx.container.inspections.saveEntries(i.id, [{ categoryName: "Roof", subcategoryName: "Shingles", score: 7 }]),
    ).rejects.toMatchObject({ status: 409, message: COMPLETED_MESSAGE });
    await expect(
      ctx.container.inspections.saveEntries(i.id, [{ categoryName: "HVAC", subcategoryName: "Thermostat", score: 7 }]),
    ).rejects.toMatchObject({ status: 409 });
    const { body } = await staff.agent.get(`/api/inspections/${i.id}`).expect(200);
    expect(body).toMatchObject({ status: "completed", overallScore: 67, bookingId, scheduledDate: "2026-03-10" });
  });
});

describe("the list page /admin/inspections", () => {
  let page: TestContext;
  let agent: Awaited<ReturnType<typeof signInStaff>>["agent"];
  beforeAll(async () => {
    page = await createTestContext();
    ({ agent } = await signInStaff(page));
  });
  afterAll(() => page.close());

  const html = async (url: string, headers: Record<string, string> = {}) =>
    (await agent.get(url).set(headers).expect(200)).text;

  it("shows the empty state with 'Create First Inspection'", async () => {
    const body = await html("/admin/inspections");
    expect(body).toContain("New Property Inspection");
    expect(body).toContain("No Inspections Found");
    expect(body).toContain('href="/admin/inspections/new"');
    expect(body).toContain("Create First Inspection");
  });

  it("shows tiers, statuses, Generate Report only when completed, filters and pages on the server", async () => {
    const { property: p } = await page.container.customers.createWithProperty(
      { email: "amelie@example.ca", name: "Amélie Côté", phone: "613-555-0142", subscriptionPlan: "premium" },
      { address: "14 Rue Dussère", city: "Orléans", province: "ON", postalCode: "K1C 2B4" },
    );
    const ids: Record<string, number> = {};
    for (const [key, score] of [
      ["gold", 10],
      ["silver", 7],
      ["bronze", 4],
    ] as const) {
      const i = await page.container.inspections.create({ propertyId: p.id, inspectionDate: "2026-05-01" }, null);
      await page.container.inspections.complete(i.id, [{ categoryName: "Roof", subcategoryName: "Shingles", score }]);
      ids[key] = i.id;
    }
    ids.open = (await page.container.inspections.create({ propertyId: p.id, inspectionDate: "2026-05-02" }, null)).id;
    const body = await html("/admin/inspections");
    for (const column of ["Property", "Inspection Date", "Status", "Score", "Actions"])
      expect(body).toContain(`<th scope="col">${column}</th>`);
    const row = (id: number) =>
      body.slice(
        body.indexOf(`data-inspection-id="${id}"`),
        body.indexOf("</tr>", body.indexOf(`data-inspection-id="${id}"`)),
      );
    expect(row(ids.gold!)).toContain(">Gold<");
    expect(row(ids.silver!)).toContain(">Silver<");
    expect(row(ids.bronze!)).toContain(">Bronze<");
    expect(row(ids.open!)).toContain('aria-label="No score">-<');
    expect(row(ids.gold!)).toContain("Generate Report");
    expect(row(ids.open!)).not.toContain("Generate Report");
    expect(row(ids.open!)).toContain(`href="/admin/inspections/edit/${ids.open}"`);
    expect(row(ids.open!)).toContain(`href="/admin/inspections/view/${ids.open}"`);
    expect(row(ids.open!)).toContain(`href="/admin/property-history/${p.id}"`);
    expect(body).toContain("Orléans");

    const filtered = await html("/admin/inspections?status=in_progress");
    expect(filtered.match(/data-testid="inspection-row"/g)).toHaveLength(1);
    expect(filtered).toContain(`data-inspection-id="${ids.open}"`);
    // htmx asks for the results alone.
    const fragment = await html("/admin/inspections?status=completed", {
      "HX-Request": "true",
      "HX-Target": "inspections-results",
    });
    expect(fragment.startsWith('<div id="inspections-results"') || fragment.includes('id="inspections-results"')).toBe(
      true,
    );
    expect(fragment).not.toContain("<html");
    expect(fragment.match(/data-testid="inspection-row"/g)).toHaveLength(3);
    // A bad filter or page falls back to all, page 1.
    expect((await html("/admin/inspections?status=bogus&page=-2")).match(/data-testid="inspection-row"/g)).toHaveLength(
      4,
    );

    for (let k = 0; k < 20; k++)
      await page.container.inspections.create({ propertyId: p.id, inspectionDate: "2026-05-03" }, null);
    const first = await html("/admin/inspections");
    expect(first.match(/data-testid="inspection-row"/g)).toHaveLength(20);
    expect(first).toContain("Page 1 of 2");
    const second = await html("/admin/inspections?page=2");
    expect(second.match(/data-testid="inspection-row"/g)).toHaveLength(4);
    expect(second).toContain(`data-inspection-id="${ids.gold}"`);
  });

  it("Generate Report without script redirects back with the outcome; with htmx it swaps the results with the toast", async () => {
    const [completed] = (await page.container.inspections.list({ status: "completed", limit: 1, offset: 0 })).rows;
    const noScript = await agent
      .post(`/admin/inspections/${completed!.id}/generate-report?status=completed`)
      .expect(303);
    expect(noScript.headers.location).toBe("/admin/inspections?status=completed&report=ok");
    const shown = await html(noScript.headers.location!);
    expect(shown).toContain("Report generated successfully");
    // A second report for the same inspection is refused by the reports module: the failure toast.
    const again = await agent
      .post(`/admin/inspections/${completed!.id}/generate-report`)
      .set({ "HX-Request": "true", "HX-Target": "inspections-results" })
      .expect(200);
    expect(again.text).toContain("Failed to generate report");
    expect(again.text).toContain('role="alert"');
    const view = await html(`/admin/inspections/view/${completed!.id}`);
    expect(view).toContain("Roof");
    expect(view).toContain("Shingles");
    await agent.get("/admin/inspections/view/999999").expect(404);
  });
});
