// A refund is a credit note (docs/decisions.md#52), with the demo provider: its own number, HAV-CN-<year>-<6 digits>,
// gapless per business year (existing refunds numbered by the migration in order of creation); its own PDF at
// GET /api/refunds/{id}/pdf; the invoice (API, PDF, staff page) lists its credit notes; and a quote's invoice is
// refunded from its staff page like a subscription's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { queuedMails } from "../support/jobs.js";
import { pdfText } from "../support/pdf.js";
import { paidQuoteInvoice } from "../support/quote-invoices.js";
import { demoPurchase } from "../support/subscriptions.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
let seq = 0;

/** A paid demo invoice of a /checkout Standard plan in Ottawa ($412 + HST 13% = $465.56). */
async function paidInvoice() {
  const sub = await demoPurchase(ctx, `credit_notes_${++seq}`, "K2P 1L5", "2027-04-02T15:00:00Z");
  return ctx.db("invoices").where({ subscription_id: sub.id }).first();
}

const serial = (number: string) => Number(number.slice(-6));

beforeAll(async () => {
  ctx = await createTestContext({ PAYMENTS_MODE: "demo" });
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
});
afterAll(() => ctx?.close());

describe("the migration", () => {
  it("numbers existing refunds per business year in order of creation, and the series goes on from there", async () => {
    const invoice = await paidInvoice();
    const migration = "20261209000100_credit_notes.ts";
    await ctx.db.migrate.down({ name: migration });
    // Written by an older image, in another order than their dates (Toronto: Dec 31 late evening is still 2026).
    for (const [id, at] of [
      ["re_b", "2027-01-01T06:00:00Z"],
      ["re_a", "2027-01-01T04:30:00Z"],
      ["re_c", "2026-06-01T12:00:00Z"],
    ] as const)
      await ctx.db("refunds").insert({
        invoice_id: invoice.id,
        provider: "demo",
        provider_refund_id: id,
        amount_cents: 100,
        actor: "staff:1",
        created_at: at,
      });
    await ctx.db.migrate.up({ name: migration });
    const rows = await ctx.db("refunds").orderBy("provider_refund_id").select("provider_refund_id", "number");
    expect(rows).toEqual([
      { provider_refund_id: "re_a", number: "HAV-CN-2026-000002" },
      { provider_refund_id: "re_b", number: "HAV-CN-2027-000001" },
      { provider_refund_id: "re_c", number: "HAV-CN-2026-000001" },
    ]);
    expect(await ctx.db("credit_note_counters").orderBy("year")).toEqual([
      { year: 2026, last_number: 2 },
      { year: 2027, last_number: 1 },
    ]);
    await ctx.db("refunds").whereIn("provider_refund_id", ["re_a", "re_b", "re_c"]).delete();
  });
});

describe("each refund is a credit note", () => {
  it("numbered in its own gapless series; a refused refund takes no number; the invoice, its PDF and its page list them", async () => {
    const invoice = await paidInvoice();
    const refund = (amountCents: number, reason: string) =>
      staff.agent.post(`/api/invoices/${invoice.id}/refund`).send({ amountCents, reason });
    const first = (await refund(1000, "Missed the spring visit").expect(201)).body.refund;
    await refund(999_999, "Too much").expect(400);
    const second = (await refund(2000, "Gutters left undone").expect(201)).body.refund;
    expect(first.number).toMatch(/^HAV-CN-\d{4}-\d{6}$/);
    expect(second.number.slice(0, 12)).toBe(first.number.slice(0, 12));
    expect(serial(second.number)).toBe(serial(first.number) + 1);
    expect(first).toMatchObject({ status: "succeeded", amountCents: 1000 });

    const detail = await staff.agent.get(`/api/invoices/${invoice.id}`).expect(200);
    expect(detail.body.refunds.map((r: { number: string }) => r.number)).toEqual([first.number, second.number]);
    expect(await pdfText(staff.agent, `/api/invoices/${invoice.id}/pdf`)).toContain(`Credit note ${first.number}`);
    const page = await staff.agent.get(`/admin/invoices/${invoice.id}`).expect(200);
    for (const r of [first, second]) {
      expect(page.text).toContain(r.number);
      expect(page.text).toContain(`/api/refunds/${r.id}/pdf`);
    }
    const sub = await staff.agent.get(`/admin/subscriptions/${invoice.subscription_id}`).expect(200);
    expect(sub.text).toContain(`/api/refunds/${first.id}/pdf`);

    const text = await pdfText(staff.agent, `/api/refunds/${first.id}/pdf`);
    for (const part of [
      "CREDIT NOTE",
      `Credit note no.: ${first.number}`,
      `Credits invoice no.: ${invoice.number}`,
      "Amount before tax",
      "HST 13% (ON) refunded",
      "$8.85",
      "$1.15",
      "$10.00",
      "Missed the spring visit",
      "GST/HST registration no. 123456789 RT0001",
    ])
      expect(text).toContain(part);
    expect(text).not.toContain("QST registration");
    await staff.agent.get("/api/refunds/999999/pdf").expect(404);
    const mail = (await queuedMails(ctx)).find((m) => m.subject === "Your Haven refund: $10.00 CAD");
    expect(mail?.text).toContain(`Credit note: ${first.number}`);
  });
});

describe("a quote's invoice (demo)", () => {
  it("is refunded from its staff page: the form, the credit note, the homeowner's e-mail, the QST number on its PDF", async () => {
    const { invoiceId, email } = await paidQuoteInvoice(ctx);
    const invoice = await ctx.db("invoices").where({ id: invoiceId }).first();
    const page = await staff.agent.get(`/admin/invoices/${invoiceId}`).expect(200);
    expect(page.text).toContain('data-testid="refund-form"');
    const bad = await staff.agent
      .post(`/admin/invoices/${invoiceId}/refund`)
      .type("form")
      .send({ amount: "9000.00", reason: "Too much", expectedRefundedCents: "0" })
      .expect(400);
    expect(bad.text).toContain("is left to refund");
    expect(await ctx.db("refunds").where({ invoice_id: invoiceId })).toHaveLength(0);
    await staff.agent
      .post(`/admin/invoices/${invoiceId}/refund`)
      .type("form")
      .send({ amount: "100.00", reason: "Part of the work not done", expectedRefundedCents: "0" })
      .expect(303)
      .expect("Location", `/admin/invoices/${invoiceId}?refund=succeeded`);
    const [row] = await ctx.db("refunds").where({ invoice_id: invoiceId });
    expect(row).toMatchObject({ amount_cents: 10000, provider_refund_id: `demo_re_${invoiceId}_1` });
    const after = await staff.agent.get(`/admin/invoices/${invoiceId}?refund=succeeded`).expect(200);
    expect(after.text).toContain("Refund made");
    expect(after.text).toContain(row.number);
    // A Quebec home's credit note e-mail is in French too (docs/decisions.md#68).
    const mail = (await queuedMails(ctx)).find(
      (m) => m.to === email && m.subject.startsWith("Votre remboursement Haven"),
    );
    const mailText = mail?.text.replace(/\u00a0/g, " ");
    expect(mailText).toContain(`Note de crédit : ${row.number}`);
    expect(mailText).toContain(`Crédite la facture : ${invoice.number}`);
    expect(mailText).toContain("Nº d'inscription à la TVQ :");
    const text = await pdfText(staff.agent, `/api/refunds/${row.id}/pdf`);
    // A Quebec home's credit note is in French, whatever the customer's language (docs/decisions.md#68).
    expect(text).toContain("Nº d'inscription à la TVQ");
    expect(text).toContain("Replace the water heater");
    expect(text).toContain("(QC) remboursée");
  });
});
