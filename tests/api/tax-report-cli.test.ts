// `haven tax report` and `haven subscriptions reconcile` from the CLI (docs/decisions.md#34, #50): the report's figures
// and JSON over demo invoices with tax and a refund, refused arguments as one line and exit 1, and reconcile's
// answer in demo mode (nothing to compare).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, runHavenHere } from "../support/cli.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { demoPurchase } from "../support/subscriptions.js";

const SLOW = 240_000;
let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: "America/Toronto" });
  await ctx.container.plans.seed();
  const start = (ref: string, postalCode: string, at: string) => demoPurchase(ctx, ref, postalCode, at);
  staff = await signInStaff(ctx);
  await start("tax_on", "K1S 2B4", "2027-02-03T15:00:00Z");
  const bc = await start("tax_bc", "V6B 1A1", "2027-02-04T15:00:00Z");
  await start("tax_qc", "J8X 3X5", "2027-02-05T15:00:00Z");
  const [invoice] = await ctx.container.subscriptions.detail(bc.id).then((d) => d.invoices);
  await ctx.container.invoiceSide.refunds.refund(invoice!.id, {
    amountCents: invoice!.amount * 100,
    reason: "Moved",
    actor: "cli",
  });
});
afterAll(() => ctx?.close());

const haven = (args: string[]) => runHavenHere(ctx.url, args, { env: { BUSINESS_TZ: "America/Toronto" } });
const ok = (r: CliResult) => {
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};

describe("haven tax report", () => {
  it(
    "prints the GST/HST and QST returns' figures and each tax, as text and as JSON: the page's, the API's and its CSV's",
    async () => {
      const text = ok(await haven(["tax", "report", "--from", "2027-02-01", "--to", "2027-02-28"]));
      expect(text).toContain("Sales tax from 2027-02-01 to 2027-02-28");
      expect(text).toMatch(/All sales before tax, less refunds \(line 101\)\s+\$1236\.00/);
      expect(text).toMatch(/GST and HST collected or collectible \(line 103\)\s+\$94\.76/);
      expect(text).toMatch(/Quebec sales before tax, less refunds\s+\$412\.00/);
      expect(text).toMatch(/QST collected or collectible\s+\$41\.10/);
      expect(text).toMatch(/ON\s+HST 13%\s+\$412\.00\s+\$53\.56\s+\$0\.00\s+\$53\.56/);
      expect(text).toMatch(/BC\s+GST 5%\s+\$412\.00\s+\$20\.60\s+\$0\.00\s+\$20\.60/);
      const [from, to] = ["2026-01-01", "2027-12-31"];
      const json = JSON.parse(ok(await haven(["tax", "report", "--from", from, "--to", to, "--json"])));
      const bc = json.lines.find((l: { province: string }) => l.province === "BC");
      expect(bc).toMatchObject({ collected: 20.6, refunded: 20.6, net: 0, netSales: 0 });
      expect(json.gstHst).toMatchObject({
        sales: 1236,
        salesRefunded: 412,
        taxCollected: 94.76,
        adjustments: 20.6,
        netTax: 74.16,
      });
      expect(json.qst).toMatchObject({ sales: 412, taxCollected: 41.1, adjustments: 0, netTax: 41.1 });

      // The same object from the API, the same figures on the page and in its CSV.
      expect((await staff.agent.get(`/api/tax-report?from=${from}&to=${to}`).expect(200)).body).toEqual(json);
      const page = (await staff.agent.get(`/admin/tax?from=${from}&to=${to}`).expect(200)).text;
      const csv = (await staff.agent.get(`/api/tax-report?from=${from}&to=${to}&format=csv`).expect(200)).text;
      const [head, ...rows] = csv
        .replace(/^\ufeff/, "")
        .trim()
        .split("\r\n")
        .map((line) => line.split(","));
      const cell = (row: string[], column: string) => Number(row[head!.indexOf(column)]);
      const money = (n: number) =>
        `$${n.toLocaleString("en-CA", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      for (const [i, name] of (["gstHst", "qst"] as const).entries()) {
        const at = page.indexOf(`data-return="${name}"`);
        const card = page.slice(at, page.indexOf("</article>", at));
        for (const figure of ["netSales", "sales", "salesRefunded", "taxCollected", "adjustments", "netTax"]) {
          expect(card).toMatch(new RegExp(`data-figure="${figure}">(<strong>)?\\${money(json[name][figure])}<`));
          expect(cell(rows[i]!, figure)).toBe(json[name][figure]);
        }
      }
      expect(rows.slice(2).map((r) => [r[1], r[2], cell(r, "netTax")])).toEqual(
        json.lines.map((l: { province: string; label: string; net: number }) => [l.province, l.label, l.net]),
      );
      for (const l of json.lines) expect(page).toContain(`data-tax="${l.label}"`);
    },
    SLOW,
  );

  it(
    "refuses bad dates with one line and exit 1",
    async () => {
      const bad = await haven(["tax", "report", "--from", "2027-13-01", "--to", "2027-12-31"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("From must be a date as YYYY-MM-DD");
      const reversed = await haven(["tax", "report", "--from", "2027-03-01", "--to", "2027-02-01"]);
      expect(reversed.code).toBe(1);
      expect(reversed.stderr).toContain("From must be on or before To");
      expect((await haven(["tax", "report", "--from", "2027-03-01"])).code).toBe(1);
    },
    SLOW,
  );

  it(
    "subscriptions reconcile in demo mode says there is nothing to compare",
    async () => {
      expect(ok(await haven(["subscriptions", "reconcile"]))).toContain("Demo mode");
      expect(JSON.parse(ok(await haven(["subscriptions", "reconcile", "--json"])))).toMatchObject({
        mode: "demo",
        differences: [],
      });
    },
    SLOW,
  );
});
