// CSV export of the five staff list calls: `?format=csv` answers text/csv with the list's
// filter, every row, one column per JSON field, streamed from a database cursor.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flattenRow } from "../../src/http/csv.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { completedInspection, quickEntries } from "./reports-fixtures.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];
let trickyPropertyId: number;

const TRICKY_NAME = '=HYPERLINK("http://evil.example","Click")';
const TRICKY_NOTES = 'Side door, "blue" key\nline two\r\nline three';

/** RFC 4180 records: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    record.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ",") endCell();
    else if (c === "\r" && text[i + 1] === "\n") {
      endCell();
      records.push(record);
      record = [];
      i++;
    } else cell += c;
  }
  if (cell || record.length) throw new Error("The CSV does not end with CRLF");
  return records;
}

async function csv(path: string) {
  const res = await staff.get(path).buffer(true);
  expect(res.status).toBe(200);
  expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="haven-[a-z-]+-\d{4}-\d{2}-\d{2}\.csv"$/);
  expect(res.text.startsWith("\ufeff")).toBe(true);
  const [header, ...rows] = parseCsv(res.text.slice(1));
  return { header: header ?? [], rows };
}

beforeAll(async () => {
  ctx = await createTestContext();
  staff = (await signInStaff(ctx)).agent;
  const { property } = await ctx.container.customers.createWithProperty(
    { email: "tricky@example.ca", name: TRICKY_NAME, phone: "+1 613 555 0100", subscriptionPlan: "basic" },
    { address: "12 Elgin Street, Unit 4", city: "Orléans", province: "ON", postalCode: "K1C 1A1", notes: TRICKY_NOTES },
  );
  trickyPropertyId = property.id;
  // One inspection, its report and tasks, and a quote request on a task: every list has a row.
  const { inspectionId, propertyId } = await completedInspection(ctx.container, quickEntries(4));
  await ctx.container.reports.generate(inspectionId);
  const [task] = await ctx.db("maintenance_tasks").where({ property_id: propertyId }).select("id");
  await ctx
    .db("quote_requests")
    .insert({ property_id: propertyId, maintenance_task_id: task.id, client_notes: "-2 windows, @front" });
});
afterAll(() => ctx.close());

describe("?format=csv on the list calls", () => {
  const LISTS = [
    "/api/properties",
    "/api/inspections",
    "/api/reports",
    "/api/quote-requests",
    "/api/maintenance-tasks",
  ];

  it.each(LISTS)("%s: one column per JSON field, every matching row", async (path) => {
    const json = await staff.get(`${path}?limit=500`).expect(200);
    expect(json.body.length).toBeGreaterThan(0);
    const { header, rows } = await csv(`${path}?format=csv`);
    expect(header).toEqual([...flattenRow(json.body[0]).keys()]);
    expect(rows).toHaveLength(Number(json.headers["x-total-count"]));
    // The first row's ids match, so the order is the list's.
    expect(rows[0]?.[0]).toBe(String(json.body[0].id));
  });

  it("escapes quotes, commas and line breaks, and guards text that starts like a formula", async () => {
    const { header, rows } = await csv("/api/properties?format=csv&q=Elgin");
    expect(rows).toHaveLength(1);
    const cell = (name: string) => rows[0]![header.indexOf(name)];
    expect(cell("id")).toBe(String(trickyPropertyId));
    expect(cell("clientName")).toBe(`'${TRICKY_NAME}`);
    expect(cell("clientPhone")).toBe("'+1 613 555 0100");
    expect(cell("address")).toBe("12 Elgin Street, Unit 4");
    expect(cell("city")).toBe("Orléans");
    expect(cell("notes")).toBe(TRICKY_NOTES);
    expect(cell("squareFootage")).toBe("");
    const quotes = await csv("/api/quote-requests?format=csv");
    expect(quotes.rows[0]![quotes.header.indexOf("clientNotes")]).toBe("'-2 windows, @front");
  });

  it("keeps the list's filter and leaves limit and offset out", async () => {
    expect((await csv("/api/properties?format=csv&q=no-such-home")).rows).toHaveLength(0);
    expect((await csv("/api/inspections?format=csv&status=scheduled")).rows).toHaveLength(0);
    expect((await csv("/api/inspections?format=csv&status=completed&limit=1&offset=5")).rows).toHaveLength(1);
    const nested = await csv("/api/inspections?format=csv");
    expect(nested.header).toContain("property.address");
  });

  it("refuses another format with a 400 naming the field, and keeps CSV for staff", async () => {
    const bad = await staff.get("/api/properties?format=xlsx").expect(400);
    expect(bad.body.fields).toEqual({ format: "Format must be json or csv" });
    await ctx.agent().get("/api/inspections?format=csv").expect(401);
  });
});

// Thirty cursor batches (src/db/cursor.ts): the bench streams 100,000 and measures memory (docs/architecture.md).
describe("30,000 rows", () => {
  it("streams them all, and a client that leaves early frees the cursor's connection", async () => {
    const [{ id: customerId }] = await ctx
      .db("customers")
      .insert({ email: "bulk@example.ca", name: "Bulk Owner", subscription_plan: "basic" })
      .returning("id");
    await ctx.db.raw(
      `insert into properties (customer_id, client_name, client_email, subscription_plan, address, city, province, postal_code, notes, created_at)
       select ?, 'Owner ' || n, 'owner' || n || '@example.ca', 'basic', n || ' Bank Street, "B"', 'Ottawa', 'ON', 'K1S 2B4',
              case when n % 1000 = 0 then E'two\\nlines' end, now() - n * interval '1 second'
         from generate_series(1, 30000) n`,
      [customerId],
    );
    const n = Number((await ctx.db("properties").count({ n: "*" }))[0]?.n);
    expect(n).toBeGreaterThan(30_000);
    const { header, rows } = await csv("/api/properties?format=csv");
    expect(rows).toHaveLength(n);
    const address = header.indexOf("address");
    const notes = header.indexOf("notes");
    expect(rows.every((r) => r.length === header.length)).toBe(true);
    expect(rows.filter((r) => r[notes] === "two\nlines")).toHaveLength(30);
    expect(rows.filter((r) => r[address] === '30000 Bank Street, "B"')).toHaveLength(1);

    // A download dropped after its first bytes: the cursor's transaction ends and its connection returns.
    await new Promise<void>((resolve, reject) => {
      staff
        .get("/api/properties?format=csv")
        .buffer(true)
        .parse((res, done) => {
          res.once("data", () => {
            (res as unknown as { destroy(): void }).destroy();
            done(null, null);
          });
        })
        .end((error) =>
          error && !/aborted|socket hang up|ECONNRESET/i.test(String(error)) ? reject(error) : resolve(),
        );
    });
    const deadline = Date.now() + 10_000;
    let open = 1;
    while (Date.now() < deadline) {
      const { rows: activity } = await ctx.db.raw(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'fetch forward%' and state like 'idle in transaction%'",
      );
      open = activity[0].n;
      if (open === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(open).toBe(0);
    // 100,000 homes are written, streamed and parsed twice: more work than the project's 30 s suits on two busy cores.
  }, 120_000);
});
