// `haven tax report` and `haven subscriptions reconcile` from the CLI (docs/decisions.md#32–34): the report's table
// and JSON over demo invoices with tax and a refund, refused arguments as one line and exit 1, and reconcile's
// answer in demo mode (nothing to compare).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, runHaven } from "../support/cli.js";
import { type TestContext, createTestContext } from "../support/context.js";

const SLOW = 240_000;
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: "America/Toronto" });
  await ctx.container.plans.seed();
  const start = (ref: string, postalCode: string, at: string) =>
    ctx.container.subscriptions.startDemo(
      {
        checkoutRef: ref,
        planType: "standard",
        amountCents: 41200,
        payerEmail: `${ref}@example.com`,
        payerName: "Tess Tax",
        cardNumber: "4242424242424242",
        priceList: "checkout",
        postalCode,
      },
      new Date(at),
    );
  await start("tax_on", "K1S 2B4", "2027-02-03T15:00:00Z");
  const bc = await start("tax_bc", "V6B 1A1", "2027-02-04T15:00:00Z");
  const [invoice] = await ctx.container.subscriptions.detail(bc.id).then((d) => d.invoices);
  await ctx.container.invoiceSide.refunds.refund(invoice!.id, {
    amountCents: invoice!.amount * 100,
    reason: "Moved",
    actor: "cli",
  });
});
afterAll(() => ctx?.close());

const haven = (args: string[]) => runHaven(ctx.url, args, { env: { BUSINESS_TZ: "America/Toronto" } });
const ok = (r: CliResult) => {
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};

describe("haven tax report", () => {
  it(
    "prints collected, refunded and net by province and rate, as a table and as JSON",
    async () => {
      const text = ok(await haven(["tax", "report", "--from", "2027-02-01", "--to", "2027-02-28"]));
      expect(text).toContain("Sales tax from 2027-02-01 to 2027-02-28");
      expect(text).toMatch(/ON\s+HST 13%\s+\$412\.00\s+\$53\.56\s+\$0\.00\s+\$53\.56/);
      expect(text).toMatch(/BC\s+GST 5%\s+\$412\.00\s+\$20\.60\s+\$0\.00\s+\$20\.60/);
      const json = JSON.parse(
        ok(await haven(["tax", "report", "--from", "2026-01-01", "--to", "2027-12-31", "--json"])),
      );
      const bc = json.lines.find((l: { province: string }) => l.province === "BC");
      expect(bc).toMatchObject({ collected: 20.6, refunded: 20.6, net: 0, netSales: 0 });
      expect(json.totals).toMatchObject({ collected: 74.16, refunded: 20.6, net: 53.56 });
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
