// Finding an invoice by who it is for (src/modules/invoices/invoices.md, "Searching"): "465.56" names a price
// that many customers pay, so the office searches by the customer's name or e-mail, the home's address or the
// invoice number, on GET /api/invoices?q= and the /admin/invoices box, through indexes at any size.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type InvoiceFilter,
  InvoiceListRepository,
  invoiceNumberOf,
} from "../../src/modules/invoices/invoice-list.repository.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { paidQuoteInvoice } from "../support/quote-invoices.js";
import { demoPurchase } from "../support/subscriptions.js";

type InvoiceFilterWithoutPage = Omit<InvoiceFilter, "limit" | "offset">;

let ctx: TestContext;
let owner: Awaited<ReturnType<typeof signInStaff>>;

/** A /checkout purchase at `at` for `name`, attached to a home at `address` in Ottawa: its first invoice. */
async function customerWithInvoice(name: string, email: string, address: string, at: string) {
  const ref = `demo_cs_search_${randomBytes(4).toString("hex")}`;
  await demoPurchase(ctx, ref, "K1S 2B4", at);
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name, phone: "613-555-0100", subscriptionPlan: "standard" },
    { address, city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1500 },
  );
  const sub = await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(ref, { customerId: customer.id, propertyId: property.id }, tx),
  );
  const invoice = await ctx.db("invoices").where({ subscription_id: sub!.id }).first();
  return { id: invoice.id as number, number: invoice.number as string };
}

let priya: { id: number; number: string };
let marc: { id: number; number: string };

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
  owner = await signInStaff(ctx);
  priya = await customerWithInvoice(
    "Priya Nguyen",
    "priya.nguyen@example.com",
    "12 Elm Street",
    "2026-11-04T15:00:00Z",
  );
  marc = await customerWithInvoice("Marc Éthier", "marc@example.com", "40 Rue Dumas", "2026-11-05T15:00:00Z");
});

afterAll(async () => {
  await ctx?.close();
});

const found = async (q: string) => {
  const res = await owner.agent.get("/api/invoices").query({ q }).expect(200);
  return (res.body as { id: number }[]).map((row) => row.id);
};

describe("GET /api/invoices?q=", () => {
  it("finds an invoice by any part of the customer's name or e-mail, the address, or the number", async () => {
    expect(await found("priya")).toEqual([priya.id]);
    expect(await found("Nguyen")).toEqual([priya.id]);
    expect(await found("priya.nguyen@example.com")).toEqual([priya.id]);
    expect(await found("elm str")).toEqual([priya.id]);
    // As the property search folds: no accents, any case.
    expect(await found("ethier")).toEqual([marc.id]);
    expect(await found(marc.number)).toEqual([marc.id]);
    expect(await found(marc.number.toLowerCase())).toEqual([marc.id]);
    const [, year, sequence] = marc.number.split("-");
    expect(await found(`${year}-${Number(sequence)}`)).toEqual([marc.id]);
    expect(await found("nobody-like-this")).toEqual([]);
  });

  it("narrows with the other filters and counts what it found", async () => {
    const res = await owner.agent.get("/api/invoices").query({ q: "example.com", from: "2026-11-05" }).expect(200);
    expect(res.body.map((row: { id: number }) => row.id)).toEqual([marc.id]);
    expect(res.headers["x-total-count"]).toBe("1");
    const csv = await owner.agent.get("/api/invoices").query({ q: "priya", format: "csv" }).expect(200);
    expect(csv.text).toContain("Priya Nguyen");
    expect(csv.text).not.toContain("Marc");
  });

  it("finds a quote's invoice by its home", async () => {
    const { invoiceId } = await paidQuoteInvoice(ctx);
    const address = (await ctx
      .db("invoices as i")
      .join("quote_requests as q", "q.id", "i.quote_request_id")
      .join("properties as p", "p.id", "q.property_id")
      .where("i.id", invoiceId)
      .first("p.address")) as { address: string };
    expect(await found(address.address)).toEqual([invoiceId]);
  });

  it("refuses a search longer than 200 characters with a 400, and the page keeps what was typed", async () => {
    const res = await owner.agent
      .get("/api/invoices")
      .query({ q: "x".repeat(201) })
      .expect(400);
    expect(JSON.stringify(res.body)).toContain("Search must be at most 200 characters");
    const page = await owner.agent.get("/admin/invoices").query({ q: "Elm Street" }).expect(200);
    expect(page.text).toContain('value="Elm Street"');
    expect(page.text).toContain("1</strong> invoice");
    expect(page.text).toContain(priya.number);
    expect(page.text).not.toContain(marc.number);
  });

  it("reads a number however staff type it", () => {
    expect(invoiceNumberOf("HAV-2026-000123")).toBe("HAV-2026-000123");
    expect(invoiceNumberOf(" hav-2026-123 ")).toBe("HAV-2026-000123");
    expect(invoiceNumberOf("2026-123")).toBe("HAV-2026-000123");
    expect(invoiceNumberOf("123")).toBeNull();
  });
});

describe("the search stays on indexes", () => {
  it("with 5,000 plans and 25,000 invoices, EXPLAIN of a name search reads the invoices' indexes", async () => {
    // Copies of a plan, each its own provider id and no home, with five charges each.
    const [plan] = await ctx.db("subscriptions").select("*").limit(1);
    const skip = [
      "id",
      "created_at",
      "updated_at",
      "property_id",
      "customer_id",
      "provider_subscription_id",
      "checkout_ref",
    ];
    const columns = Object.keys(plan).filter((k) => !skip.includes(k));
    await ctx.db.raw(
      `insert into subscriptions (${columns.join(", ")}, provider_subscription_id)
       select ${columns.join(", ")}, 'demo_sub_search_' || n from subscriptions, generate_series(1, 5000) n where id = ?`,
      [plan.id],
    );
    await ctx.db.raw(
      `insert into invoices (subscription_id, provider, provider_invoice_id, amount_cents, subtotal_cents, tax_cents,
         period_start, period_end, status, billing_reason, paid_at)
       select s.id, 'demo', 'demo_in_search_' || s.id || '_' || m, 46556, 41200, 5356,
         timestamptz '2026-01-01' + m * interval '1 month', timestamptz '2026-02-01' + m * interval '1 month', 'paid',
         'subscription_cycle', timestamptz '2026-01-01' + m * interval '1 month'
       from subscriptions s, generate_series(0, 4) m where s.provider_subscription_id like 'demo_sub_search_%'`,
    );
    await ctx.db.raw("analyze subscriptions");
    await ctx.db.raw("analyze invoices");
    try {
      const lists = new InvoiceListRepository(ctx.db);
      const filter: InvoiceFilterWithoutPage = await lists.found({ q: "priya" });
      expect(filter.matches?.subscriptionIds).toHaveLength(1);
      for (const query of [
        lists.listQuery(filter).limit(100),
        ctx
          .db("invoices as i")
          .count({ n: "*" })
          .modify((q) => lists.filterOf(q, filter)),
      ]) {
        const { sql, bindings } = query.toSQL();
        const { rows } = await ctx.db.raw(`explain ${sql}`, bindings as never[]);
        const explained = rows.map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"]).join("\n");
        expect(explained, explained).not.toContain("Seq Scan on invoices");
        expect(explained, explained).toContain("invoices_subscription_id_period_start_index");
        expect(explained, explained).toContain("invoices_number_unique");
      }
    } finally {
      await ctx.db("invoices").where("provider_invoice_id", "like", "demo_in_search_%").delete();
      await ctx.db("subscriptions").where("provider_subscription_id", "like", "demo_sub_search_%").delete();
    }
  }, 90_000);
});
