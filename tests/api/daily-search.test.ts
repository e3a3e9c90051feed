import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { completedInspection, quickEntries } from "./reports-fixtures.js";

// property search matches phone numbers and postal codes; inspections are searchable
// by client and address on their page; the property history opens with its inspection and report links.
let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];
let target: { id: number; inspectionId: number };
let other: { id: number; inspectionId: number };

async function home(address: string, name: string, phone: string, postalCode: string) {
  const { property } = await ctx.container.customers.createWithProperty(
    { email: `${name.split(" ")[0]!.toLowerCase()}@example.ca`, name, phone, subscriptionPlan: "standard" },
    { address, city: "Ottawa", province: "ON", postalCode },
  );
  const { inspectionId } = await completedInspection(ctx.container, quickEntries(), { propertyId: property.id });
  return { id: property.id, inspectionId };
}

beforeAll(async () => {
  ctx = await createTestContext();
  staff = (await signInStaff(ctx)).agent;
  target = await home("240 Sparks Street", "Amélie Tremblay", "613-555-0142", "K1P 5B2");
  other = await home("88 Bank Street", "Noah Singh", "819-555-0199", "J8X 3X7");
});
afterAll(() => ctx?.close());

const propertyIds = async (q: string) =>
  ((await staff.get(`/api/properties?${new URLSearchParams({ q })}`).expect(200)).body as { id: number }[]).map(
    (p) => p.id,
  );
const inspectionIdsOnPage = async (q: string) =>
  [
    ...(await staff.get(`/admin/inspections?${new URLSearchParams({ q })}`).expect(200)).text.matchAll(
      /data-inspection-id="(\d+)"/g,
    ),
  ].map((m) => Number(m[1]));

describe("property search", () => {
  it("matches the client's phone number however it is typed", async () => {
    for (const q of ["613-555-0142", "6135550142", "(613) 555-0142", "+1 613 555 0142", "555-0142"])
      expect(await propertyIds(q), q).toEqual([target.id]);
  });

  it("matches the postal code with or without its space, in any case", async () => {
    for (const q of ["K1P 5B2", "k1p5b2", "K1P5B2", "k1p 5b2"]) expect(await propertyIds(q), q).toEqual([target.id]);
    expect(await propertyIds("J8X")).toEqual([other.id]);
  });

  it("the properties page finds them too", async () => {
    const page = (await staff.get("/admin/properties?q=613-555-0142").expect(200)).text;
    expect(page).toContain("240 Sparks Street");
    expect(page).not.toContain("88 Bank Street");
  });
});

describe("inspections search", () => {
  it("the list page finds inspections by client, address, phone and postal code, and keeps the search in its links", async () => {
    for (const q of ["Amélie", "amelie tremblay", "240 Sparks", "613 555 0142", "K1P 5B2"])
      expect(await inspectionIdsOnPage(q), q).toEqual([target.inspectionId]);
    expect(await inspectionIdsOnPage("Bank Street")).toEqual([other.inspectionId]);
    const page = (await staff.get("/admin/inspections?q=Amélie").expect(200)).text;
    expect(page).toMatch(/<input id="inspection-q" name="q" type="search" value="Amélie"/);
    const none = (await staff.get("/admin/inspections?q=nobody-here").expect(200)).text;
    expect(none).toContain("No inspection matches “nobody-here”.");
  });

  it("counts a common term's matches to 1,000 (docs/decisions.md#77): '1000+', and its pages newest first go on while full", async () => {
    const bulk = (
      await ctx.db.raw(
        `insert into inspections (property_id, inspection_date, status, created_at)
         select ?, current_date, 'completed', now() - g * interval '1 minute' from generate_series(1, 1050) g returning id`,
        [target.id],
      )
    ).rows.map((r: { id: number }) => r.id);
    try {
      const newestFirst = (
        await ctx
          .db("inspections")
          .where({ property_id: target.id })
          .orderBy([
            { column: "created_at", order: "desc" },
            { column: "id", order: "desc" },
          ])
      ).map((r) => r.id as number);
      const api = await staff.get("/api/inspections?q=amelie&limit=25&offset=25").expect(200);
      expect(api.headers["x-total-count"]).toBe("1000+");
      expect(api.body.map((i: { id: number }) => i.id)).toEqual(newestFirst.slice(25, 50));
      const page = (await staff.get("/admin/inspections?q=Amélie").expect(200)).text;
      expect(page).toMatch(/<strong>1,000\+<\/strong> inspections/);
      expect(page).toMatch(/of 1,000\+ · Page 1 of 50\+/);
      // A rare term still counts exactly.
      const rare = await staff.get("/api/inspections?q=Bank%20Street").expect(200);
      expect(rare.headers["x-total-count"]).toBe("1");
    } finally {
      await ctx.db("inspections").whereIn("id", bulk).delete();
    }
  });

  it("an overlong search is ignored rather than an error", async () => {
    await staff.get(`/admin/inspections?q=${"x".repeat(300)}`).expect(200);
  });
});

describe("property history", () => {
  it("puts the inspection and report links before the scores and the chart", async () => {
    const report = await ctx.container.reports.generate(target.inspectionId);
    const html = (await staff.get(`/admin/property-history/${target.id}`).expect(200)).text;
    const at = (needle: string) => {
      const i = html.indexOf(needle);
      expect(i, needle).toBeGreaterThan(-1);
      return i;
    };
    const links = Math.max(
      at(`href="/admin/inspections/view/${target.inspectionId}"`),
      at(`href="/admin/reports/${report.id}"`),
    );
    expect(links).toBeLessThan(at('aria-label="Scores"'));
    expect(links).toBeLessThan(at('id="chart-title"'));
    expect(at('id="inspections-title"')).toBeGreaterThan(at('data-testid="history-address"'));
  });
});

describe("labels for raw values", () => {
  it("the details dialog names access methods and stored codes in words", async () => {
    const property = await ctx.db("properties").where({ id: target.id }).first();
    await ctx
      .db("properties")
      .where({ id: target.id })
      .update({ foundation_type: "poured_concrete", plumbing_systems: "pex" });
    await ctx.db("inspection_bookings").insert({
      property_id: target.id,
      customer_id: property.customer_id,
      scheduled_date: "2026-04-14",
      time_slot: "10:30 AM",
      access_method: "smart-lock",
      access_code: "2468",
      status: "scheduled",
      source: "wizard",
    });
    const html = (await staff.get(`/admin/properties/${target.id}`).expect(200)).text;
    expect(html).toContain("<dt>Access method</dt><dd>Smart lock / Automated access</dd>");
    expect(html).toContain("<dt>Foundation</dt><dd>Poured Concrete</dd>");
    expect(html).not.toMatch(/smart_lock|poured_concrete/);
  });
});
