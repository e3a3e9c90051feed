import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
let n = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = await signInStaff(ctx);
});
afterAll(() => ctx.close());

async function newInspection(withBooking = false) {
  n++;
  const { property } = await ctx.container.customers.createWithProperty(
    { email: `entries${n}@example.ca`, name: `Owner ${n}`, phone: "613-555-0100", subscriptionPlan: "standard" },
    { address: `${n} Bank Street`, city: "Ottawa", province: "ON", postalCode: "K1P 5N2" },
  );
  let bookingId: number | null = null;
  if (withBooking) {
    const { customer_id } = await ctx.db("properties").where({ id: property.id }).first("customer_id");
    const [row] = await ctx
      .db("inspection_bookings")
      .insert({
        property_id: property.id,
        customer_id,
        scheduled_date: "2026-03-10",
        time_slot: "09:00 AM",
        source: "booking-page",
        status: "scheduled",
      })
      .returning("id");
    bookingId = row.id;
  }
  const { body } = await staff.agent
    .post("/api/inspections")
    .send({ propertyId: property.id, status: "in_progress", inspectionDate: "2026-03-10" })
    .expect(201);
  return { id: body.id as number, bookingId };
}

type Score = 10 | 7 | 4 | 1 | null;
const entry = (
  inspectionId: number,
  categoryName: string,
  subcategoryName: string,
  score: Score,
  over: Record<string, unknown> = {},
) => ({
  inspectionId,
  categoryName,
  subcategoryName,
  score,
  notes: null as string | null,
  urgent: false,
  photos: [] as string[],
  ...over,
});

const stored = (inspectionId: number) =>
  ctx
    .db("inspection_entries")
    .where({ inspection_id: inspectionId })
    .orderBy("id")
    .select("category_name", "subcategory_name", "score", "notes", "urgent", "updated_at");

const png = (seed: number) =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: seed, g: 120, b: 40 } } })
    .png()
    .toBuffer();

describe("POST /api/inspection-categories", () => {
  it("saves chunks of 5 as upserts: a retried chunk changes nothing, a later chunk leaves earlier entries alone", async () => {
    const { id } = await newInspection();
    const attic = ["Access", "Insulation", "Ventilation", "Moisture", "Pest Intrusion"].map((s, i) =>
      entry(id, "Attic", s, ([10, 7, 4, 1, null] as Score[])[i]!, { notes: i === 4 ? "No attic hatch" : null }),
    );
    const first = await staff.agent.post("/api/inspection-categories").send(attic).expect(200);
    expect(first.body).toEqual({ saved: 5 });
    const once = await stored(id);
    expect(once.map((r) => [r.subcategory_name, r.score, r.notes])).toEqual([
      ["Access", 10, null],
      ["Insulation", 7, null],
      ["Ventilation", 4, null],
      ["Moisture", 1, null],
      ["Pest Intrusion", null, "No attic hatch"],
    ]);

    // The same chunk again (the phone never saw the answer): same rows, same values.
    await staff.agent.post("/api/inspection-categories").send(attic).expect(200);
    const twice = await stored(id);
    expect(twice.map((r) => [r.subcategory_name, r.score, r.notes])).toEqual(
      once.map((r) => [r.subcategory_name, r.score, r.notes]),
    );

    // A second device saves other entries and one changed score: nothing else moves.
    await staff.agent
      .post("/api/inspection-categories")
      .send([
        entry(id, "Roof", "Shingles", 7),
        entry(id, "Attic", "Access", 4, { urgent: true, notes: "Hatch cracked" }),
      ])
      .expect(200);
    const after = await stored(id);
    expect(after).toHaveLength(6);
    expect(after.find((r) => r.subcategory_name === "Access")).toMatchObject({
      score: 4,
      urgent: true,
      notes: "Hatch cracked",
    });
    expect(after.find((r) => r.subcategory_name === "Insulation")).toMatchObject({ score: 7, urgent: false });
    expect(after.find((r) => r.subcategory_name === "Shingles")).toMatchObject({ score: 7, category_name: "Roof" });
  });

  it("links photos given as URLs (in order) and stores embedded image data strings once", async () => {
    const { id } = await newInspection();
    const uploaded = await staff.agent
      .post("/api/photos")
      .set("Content-Type", "image/png")
      .send(await png(1))
      .expect(201);
    const dataUrl = `data:image/png;base64,${(await png(2)).toString("base64")}`;
    const photosBefore = Number((await ctx.db("photos").count("* as c").first())!.c);
    await staff.agent
      .post("/api/inspection-categories")
      .send([
        entry(id, "Plumbing", "Sump Pump", 4, { photos: [dataUrl, uploaded.body.url] }),
        entry(id, "Plumbing", "Hydronics", 7, { photos: [dataUrl] }),
      ])
      .expect(200);
    expect(Number((await ctx.db("photos").count("* as c").first())!.c)).toBe(photosBefore + 1);
    const { body } = await staff.agent.get(`/api/inspections/${id}`).expect(200);
    const plumbing = body.categories.find((c: { categoryName: string }) => c.categoryName === "Plumbing").entries;
    const sump = plumbing.find((e: { subcategoryName: string }) => e.subcategoryName === "Sump Pump");
    const hydronics = plumbing.find((e: { subcategoryName: string }) => e.subcategoryName === "Hydronics");
    expect(sump.photos).toHaveLength(2);
    expect(sump.photos[1]).toBe(uploaded.body.url);
    expect(hydronics.photos).toEqual([sump.photos[0]]);

    // Photos given again replace the list (a deleted photo leaves the entry).
    await staff.agent
      .post("/api/inspection-categories")
      .send([entry(id, "Plumbing", "Sump Pump", 4, { photos: [uploaded.body.url] })])
      .expect(200);
    const again = await staff.agent.get(`/api/inspections/${id}`).expect(200);
    const sumpAgain = again.body.categories
      .find((c: { categoryName: string }) => c.categoryName === "Plumbing")
      .entries.find((e: { subcategoryName: string }) => e.subcategoryName === "Sump Pump");
    expect(sumpAgain.photos).toEqual([uploaded.body.url]);
  });

  it("names every invalid field with a 400 and writes nothing", async () => {
    const { id } = await newInspection();
    const bad = async (payload: unknown, ...fields: string[]) => {
      const { body } = await staff.agent
        .post("/api/inspection-categories")
        .send(payload as object)
        .expect(400);
      for (const field of fields) expect(body.fields, JSON.stringify(body)).toHaveProperty([field]);
      return body;
    };
    await bad([entry(id, "Attic", "Access", 5 as Score)], "0.score");
    await bad([entry(id, "Attic", "Access", 10), entry(id, "Garage", "Door", 7)], "1.categoryName");
    await bad([entry(id, "Attic", "Basement Door", 7)], "0.subcategoryName");
    await bad([entry(id, "Attic", "Access (Kitchen 2)", 7)], "0.subcategoryName");
    await bad([entry(id, "Exterior Envelope", "Type of Cladding", 7)], "0.score");
    await bad([entry(id, "Attic", "Access", 10, { photos: ["https://elsewhere.example/cat.jpg"] })], "0.photos.0");
    await bad([entry(id, "Attic", "Access", 10, { photos: ["/api/photos/987654"] })], "0.photos.0");
    await bad([entry(id, "Attic", "Access", 10, { photos: ["data:image/png;base64,AAAA"] })], "0.photos.0");
    await bad([entry(id, "Attic", "Access", 10, { urgent: "yes" })], "0.urgent");
    await bad([entry(id, "Attic", "Access", 10), { ...entry(id + 1000, "Attic", "Insulation", 10) }], "1.inspectionId");
    await bad([{ categoryName: "Attic", subcategoryName: "Access", score: 10 }], "0.inspectionId");
    await bad({ inspectionId: id }, "_");
    await bad([], "_");
    expect(await stored(id)).toEqual([]);
    // Description only: notes and no score is fine.
    await staff.agent
      .post("/api/inspection-categories")
      .send([entry(id, "Exterior Envelope", "Type of Cladding", null, { notes: "Brick veneer" })])
      .expect(200);
    await staff.agent
      .post("/api/inspection-categories")
      .send([entry(987654, "Attic", "Access", 10)])
      .expect(404);
  });
});

describe("POST /api/inspection-categories/bulk-complete", () => {
  it("refuses an entry without a score (400 naming it) and leaves the inspection in progress", async () => {
    const { id } = await newInspection();
    const { body } = await staff.agent
      .post("/api/inspection-categories/bulk-complete")
      .send([entry(id, "Attic", "Access", 10), entry(id, "Attic", "Insulation", null, { notes: "Could not see" })])
      .expect(400);
    expect(body.fields).toHaveProperty(["1.score"]);
    expect(body.message).toContain("Insulation");
    const inspection = await staff.agent.get(`/api/inspections/${id}`).expect(200);
    expect(inspection.body.status).toBe("in_progress");
    expect(await stored(id)).toEqual([]);
  });

  it("completes in one go: every entry saved, the overall score by the shared formula, the booking completed", async () => {
    const { id, bookingId } = await newInspection(true);
    // Saved earlier in a chunk, then everything is sent again at completion.
    await staff.agent
      .post("/api/inspection-categories")
      .send([entry(id, "Attic", "Access", 7)])
      .expect(200);
    const all = [
      entry(id, "Attic", "Access", 10),
      entry(id, "Attic", "Insulation", 4, { urgent: true, notes: "Thin in the eaves" }),
      entry(id, "Roof", "Shingles", 7),
      entry(id, "Exterior Envelope", "Type of Cladding", null, { notes: "Vinyl siding" }),
    ];
    const { body } = await staff.agent.post("/api/inspection-categories/bulk-complete").send(all).expect(200);
    // By hand (docs/decisions.md#2): Attic = (100·10 + 40·25) / 35 = 57.14; Roof = 70;
    // overall = (57.14·4 + 70·7) / (4 + 7) = 65.32 → 65. Cladding (weight 0) never counts.
    expect(body).toMatchObject({ id, status: "completed", overallScore: 65 });
    expect(body.completedAt).toBeTruthy();
    const rows = await stored(id);
    expect(rows.map((r) => [r.subcategory_name, r.score])).toEqual([
      ["Access", 10],
      ["Insulation", 4],
      ["Shingles", 7],
      ["Type of Cladding", null],
    ]);
    expect((await ctx.db("inspection_bookings").where({ id: bookingId }).first("status")).status).toBe("completed");

    // A retried completion (the answer was lost) is answered the same; a change is a 409.
    const retry = await staff.agent.post("/api/inspection-categories/bulk-complete").send(all).expect(200);
    expect(retry.body).toMatchObject({ id, status: "completed", overallScore: 65 });
    await staff.agent
      .post("/api/inspection-categories")
      .send([entry(id, "Roof", "Shingles", 1)])
      .expect(409);
  });

  it("accepts the repeated rooms' suffixes and pools them into their category", async () => {
    const { id } = await newInspection();
    const { body } = await staff.agent
      .post("/api/inspection-categories/bulk-complete")
      .send([
        entry(id, "Kitchens & Wet Bars", "Dishwasher", 10),
        entry(id, "Kitchens & Wet Bars", "Dishwasher (Kitchen 2)", 4),
        entry(id, "Laundry Room", "Washer / Dryer (Laundry 2)", 7),
      ])
      .expect(200);
    // Kitchens = (100·10 + 40·10) / 20 = 70; Laundry = 70; overall 70.
    expect(body.overallScore).toBe(70);
  });
});

describe("staff session", () => {
  it("both calls refuse a request without one (401) and write nothing", async () => {
    const { id } = await newInspection();
    const anon = ctx.agent();
    await anon
      .post("/api/inspection-categories")
      .send([entry(id, "Attic", "Access", 10)])
      .expect(401);
    await anon
      .post("/api/inspection-categories/bulk-complete")
      .send([entry(id, "Attic", "Access", 10)])
      .expect(401);
    expect(await stored(id)).toEqual([]);
  });
});
