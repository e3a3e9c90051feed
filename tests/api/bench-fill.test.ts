// `npm run bench` crashed at its last step when the other benches had run first: the
// dashboard fill gave every booking in the database an inspection, and the demo homes the islands bench
// seeds already have theirs (inspections_booking_unique). The fill now touches only its own rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillPortal } from "../../bench/dashboard.js";
import { seedDemo } from "../../seeds/demo/index.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx?.close());

const count = async (sql: string, bindings: (string | number)[] = []) =>
  Number((await ctx.db.raw(sql, bindings)).rows[0].n);

describe("the dashboard bench's fill", () => {
  it("runs after the other benches' data (demo homes with inspected bookings, other bench customers) and leaves theirs alone", async () => {
    // What the islands bench (the demo seed) and the maintenance and reports benches leave behind.
    await seedDemo(ctx.container, { properties: 6 });
    const { property: other } = await ctx.container.customers.createWithProperty(
      { email: "bench-maint1@example.ca", name: "Bench Owner 1", subscriptionPlan: "premium" },
      { address: "1 Other Bench Road", city: "Saskatoon", province: "SK", postalCode: "S7K 1A1" },
    );
    const linkedBefore = await count("select count(*)::int as n from inspections where booking_id is not null");
    expect(linkedBefore, "the demo has bookings with their inspection").toBeGreaterThan(0);
    const otherBookings = await count(
      "select count(*)::int as n from inspection_bookings b join properties p on p.id = b.property_id where p.client_email not like 'bench%'",
    );

    await fillPortal({ container: ctx.container }, 300);

    const own = "^bench[0-9]+@example\\.ca$";
    expect(await count("select count(*)::int as n from properties where client_email ~ ?", [own])).toBe(300);
    expect(
      await count(
        "select count(*)::int as n from inspection_bookings b join properties p on p.id = b.property_id where p.client_email ~ ?",
        [own],
      ),
    ).toBe(300);
    // The others' rows are as they were: no second property for another bench's customer, no new booking or inspection for the demo's.
    expect(await count("select count(*)::int as n from properties where customer_id = ?", [other.customerId])).toBe(1);
    expect(
      await count(
        "select count(*)::int as n from inspection_bookings b join properties p on p.id = b.property_id where p.client_email not like 'bench%'",
      ),
    ).toBe(otherBookings);
    expect(
      await count(
        "select count(*)::int as n from inspections i join properties p on p.id = i.property_id where p.client_email !~ ? and i.booking_id is not null",
        [own],
      ),
    ).toBe(linkedBefore);
    // Every booking still has at most one inspection.
    expect(
      await count(
        "select count(*)::int as n from (select booking_id from inspections where booking_id is not null group by booking_id having count(*) > 1) d",
      ),
    ).toBe(0);
  });
});
