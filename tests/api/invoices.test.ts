// Invoices as documents and refunds with the demo provider (docs/decisions.md#33, #34): gapless numbers, tax on the
// home's province, the receipt's figures, the staff calls (list, CSV, one invoice, PDF), refunds in full and in part
// with the tax in proportion and revenue net of them, and /admin/tax (the report's figures: tax-report.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tx } from "../../src/db/transaction.js";
import { InvoicesRepository } from "../../src/modules/invoices/invoices.repository.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { pdfText } from "../support/pdf.js";
import { signInHome } from "../support/home.js";
import { queuedMails } from "../support/jobs.js";

const TZ = "America/Toronto";
let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
let seq = 0;

const mailJobs = async (): Promise<{ subject: string; to: string; text: string }[]> =>
  (
    await ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
    )
  ).rows.map((r: { payload: { subject: string; to: string; text: string } }) => r.payload);

/** A /checkout Standard purchase ($412 a month) for a home at `postalCode`, attached as intake does. */
async function buy(name: string, postalCode: string, startedAt: Date, amountCents = 41200) {
  seq++;
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.com`;
  const checkoutRef = `demo_cs_invoices_${seq}_${Date.now()}`;
  const sub = await ctx.container.subscriptions.startDemo(
    {
      checkoutRef,
      planType: "standard",
      amountCents,
      payerEmail: email,
      payerName: name,
      cardNumber: "4242424242424242",
      priceList: "checkout",
      postalCode,
    },
    startedAt,
  );
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name, phone: "613-555-0100", subscriptionPlan: "standard" },
    {
      address: `${seq} Elgin Street`,
      city: "Ottawa",
      province: "ON",
      postalCode,
      squareFootage: 1800,
      yearBuilt: 1990,
    },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(checkoutRef, { customerId: customer.id, propertyId: property.id }, tx),
  );
  return { sub, email };
}

const revenue = async () => (await staff.agent.get("/api/dashboard/stats").expect(200)).body.totalRevenue as number;

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
});
afterAll(() => ctx?.close());

describe("invoice numbers and tax (demo provider)", () => {
  let ottawa: Awaited<ReturnType<typeof buy>>;

  it("a Standard subscriber in Ottawa bought at /checkout: $412.00 + HST $53.56 = $465.56, numbered, on the receipt", async () => {
    ottawa = await buy("Olive Ottawa", "K1S 2B4", new Date("2027-01-10T15:00:00Z"));
    const [invoice] = await ctx.container.invoiceSide.invoices
      .list({ subscriptionId: ottawa.sub.id, limit: 10, offset: 0 })
      .then((r) => r.rows);
    expect(invoice).toMatchObject({
      number: "HAV-2027-000001",
      subtotal: 412,
      tax: 53.56,
      amount: 465.56,
      taxProvince: "ON",
      taxes: { HST: 53.56, GST: 0, QST: 0 },
    });
    expect(invoice!.taxLines).toEqual([{ kind: "HST", label: "HST 13%", percent: 13, amountCents: 5356 }]);
    const receipt = (await mailJobs()).find(
      (m) => m.to === ottawa.email && m.subject.startsWith("Your Haven receipt"),
    )!;
    expect(receipt.subject).toBe("Your Haven receipt: $465.56 CAD");
    expect(receipt.text).toContain("Invoice: HAV-2027-000001");
    expect(receipt.text).toContain("Subtotal: $412.00 CAD");
    expect(receipt.text).toContain("HST 13%: $53.56 CAD");
    expect(receipt.text).toContain("Total: $465.56 CAD");
    expect(receipt.text).toContain("GST/HST registration: 123456789 RT0001");
    expect(receipt.text).toContain(`/my-home/plan/invoices/${invoice!.id}/pdf`);
  });

  it("a Quebec home pays GST and QST; the renewals of a batch take the next numbers, with no gap", async () => {
    const quebec = await buy("Quentin Quebec", "H2X 1Y4", new Date("2027-01-12T15:00:00Z"));
    const rows = async (id: number) =>
      (await ctx.container.invoiceSide.invoices.list({ subscriptionId: id, limit: 10, offset: 0 })).rows;
    expect((await rows(quebec.sub.id))[0]).toMatchObject({ number: "HAV-2027-000002", subtotal: 412, tax: 61.7 });
    expect((await rows(quebec.sub.id))[0]!.taxLines.map((l) => l.label)).toEqual(["GST 5%", "QST 9.975%"]);
    // Two renewals each (February and March), billed in bulk.
    await ctx.container.subscriptions.renewDue(new Date("2027-03-13T12:00:00Z"));
    const numbers = (await ctx.db("invoices").orderBy("number").pluck("number")) as string[];
    expect(numbers).toEqual(Array.from({ length: 6 }, (_, i) => `HAV-2027-${String(i + 1).padStart(6, "0")}`));
    const renewal = (await rows(ottawa.sub.id))[0]!;
    expect(renewal).toMatchObject({ subtotal: 412, tax: 53.56, amount: 465.56, billingReason: "subscription_cycle" });
    // Queued by its invoice's id, read as its job sends it (docs/decisions.md#82).
    const bulkReceipt = (await queuedMails(ctx)).filter((m) => m.to === ottawa.email).at(-1)!;
    expect(bulkReceipt.text).toContain(`Invoice: ${renewal.number}`);
    expect(bulkReceipt.text).toContain("HST 13%: $53.56 CAD");
  });

  it("a number given back by a rollback is the next one taken (gapless)", async () => {
    const repo = new InvoicesRepository(ctx.db, { timeZone: TZ });
    const take = (tx: Tx) => repo.takeNumbers(2031, 1, tx);
    await expect(
      ctx.container.transaction(async (tx) => {
        expect(await take(tx)).toEqual(["HAV-2031-000001"]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await ctx.container.transaction((tx) => take(tx))).toEqual(["HAV-2031-000001"]);
  });

  it("eight purchases at once take eight numbers of their year, none twice and none skipped", async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        buy(`Para Lell ${String.fromCharCode(97 + i)}`, "K1S 2B4", new Date("2028-03-01T15:00:00Z")),
      ),
    );
    const numbers = (await ctx
      .db("invoices")
      .where("number", "like", "HAV-2028-%")
      .orderBy("number")
      .pluck("number")) as string[];
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => `HAV-2028-${String(i + 1).padStart(6, "0")}`));
  });

  it("staff list, CSV with the tax columns, one invoice and its PDF; anonymous callers get 401", async () => {
    await ctx.agent().get("/api/invoices").expect(401);
    await ctx.agent().get("/api/invoices/1/pdf").expect(401);
    const list = await staff.agent.get(`/api/invoices?subscriptionId=${ottawa.sub.id}`).expect(200);
    expect(list.headers["x-total-count"]).toBe("3");
    expect(list.body[0]).toMatchObject({ customerName: "Olive Ottawa", planType: "standard" });
    await staff.agent.get("/api/invoices?from=2027-02-01&to=2027-01-01").expect(400);
    await staff.agent.get("/api/invoices?status=lost").expect(400);
    const csv = await staff.agent.get("/api/invoices?format=csv&from=2027-01-01&to=2027-01-31").expect(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const [header, ...lines] = csv.text
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    expect(header).toContain("number");
    expect(header).toContain("subtotal");
    expect(header).toContain("taxes.HST");
    expect(header).toContain("taxes.QST");
    expect(lines).toHaveLength(2);
    expect(lines.join("\n")).toContain("HAV-2027-000001");
    const id = list.body.at(-1).id as number;
    const one = await staff.agent.get(`/api/invoices/${id}`).expect(200);
    expect(one.body).toMatchObject({ invoice: { number: "HAV-2027-000001" }, refunds: [], refundable: 465.56 });
    await staff.agent.get("/api/invoices/999999").expect(404);
    const text = await pdfText(staff.agent, `/api/invoices/${id}/pdf`);
    for (const expected of [
      "Haven Home Health Inc.",
      "GST/HST registration no. 123456789 RT0001",
      "HAV-2027-000001",
      "January 10, 2027",
      "Olive Ottawa",
      // The home served in full, its postal code too.
      /Home served: \d+ Elgin Street, Ottawa, ON K1S 2B4/,
      "Haven Standard plan",
      "Subtotal",
      "$412.00",
      "HST 13% (ON)",
      "$53.56",
      "$465.56",
      "TERMS",
    ])
      expect(text).toMatch(expected);
  });
});

describe("refunds (demo provider)", () => {
  let invoiceId: number;
  let email: string;
  let before: number;

  beforeAll(async () => {
    const bought = await buy("Rita Refund", "K2P 1L5", new Date("2027-04-02T15:00:00Z"));
    email = bought.email;
    invoiceId = (await ctx.container.invoiceSide.invoices.list({ subscriptionId: bought.sub.id, limit: 1, offset: 0 }))
      .rows[0]!.id;
  });

  it("refuses bad input and too much, writing nothing", async () => {
    before = await revenue();
    await ctx.agent().post(`/api/invoices/${invoiceId}/refund`).send({ reason: "x" }).expect(401);
    const noReason = await staff.agent.post(`/api/invoices/${invoiceId}/refund`).send({ amountCents: 100 }).expect(400);
    expect(JSON.stringify(noReason.body)).toContain("Say why it is refunded");
    await staff.agent.post(`/api/invoices/${invoiceId}/refund`).send({ amountCents: 1.5, reason: "x" }).expect(400);
    await staff.agent.post(`/api/invoices/${invoiceId}/refund`).send({ amountCents: 46557, reason: "x" }).expect(400);
    await staff.agent.post("/api/invoices/999999/refund").send({ reason: "x" }).expect(404);
    expect(Number((await ctx.db("refunds").count({ n: "*" }).first())!.n)).toBe(0);
    expect(await revenue()).toBe(before);
  });

  it("a partial refund: tax in proportion, the e-mail, revenue net; a double click refunds once", async () => {
    const send = () =>
      staff.agent
        .post(`/api/invoices/${invoiceId}/refund`)
        .send({ amountCents: 10000, reason: "Missed the spring visit", expectedRefundedCents: 0 });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.refund.id).toBe(b.body.refund.id);
    // $100.00 of $465.56 back: its HST is 5356 × 10000 / 46556 = 1150 cents.
    expect(a.body.refund).toMatchObject({
      amountCents: 10000,
      taxCents: 1150,
      providerRefundId: `demo_re_${invoiceId}_1`,
    });
    expect(a.body.invoice).toMatchObject({ refunded: 100, amount: 465.56 });
    expect(await revenue()).toBeCloseTo(before - 88.5, 2);
    const mail = (await mailJobs()).filter((m) => m.to === email && m.subject.startsWith("Your Haven refund"));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe("Your Haven refund: $100.00 CAD");
    expect(mail[0]!.text).toContain("of which HST 13%: $11.50 CAD");
    expect(mail[0]!.text).toContain("Reason: Missed the spring visit");
    // The form's figure is stale now: nothing more is refunded.
    const stale = await staff.agent
      .post(`/api/invoices/${invoiceId}/refund`)
      .send({ amountCents: 5000, reason: "again", expectedRefundedCents: 0 })
      .expect(409);
    expect(stale.body.error ?? stale.body.message).toBeDefined();
  });

  it("the rest in full with an Idempotency-Key: each tax refunded exactly; a repeat is the first answer", async () => {
    const send = () =>
      staff.agent
        .post(`/api/invoices/${invoiceId}/refund`)
        .set("Idempotency-Key", "refund-rest-1")
        .send({ reason: "Moved away" });
    const first = await send().expect(201);
    expect(first.body.refund).toMatchObject({ amountCents: 36556, taxCents: 5356 - 1150 });
    const again = await send().expect(200);
    expect(again.body.refund.id).toBe(first.body.refund.id);
    expect(first.body.invoice.refunded).toBe(465.56);
    await staff.agent.post(`/api/invoices/${invoiceId}/refund`).send({ reason: "more" }).expect(409);
    expect(await revenue()).toBeCloseTo(before - 412, 2);
    const detail = await staff.agent.get(`/api/invoices/${invoiceId}`).expect(200);
    expect(detail.body.refundable).toBe(0);
    expect(detail.body.refunds).toHaveLength(2);
  });
});

describe("staff pages: a subscription's invoices with the refund form, and /admin/tax", () => {
  let subId: number;
  let invoiceId: number;

  beforeAll(async () => {
    const bought = await buy("Pat Pages", "K1N 5W8", new Date("2027-05-03T15:00:00Z"));
    subId = bought.sub.id;
    invoiceId = (await ctx.container.invoiceSide.invoices.list({ subscriptionId: subId, limit: 1, offset: 0 })).rows[0]!
      .id;
  });

  it("lists each invoice's number, figures, PDF and a refund form", async () => {
    const page = await staff.agent.get(`/admin/subscriptions/${subId}`).expect(200);
    expect(page.text).toMatch(/HAV-2027-\d{6}/);
    expect(page.text).toContain("HST 13%");
    expect(page.text).toContain("$465.56");
    expect(page.text).toContain(`/api/invoices/${invoiceId}/pdf`);
    expect(page.text).toContain('data-testid="refund-form"');
  });

  it("a refused amount is named under its field and writes nothing; a good one refunds and redirects", async () => {
    const bad = await staff.agent
      .post(`/admin/subscriptions/${subId}/refund`)
      .type("form")
      .send({ invoiceId: String(invoiceId), amount: "900.00", reason: "Too much", expectedRefundedCents: "0" })
      .expect(400);
    expect(bad.text).toContain("At most $465.56 is left to refund");
    expect(bad.text).toContain('value="900.00"');
    const noReason = await staff.agent
      .post(`/admin/subscriptions/${subId}/refund`)
      .type("form")
      .send({ invoiceId: String(invoiceId), amount: "10", reason: "", expectedRefundedCents: "0" })
      .expect(400);
    expect(noReason.text).toContain("Say why it is refunded: the customer is told");
    expect(Number((await ctx.db("refunds").where({ invoice_id: invoiceId }).count({ n: "*" }).first())!.n)).toBe(0);
    await staff.agent
      .post(`/admin/subscriptions/${subId}/refund`)
      .type("form")
      .send({ invoiceId: String(invoiceId), amount: "46.56", reason: "Late visit", expectedRefundedCents: "0" })
      .expect(303)
      .expect("Location", `/admin/subscriptions/${subId}?done=refund`);
    const after = await staff.agent.get(`/admin/subscriptions/${subId}?done=refund`).expect(200);
    expect(after.text).toContain("Refund made");
    expect(after.text).toContain("$46.56");
    // Another subscription's invoice through this page is not found.
    await staff.agent
      .post(`/admin/subscriptions/${subId}/refund`)
      .type("form")
      .send({ invoiceId: "1", amount: "1", reason: "Wrong page", expectedRefundedCents: "0" })
      .expect(404);
  });

  it("the property dialog lists the invoices with number, figures, refunded and the PDF", async () => {
    const sub = await ctx.db("subscriptions").where({ id: subId }).first();
    const dialog = await staff.agent.get(`/admin/properties/${sub.property_id}`).set("HX-Request", "true").expect(200);
    expect(dialog.text).toContain('data-testid="property-invoice"');
    expect(dialog.text).toMatch(/HAV-2027-\d{6}/);
    expect(dialog.text).toContain("$412.00 + tax $53.56");
    expect(dialog.text).toContain("Refunded $46.56");
    expect(dialog.text).toContain(`/api/invoices/${invoiceId}/pdf`);
  });

  it("/admin/tax shows the report and refuses bad dates", async () => {
    await ctx.agent().get("/admin/tax").expect(302);
    const page = await staff.agent.get("/admin/tax?from=2027-01-01&to=2027-01-31").expect(200);
    expect(page.text).toContain("Sales tax");
    expect(page.text).toContain("HST 13%");
    expect(page.text).toContain("$53.56");
    const bad = await staff.agent.get("/admin/tax?from=2027-02-30&to=2027-01-31").expect(400);
    expect(bad.text).toContain("Enter a date as YYYY-MM-DD");
  });
});

describe("My Home: the homeowner's invoices with their PDFs", () => {
  it("lists number and figures with a PDF link; the PDF is the homeowner's own, anyone else's a 404", async () => {
    const owner = await buy("Hana Home", "K1S 2B4", new Date("2027-06-01T15:00:00Z"));
    const invoice = (
      await ctx.container.invoiceSide.invoices.list({ subscriptionId: owner.sub.id, limit: 1, offset: 0 })
    ).rows[0]!;
    const home = await signInHome(ctx, owner.email);
    const page = await home.get("/my-home/plan").expect(200);
    expect(page.text).toContain(invoice.number!);
    expect(page.text).toContain(`/my-home/plan/invoices/${invoice.id}/pdf`);
    const receipt = await home.get(`/my-home/plan/invoices/${invoice.id}`).expect(200);
    expect(receipt.text).toContain(invoice.number!);
    expect(receipt.text).toContain("HST 13%");
    expect(receipt.text).toContain("123456789 RT0001");
    const list = await home.get("/api/my-home/invoices").expect(200);
    expect(list.body.invoices).toEqual([
      expect.objectContaining({
        id: invoice.id,
        number: invoice.number,
        subtotal: 412,
        tax: 53.56,
        amount: 465.56,
        planName: "Standard",
        pdfUrl: `/api/my-home/invoices/${invoice.id}/pdf`,
      }),
    ]);
    expect((await home.get(`/api/my-home/invoices/${invoice.id}`).expect(200)).body).toMatchObject({
      number: invoice.number,
      taxLines: [{ label: "HST 13%", amountCents: 5356 }],
    });
    const pdf = await home.get(`/my-home/plan/invoices/${invoice.id}/pdf`).expect(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    await home.get(`/api/my-home/invoices/${invoice.id}/pdf`).expect(200);
    const stranger = await signInHome(ctx, "someone.else@example.com");
    await stranger.get(`/my-home/plan/invoices/${invoice.id}/pdf`).expect(404);
    await stranger.get(`/api/my-home/invoices/${invoice.id}/pdf`).expect(404);
    await stranger.get(`/api/my-home/invoices/${invoice.id}`).expect(404);
    expect((await stranger.get("/api/my-home/invoices").expect(200)).body).toEqual({ invoices: [] });
    await ctx.agent().get("/api/my-home/invoices").expect(401);
    await home.get("/api/my-home/invoices/999999/pdf").expect(404);
    await ctx.agent().get(`/api/my-home/invoices/${invoice.id}/pdf`).expect(401);
  });
});
