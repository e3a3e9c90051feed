import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Property } from "../../src/modules/customers/customers.schemas.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
const made: Property[] = [];

const PLANS = ["free-score", "basic", "standard", "premium"] as const;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = await signInStaff(ctx);
  // 25 properties, one a second apart so "newest first" is unambiguous.
  for (let i = 1; i <= 25; i++) {
    const { property } = await ctx.container.customers.createWithProperty(
      {
        email: `client${i}@example.ca`,
        name: i === 7 ? "Zoë O'Malley" : `Client ${i}`,
        phone: `613-555-01${String(i).padStart(2, "0")}`,
        subscriptionPlan: PLANS[i % 4]!,
      },
      {
        address: i === 12 ? "12 100%_Pure Lane" : `${i} Wellington Street`,
        city: "Ottawa",
        province: "ON",
        postalCode: "K1A 0A9",
        squareFootage: 1000 + i,
        yearBuilt: 1950 + i,
      },
    );
    await ctx
      .db("properties")
      .where({ id: property.id })
      .update({ created_at: new Date(Date.UTC(2026, 0, 1, 12, 0, i)) });
    made.push(property);
  }
});
afterAll(() => ctx.close());

async function booking(
  property: Property,
  options: { accessMethod?: string | null; status?: string; date?: string; createdAt?: Date } = {},
) {
  const [row] = await ctx
    .db("inspection_bookings")
    .insert({
      property_id: property.id,
      customer_id: property.customerId,
      scheduled_date: options.date ?? "2026-04-14",
      time_slot: "10:30 AM",
      access_method: options.accessMethod === undefined ? "lockbox" : options.accessMethod,
      access_code: "4321",
      status: options.status ?? "scheduled",
      source: "wizard",
      ...(options.createdAt && { created_at: options.createdAt }),
    })
    .returning("id");
  return row.id as number;
}

/** A browser holding only a customer session: it booked through the wizard. */
async function customerBrowser(email: string) {
  const agent = ctx.agent();
  const { body } = await agent
    .post("/api/inspection-bookings")
    .send({
      propertyAddress: "9 Elgin Street, Ottawa, ON K1P 5W1",
      propertyType: "condo",
      propertySize: "900",
      firstName: "Robin",
      lastName: "Owner",
      email,
      phone: "613-555-0177",
      scheduledDate: ctx.container.bookings.calendar().minDate,
      timeSlot: "9:00 AM",
      accessMethod: "smart-lock",
      accessCode: "2468",
    })
    .expect(201);
  return { agent, booking: body as { id: number; propertyId: number; customerId: number } };
}

describe("GET /api/properties for staff", () => {
  it("lists every property newest first, 100 by default, with the full count in X-Total-Count", async () => {
    const res = await staff.agent.get("/api/properties").expect(200);
    expect(res.headers["x-total-count"]).toBe("25");
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((p: Property) => p.id)).toEqual([...made].reverse().map((p) => p.id));
    const first = res.body[0] as Property;
    expect(first).toMatchObject({
      address: "25 Wellington Street",
      clientName: "Client 25",
      clientEmail: "client25@example.ca",
      squareFootage: 1025,
      yearBuilt: 1975,
      subscriptionPlan: "basic",
    });
  });

  it("pages with limit and offset; the count stays the full count", async () => {
    const page1 = await staff.agent.get("/api/properties?limit=10").expect(200);
    const page3 = await staff.agent.get("/api/properties?limit=10&offset=20").expect(200);
    expect(page1.body).toHaveLength(10);
    expect(page3.body).toHaveLength(5);
    expect(page3.headers["x-total-count"]).toBe("25");
    expect(page3.body.at(-1).id).toBe(made[0]!.id);
    const beyond = await staff.agent.get("/api/properties?offset=500").expect(200);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers["x-total-count"]).toBe("25");
  });

  it("searches the address, city, the client's name and e-mail, without case or accents; % and _ are plain characters", async () => {
    const byAddress = await staff.agent.get("/api/properties").query({ q: "7 wellington" }).expect(200);
    expect(byAddress.body.map((p: Property) => p.address).sort()).toEqual([
      "17 Wellington Street",
      "7 Wellington Street",
    ]);
    const byName = await staff.agent.get("/api/properties").query({ q: "zoë o'malley" }).expect(200);
    expect(byName.body.map((p: Property) => p.id)).toEqual([made[6]!.id]);
    // Without the accent, or in capitals, the same client.
    for (const q of ["ZOE O'MALLEY", "zoe"])
      expect(
        (await staff.agent.get("/api/properties").query({ q }).expect(200)).body.map((p: Property) => p.id),
      ).toEqual([made[6]!.id]);
    expect((await staff.agent.get("/api/properties").query({ q: "ottawa" }).expect(200)).headers["x-total-count"]).toBe(
      "25",
    );
    // Blank is no search.
    expect((await staff.agent.get("/api/properties").query({ q: "   " }).expect(200)).headers["x-total-count"]).toBe(
      "25",
    );
    const byEmail = await staff.agent.get("/api/properties").query({ q: "CLIENT2" }).expect(200);
    expect(byEmail.headers["x-total-count"]).toBe("7"); // client2, client20 … client25
    const literal = await staff.agent.get("/api/properties").query({ q: "100%_" }).expect(200);
    expect(literal.body.map((p: Property) => p.id)).toEqual([made[11]!.id]);
    const wildcard = await staff.agent.get("/api/properties").query({ q: "%" }).expect(200);
    expect(wildcard.body.map((p: Property) => p.id)).toEqual([made[11]!.id]);
  });

  it("refuses a bad limit, offset or search with a 400 naming the field", async () => {
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=501", "limit"],
      ["limit=abc", "limit"],
      ["limit=2.5", "limit"],
      ["offset=-1", "offset"],
      [`q=${"x".repeat(201)}`, "q"],
      ["q=a&q=b", "q"],
    ] as const) {
      const res = await staff.agent.get(`/api/properties?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.fields ?? {}), query).toContain(field);
    }
  });

  it("GET /api/properties/{id}: any property for staff; bad ids 400, unknown 404", async () => {
    const res = await staff.agent.get(`/api/properties/${made[3]!.id}`).expect(200);
    expect(res.body).toMatchObject({ id: made[3]!.id, address: "4 Wellington Street" });
    for (const bad of ["abc", "0", "-3", "1.5", "2147483648"])
      expect((await staff.agent.get(`/api/properties/${bad}`)).status, bad).toBe(400);
    await staff.agent.get("/api/properties/2147483647").expect(404);
  });
});

describe("a customer's browser", () => {
  it("sees only its own properties and bookings, and no one else's by id", async () => {
    const { agent, booking } = await customerBrowser("robin@example.ca");
    const list = await agent.get("/api/properties").expect(200);
    expect(list.body.map((p: Property) => p.id)).toEqual([booking.propertyId]);
    await agent.get(`/api/properties/${booking.propertyId}`).expect(200);
    await agent.get(`/api/properties/${made[0]!.id}`).expect(404);
    const bookings = await agent.get("/api/inspection-bookings").expect(200);
    expect(bookings.body.map((b: { id: number }) => b.id)).toEqual([booking.id]);
    // A customer sees its own words for the access method.
    expect(bookings.body[0].accessMethod).toBe("smart-lock");
    // Anonymous: nothing.
    expect((await ctx.agent().get("/api/properties").expect(200)).body).toEqual([]);
    // Staff API stays closed to it.
    await agent.get("/api/dashboard/stats").expect(401);
    await ctx.db("inspection_bookings").where({ id: booking.id }).del();
    await ctx.db("properties").where({ id: booking.propertyId }).del();
  });
});

describe("GET /api/inspection-bookings for staff", () => {
  it("lists every booking newest first with the client fields joined and the admin access labels", async () => {
    const methods: [string | null, string | null][] = [
      ["meet-inspector", "meet"],
      ["lockbox", "lockbox"],
      ["smart-lock", "smart_lock"],
      ["owner-present", "meet"],
      ["key-code", "smart_lock"],
      [null, null],
    ];
    const ids: number[] = [];
    for (const [i, [method]] of methods.entries())
      ids.push(await booking(made[i]!, { accessMethod: method, createdAt: new Date(Date.UTC(2026, 1, 1, 9, i)) }));
    const res = await staff.agent.get("/api/inspection-bookings").expect(200);
    expect(res.headers["x-total-count"]).toBe("6");
    expect(res.body.map((b: { id: number }) => b.id)).toEqual([...ids].reverse());
    const oldest = res.body.at(-1);
    expect(oldest).toMatchObject({
      propertyId: made[0]!.id,
      scheduledDate: "2026-04-14",
      timeSlot: "10:30 AM",
      preferredTime: "10:30 AM",
      accessCode: "4321",
      status: "scheduled",
      clientName: "Client 1",
      clientEmail: "client1@example.ca",
      clientPhone: "613-555-0101",
      preferredContact: null,
      subscriptionPlan: "basic",
    });
    expect([...res.body].reverse().map((b: { accessMethod: string | null }) => b.accessMethod)).toEqual(
      methods.map(([, label]) => label),
    );

    const paged = await staff.agent.get("/api/inspection-bookings?limit=2&offset=1").expect(200);
    expect(paged.body.map((b: { id: number }) => b.id)).toEqual([ids[4], ids[3]]);
    const found = await staff.agent.get("/api/inspection-bookings").query({ q: "client3@" }).expect(200);
    expect(found.body.map((b: { id: number }) => b.id)).toEqual([ids[2]]);
    expect((await staff.agent.get("/api/inspection-bookings?limit=999")).status).toBe(400);
  });
});

describe("the customer properties page", () => {
  it("redirects without a session", async () => {
    for (const path of ["/admin/properties", "/admin/properties-simple", `/admin/properties/${made[0]!.id}`]) {
      const res = await ctx.agent().get(path).expect(302);
      expect(res.headers.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
  });

  it("shows the title, the count, 20 cards with every field, the plan badge and the inspection", async () => {
    await ctx.db("properties").where({ id: made[24]!.id }).update({ subscription_plan: "platinum" });
    await booking(made[23]!, { status: "completed", date: "2026-02-03" });
    for (const path of ["/admin/properties", "/admin/properties-simple"]) {
      const html = (await staff.agent.get(path).expect(200)).text;
      expect(html).toContain("Customer Properties");
      expect(html).toMatch(/data-testid="property-total">\s*<strong>25<\/strong> properties/);
      expect(html).toContain("data-refresh");
      const cards = html.split('data-testid="property-card"').slice(1);
      expect(cards).toHaveLength(20);
      // Newest first: 25 (plan outside the list → Unknown), then 24 (completed booking).
      expect(cards[0]).toContain("25 Wellington Street");
      expect(cards[0]).toMatch(/class="plan-badge plan-unknown"[^>]*>Unknown</);
      expect(cards[0]).toContain("Not scheduled");
      expect(cards[1]).toMatch(/Tue, Feb\.? 3, 2026/);
      expect(cards[1]).toMatch(/badge badge-green">Completed</);
      expect(cards[1]).toMatch(/class="plan-badge plan-free-score"[^>]*>Free Score</);
      expect(cards[2]).toMatch(/class="plan-badge plan-premium"[^>]*>Premium</);
      for (const text of [
        "Ottawa, ON K1A 0A9",
        "1,023 sq ft",
        "1973",
        `#${made[22]!.id}`,
        "Client 23",
        "client23@example.ca",
        "613-555-0123",
        "Created",
      ])
        expect(cards[2]).toContain(text);
      expect(cards[2]).toContain(`href="/admin/property-history/${made[22]!.id}"`);
      expect(cards[2]).toContain(`hx-get="/admin/properties/${made[22]!.id}"`);
      expect(html).toContain("Page 1 of 2");
      expect(html).toContain('<dialog id="property-dialog"');
    }
  });

  it("pages, searches and refreshes on the server; htmx gets only the results", async () => {
    const page2 = (await staff.agent.get("/admin/properties?page=2").expect(200)).text;
    expect(page2.split('data-testid="property-card"')).toHaveLength(6);
    expect(page2).toContain("Showing 21–25 of 25");
    const fragment = await staff.agent
      .get("/admin/properties?q=wellington&page=2")
      .set("HX-Request", "true")
      .set("HX-Target", "property-results")
      .expect(200);
    expect(fragment.text.trim().startsWith('<div id="property-results"')).toBe(true);
    expect(fragment.text).not.toContain("<html");
    expect(fragment.text).not.toContain("admin-sidebar");
    expect(fragment.text).toMatch(/<strong>24<\/strong> properties matching “wellington”/);
    const search = (await staff.agent.get("/admin/properties?q=Zo%C3%AB").expect(200)).text;
    expect(search.split('data-testid="property-card"')).toHaveLength(2);
    expect(search).toContain('value="Zoë"');
    const none = (await staff.agent.get("/admin/properties?q=no-such-client").expect(200)).text;
    expect(none).toContain("No Properties Found");
    // A nonsense page number is the first page, not an error.
    expect((await staff.agent.get("/admin/properties?page=abc").expect(200)).text).toContain("Page 1 of 2");
  });

  it("shows the details: property, customer, plan, inspection, lifestyle and system information", async () => {
    const p = made[4]!;
    await ctx.db("properties").where({ id: p.id }).update({
      ownership_type: "owner",
      household_size: "4",
      heating_type: "heat-pump",
      roof_type: "metal",
      notes: "Side gate sticks",
    });
    await booking(p, { accessMethod: "meet-inspector", date: "2026-05-05" });
    const fragment = await staff.agent.get(`/admin/properties/${p.id}`).set("HX-Request", "true").expect(200);
    expect(fragment.text).not.toContain("<html");
    for (const heading of [
      "Property Information",
      "Customer Information",
      "Subscription Plan",
      "Inspection Details",
      "Lifestyle Information",
      "System Information",
    ]) {
      expect(fragment.text).toContain(heading);
    }
    for (const text of [
      "5 Wellington Street",
      "client5@example.ca",
      "Heat Pump",
      "Metal",
      "Owner",
      "Side gate sticks",
      "Tuesday, May 5, 2026",
      "Meet inspector at property",
      "10:30 AM",
    ])
      expect(fragment.text).toContain(text);
    const page = await staff.agent.get(`/admin/properties/${p.id}`).expect(200);
    expect(page.text).toContain("<html");
    expect(page.text).toContain("Property Details");
    expect((await staff.agent.get("/admin/properties/abc")).status).toBe(400);
    expect((await staff.agent.get("/admin/properties/2147483647")).status).toBe(404);
  });
});
