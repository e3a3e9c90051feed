// Invoices an auditor accepts (docs/decisions.md#51): Revenu Québec's QST number on every invoice that charges QST
// (the PDF and the receipt e-mail), none on an Ontario one, and haven doctor failing while Quebec homes are billed
// without QST_NUMBER.
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "../../src/config/env.js";
import { qstCheck } from "../../src/ops/doctor.tax.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
let seq = 0;

async function buy(name: string, postalCode: string, startedAt: Date) {
  seq++;
  return ctx.container.subscriptions.startDemo(
    {
      checkoutRef: `demo_cs_auditor_${seq}_${Date.now()}`,
      planType: "standard",
      amountCents: 41200,
      payerEmail: `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.com`,
      payerName: name,
      cardNumber: "4242424242424242",
      priceList: "checkout",
      postalCode,
    },
    startedAt,
  );
}

async function pdfText(invoiceId: number): Promise<string> {
  const pdf = await staff.agent
    .get(`/api/invoices/${invoiceId}/pdf`)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done(null, Buffer.concat(chunks)));
    })
    .expect(200);
  const parser = new PDFParse({ data: new Uint8Array(pdf.body as Buffer) });
  const text = (await parser.getText()).text;
  await parser.destroy();
  return text;
}

const invoiceOf = async (subscriptionId: number) =>
  (await ctx.db("invoices").where({ subscription_id: subscriptionId }).orderBy("id").first()) as { id: number };

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: "America/Toronto", QST_NUMBER: "1006123456 TQ0001" });
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
});
afterAll(() => ctx?.close());

describe("the QST registration number", () => {
  it("is on a Quebec home's invoice PDF and receipt, and not on an Ontario one's", async () => {
    const gatineau = await buy("Gaby Gatineau", "J8X 1A1", new Date("2027-02-03T15:00:00Z"));
    const ottawa = await buy("Otto Ottawa", "K1S 2B4", new Date("2027-02-03T16:00:00Z"));
    // A Quebec home's invoice is in French (docs/decisions.md#68), with both numbers.
    const quebec = (await pdfText((await invoiceOf(gatineau.id)).id)).replace(/[\u00a0\u202f]/g, " ");
    for (const expected of [
      "Nº d'inscription à la TPS/TVH : 123456789 RT0001",
      "Nº d'inscription à la TVQ : 1006123456 TQ0001",
      "TVQ 9,975 % (QC)",
      "Date d'émission",
    ])
      expect(quebec).toContain(expected);
    const ontario = await pdfText((await invoiceOf(ottawa.id)).id);
    expect(ontario).toContain("GST/HST registration no. 123456789 RT0001");
    expect(ontario).not.toContain("QST registration");
    const receipts = (
      await ctx.db.raw(
        "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
      )
    ).rows.map((r: { payload: { to: string; text: string } }) => r.payload);
    expect(
      receipts.find((m: { to: string }) => m.to === "gaby.gatineau@example.com")?.text.replace(/[\u00a0\u202f]/g, " "),
    ).toContain("Nº d'inscription à la TVQ : 1006123456 TQ0001");
    expect(receipts.find((m: { to: string }) => m.to === "otto.ottawa@example.com")?.text).not.toContain("QST");
  });

  it("haven doctor fails without QST_NUMBER once a Quebec home is billed, and passes with it", async () => {
    const unset = loadEnv({ NODE_ENV: "test" });
    expect(await qstCheck(unset, ctx.db)).toMatchObject({ status: "fail", fix: expect.stringContaining("QST_NUMBER") });
    expect(await qstCheck(loadEnv({ NODE_ENV: "test", QST_NUMBER: "1006123456TQ0001" }), ctx.db)).toMatchObject({
      status: "ok",
      message: expect.stringContaining("1006123456 TQ0001"),
    });
    // No invoice with QST and no live plan in Quebec: nothing to print it on.
    await ctx.db("invoices").whereRaw(`tax_lines @> '[{"kind":"QST"}]'::jsonb`).del();
    await ctx.db("subscriptions").where({ tax_province: "QC" }).update({ tax_province: "ON" });
    expect(await qstCheck(unset, ctx.db)).toMatchObject({
      status: "ok",
      message: expect.stringContaining("no Quebec"),
    });
  });
});
