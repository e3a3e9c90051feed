// An inspector reads only the homes of their own bookings and inspections (the inspection form's picker), and
// puts on their entries only photos they sent, never another inspector's (docs/decisions.md#36).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffRole } from "../../src/http/roles.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { completedInspection, newProperty, photo, quickEntries } from "./reports-fixtures.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function signInAs(role: StaffRole) {
  const agent = ctx.agent();
  const email = `${role}-${randomBytes(3).toString("hex")}@haven.test`;
  const password = "correct horse battery";
  const user = await ctx.container.users.create({ email, password, firstName: "Robin", lastName: "Scope", role });
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return { agent, user };
}

const idsOf = (body: { id: number }[]) => body.map((p) => p.id).sort((a, b) => a - b);

describe("GET /api/properties for an inspector", () => {
  it("lists and opens only the homes of their own bookings and inspections; the office sees every home", async () => {
    const mine = await signInAs("inspector");
    const theirs = await signInAs("inspector");
    const office = await signInAs("office");
    const booked = await newProperty(ctx.container);
    const inspected = await completedInspection(ctx.container, quickEntries(), { inspectorId: mine.user.id });
    const others = await completedInspection(ctx.container, quickEntries(), { inspectorId: theirs.user.id });
    const nobodys = await newProperty(ctx.container);
    await ctx.db("inspection_bookings").insert({
      property_id: booked.id,
      customer_id: booked.customerId,
      scheduled_date: "2026-12-01",
      time_slot: "morning",
      access_method: "home",
      status: "scheduled",
      source: "wizard",
      inspector_id: mine.user.id,
      during: ctx.db.raw("tstzrange(?, ?)", ["2026-12-01T13:00:00Z", "2026-12-01T16:00:00Z"]),
    });

    const list = await mine.agent.get("/api/properties").expect(200);
    expect(idsOf(list.body)).toEqual([booked.id, inspected.propertyId].sort((a, b) => a - b));
    expect(list.headers["x-total-count"]).toBe("2");
    // The picker's search stays within them.
    const searched = await mine.agent.get("/api/properties").query({ q: booked.address }).expect(200);
    expect(idsOf(searched.body)).toEqual([booked.id]);

    await mine.agent.get(`/api/properties/${booked.id}`).expect(200);
    await mine.agent.get(`/api/properties/${inspected.propertyId}`).expect(200);
    for (const id of [others.propertyId, nobodys.id]) {
      const refused = await mine.agent.get(`/api/properties/${id}`).expect(403);
      expect(refused.body.message).toBe("Your role (inspector) cannot open the homes of other inspectors' visits.");
    }

    // An inspector with no work sees no home.
    const idle = await signInAs("inspector");
    const none = await idle.agent.get("/api/properties").expect(200);
    expect(none.body).toEqual([]);
    expect(none.headers["x-total-count"]).toBe("0");

    const all = await office.agent.get("/api/properties").query({ limit: 500 }).expect(200);
    expect(idsOf(all.body)).toEqual(
      expect.arrayContaining([booked.id, inspected.propertyId, others.propertyId, nobodys.id]),
    );
    await office.agent.get(`/api/properties/${nobodys.id}`).expect(200);
  });
});

describe("photos on an inspector's entries", () => {
  it("takes photos they sent, refuses one of another inspector's inspection and writes nothing", async () => {
    const mine = await signInAs("inspector");
    const theirs = await signInAs("inspector");
    const property = await newProperty(ctx.container);
    const own = await ctx.container.inspections.create(
      { propertyId: property.id, inspectionDate: "2026-11-20" },
      mine.user.id,
    );
    // Another inspector's inspection holds a photo on one of its entries.
    const othersPhoto = await photo(ctx.container, 41);
    const other = await ctx.container.inspections.create(
      { propertyId: (await newProperty(ctx.container)).id, inspectionDate: "2026-11-20" },
      theirs.user.id,
    );
    await ctx.container.inspections.saveEntries(other.id, [
      { categoryName: "Roof", subcategoryName: "Gutters", score: 7, photoIds: [othersPhoto] },
    ]);

    const sent = await photo(ctx.container, 42);
    const entry = { inspectionId: own.id, categoryName: "Plumbing", subcategoryName: "Pressure and Flow", score: 10 };
    await mine.agent
      .post("/api/inspection-categories")
      .send([{ ...entry, photos: [`/api/photos/${sent}`] }])
      .expect(200);
    // Saving again with the same photo (now on their own inspection) still works.
    await mine.agent
      .post("/api/inspection-categories")
      .send([{ ...entry, photos: [`/api/photos/${sent}`] }])
      .expect(200);

    const before = await ctx.db("inspection_entry_photos").count<{ n: string }[]>({ n: "*" });
    for (const body of [
      [{ ...entry, subcategoryName: "Hot Water System", photos: [`/api/photos/${othersPhoto}`] }],
      [{ ...entry, subcategoryName: "Hot Water System", photoIds: [othersPhoto] }],
    ]) {
      const refused = await mine.agent.post("/api/inspection-categories").send(body).expect(403);
      expect(refused.body.message).toBe("Your role (inspector) cannot use another inspector's photos.");
    }
    await mine.agent
      .post("/api/inspection-categories/bulk-complete")
      .send([{ ...entry, photos: [`/api/photos/${othersPhoto}`] }])
      .expect(403);
    expect(await ctx.db("inspection_entry_photos").count<{ n: string }[]>({ n: "*" })).toEqual(before);
    // Nor can they then read it.
    await mine.agent.get(`/api/photos/${othersPhoto}`).expect(403);

    // The office may move any photo (not an inspector's rule).
    const office = await signInAs("office");
    await office.agent
      .post("/api/inspection-categories")
      .send([{ ...entry, subcategoryName: "Hot Water System", photos: [`/api/photos/${othersPhoto}`] }])
      .expect(200);
  });
});
