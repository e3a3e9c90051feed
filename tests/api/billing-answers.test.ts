// Billing answers for the office (src/modules/invoices/invoices.md): "why was I charged $412 on the 4th?"
// answered from the API alone: the invoice search by amount and business day finds the charge; its subscription says
// it was bought on /checkout, with the charge's time and provider id. Resending a receipt (a real SMTP server
// receives it; a double click is one e-mail; unpaid 409; inspector 403), the subscription page's purchase line and
// what is owed, and both CSVs.
import { randomBytes } from "node:crypto";
import { Logger, runOnce } from "graphile-worker";
import { type ParsedMail, simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffRole } from "../../src/http/roles.js";
import { taskList } from "../../src/jobs.js";
import { InvoiceListRepository } from "../../src/modules/invoices/invoice-list.repository.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { type Smtp, startSmtp } from "../support/smtp.js";

const TZ = "America/Toronto";
const silent = new Logger(() => () => undefined);
let ctx: TestContext;
let smtp: Smtp;
let owner: Awaited<ReturnType<typeof signInStaff>>;
let seq = 0;

async function signInAs(role: StaffRole) {
  const agent = ctx.agent();
  const email = `${role}-${randomBytes(3).toString("hex")}@haven.test`;
  const password = "correct horse battery";
  await ctx.container.users.create({ email, password, firstName: "Olga", lastName: "Office", role });
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return agent;
}

/** Sends what is queued, as the worker would, and returns the messages received since the last call. */
async function delivered(): Promise<ParsedMail[]> {
  await runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });
  return Promise.all(smtp.received.splice(0).map((m) => simpleParser(m)));
}

/** A Standard purchase as the payment paths make one, at `at`, attached to a home in Ottawa (HST 13%). */
async function buy(
  name: string,
  at: Date,
  { priceList = "checkout", card = "4242424242424242" }: { priceList?: "checkout" | "pricing"; card?: string } = {},
) {
  seq++;
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@example.com`;
  const checkoutRef = `demo_cs_answers_${seq}_${randomBytes(3).toString("hex")}`;
  const sub = await ctx.container.subscriptions.startDemo(
    {
      checkoutRef,
      planType: "standard",
      amountCents: priceList === "checkout" ? 41200 : 37000,
      payerEmail: email,
      payerName: name,
      cardNumber: card,
      priceList,
      postalCode: "K1S 2B4",
    },
    at,
  );
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name, phone: "613-555-0100", subscriptionPlan: "standard" },
    { address: `${seq} Bank Street`, city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1500 },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(checkoutRef, { customerId: customer.id, propertyId: property.id }, tx),
  );
  return { sub, email };
}

let asked: Awaited<ReturnType<typeof buy>>;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({ SMTP_URL: smtp.url, BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
  owner = await signInStaff(ctx);
  // The customer who asks: bought Standard on /checkout at 9:30 PM on Monday Jan 4, 2027 in Ottawa (02:30 UTC on
  // the 5th): the business day is the 4th.
  asked = await buy("Ada Asker", new Date("2027-01-05T02:30:00Z"));
  // Others the search must not find: $412 on the 5th, $370 (/pricing) on the 4th, $412 on Nov 20.
  await buy("Ben Nextday", new Date("2027-01-05T15:00:00Z"));
  await buy("Cleo Pricing", new Date("2027-01-04T16:00:00Z"), { priceList: "pricing" });
  await buy("Dev November", new Date("2026-11-20T16:00:00Z"));
  await delivered();
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

describe("why was I charged $412 on the 4th? (the API alone)", () => {
  it("the search by 412 and the 4th finds the one charge, by its subtotal and by its total", async () => {
    const res = await owner.agent.get("/api/invoices?amount=412&from=2027-01-04&to=2027-01-04").expect(200);
    expect(res.headers["x-total-count"]).toBe("1");
    expect(res.body).toHaveLength(1);
    const [invoice] = res.body;
    expect(invoice).toMatchObject({
      subscriptionId: asked.sub.id,
      customerEmail: asked.email,
      subtotal: 412,
      tax: 53.56,
      amount: 465.56,
      status: "paid",
      priceList: "checkout",
      paidAt: "2027-01-05T02:30:00.000Z",
    });
    expect(invoice.providerInvoiceId).toMatch(/^demo_in_/);
    // The total as the card statement shows it, and "$412.00" as typed.
    const byTotal = await owner.agent.get("/api/invoices?amount=465.56&from=2027-01-04&to=2027-01-04").expect(200);
    expect(byTotal.body.map((r: { id: number }) => r.id)).toEqual([invoice.id]);
    const typed = await owner.agent
      .get("/api/invoices")
      .query({ amount: "$412.00", from: "2027-01-04", to: "2027-01-04" });
    expect(typed.body.map((r: { id: number }) => r.id)).toEqual([invoice.id]);
    // Without the day: the three $412 charges; the $370 one is not among them.
    const all412 = await owner.agent.get("/api/invoices?amount=412").expect(200);
    expect(all412.headers["x-total-count"]).toBe("3");
    // A bad amount is a 400 naming the field.
    const bad = await owner.agent.get("/api/invoices?amount=12abc").expect(400);
    expect(bad.body.fields.amount).toMatch(/dollars/);
  });

  it("its subscription says it was bought on /checkout, with the charge's time and provider id", async () => {
    const [invoice] = (await owner.agent.get("/api/invoices?amount=412&from=2027-01-04&to=2027-01-04")).body;
    const detail = (await owner.agent.get(`/api/subscriptions/${invoice.subscriptionId}`).expect(200)).body;
    expect(detail.priceList).toBe("checkout");
    expect(detail.subscription).toMatchObject({ planType: "standard", monthlyAmount: 412 });
    expect(detail.invoices[0]).toMatchObject({
      paidAt: "2027-01-05T02:30:00.000Z",
      providerInvoiceId: invoice.providerInvoiceId,
      billingReason: "subscription_create",
    });
  });

  it("the staff page says the same: bought at $412 on /checkout on Jan 4, charged 9:30 PM EST, provider id", async () => {
    const html = (await owner.agent.get(`/admin/subscriptions/${asked.sub.id}`).expect(200)).text;
    expect(html).toContain("Bought at $412.00/month on the payment page (/checkout) on Jan 4, 2027");
    expect(html).toContain("Charged Jan 4, 2027, 9:30 PM EST");
    expect(html).toMatch(/data-testid="provider-id">demo_in_/);
    expect(html).not.toContain('data-testid="owed-now"');
    expect(html).not.toContain('data-testid="plan-price-now"');
    const list = (await owner.agent.get("/admin/invoices?amount=412&from=2027-01-04&to=2027-01-04").expect(200)).text;
    expect(list.match(/data-testid="invoice-row"/g)).toHaveLength(1);
    expect(list).toContain("Ada Asker");
    // The page never refuses its own form: an amount it cannot read is named under its field and is no filter.
    const typo = (await owner.agent.get("/admin/invoices?amount=4l2&from=2027-01-04&to=2027-01-04").expect(200)).text;
    expect(typo).toContain('id="invoice-amount-error"');
    expect(typo).toContain("Amount must be in dollars, like 412 or 465.56");
    expect(typo.match(/data-testid="invoice-row"/g)).toHaveLength(2);
  });

  it("the plan's price now shows when it differs from what the subscription keeps", async () => {
    await ctx.container.plans.setPrice("standard", { checkout: 430 });
    try {
      const html = (await owner.agent.get(`/admin/subscriptions/${asked.sub.id}`).expect(200)).text;
      expect(html).toContain("Standard is $430.00/month on /checkout today; this subscription keeps $412.00");
    } finally {
      await ctx.container.plans.setPrice("standard", { checkout: 412 });
    }
  });
});

describe("resending a receipt", () => {
  let invoiceId: number;
  beforeAll(async () => {
    invoiceId = (await owner.agent.get("/api/invoices?amount=412&from=2027-01-04&to=2027-01-04")).body[0].id;
  });

  it("the office resends: one e-mail reaches the payer, a double click with the same key is still one", async () => {
    const office = await signInAs("office");
    const first = await office
      .post(`/api/invoices/${invoiceId}/resend-receipt`)
      .set("Idempotency-Key", "click-1")
      .send({})
      .expect(201);
    expect(first.body).toMatchObject({ repeated: false, resend: { sentTo: asked.email, invoiceId } });
    const again = await office
      .post(`/api/invoices/${invoiceId}/resend-receipt`)
      .set("Idempotency-Key", "click-1")
      .send({})
      .expect(200);
    expect(again.body).toMatchObject({ repeated: true, resend: { id: first.body.resend.id } });
    const mails = await delivered();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toMatchObject({ text: asked.email });
    expect(mails[0]!.subject).toBe("Your Haven receipt: $465.56 CAD");
    expect(mails[0]!.text).toContain("Subtotal: $412.00 CAD");
    expect(mails[0]!.text).toContain(`/my-home/plan/invoices/${invoiceId}/pdf`);
    // The audit trail has it, as the office member's.
    const events = await ctx
      .db("audit_events")
      .where({ action: "invoice.resend_receipt", record_id: String(invoiceId) });
    expect(events).toHaveLength(1);
    expect(events[0].after).toMatchObject({ sentTo: asked.email });
  });

  it("a new click (a new key) sends again; the same key after a minute sends again too", async () => {
    const invoices = ctx.container.invoiceSide.invoices;
    const actor = `staff:${owner.user.id}`;
    const now = new Date();
    const a = await invoices.resendReceipt(invoiceId, { key: "click-2", actor }, now);
    const b = await invoices.resendReceipt(invoiceId, { key: "click-2", actor }, new Date(now.getTime() + 30_000));
    const c = await invoices.resendReceipt(invoiceId, { key: "click-2", actor }, new Date(now.getTime() + 61_000));
    expect([a.repeated, b.repeated, c.repeated]).toEqual([false, true, false]);
    expect(await delivered()).toHaveLength(2);
  });

  it("the page's button: htmx answers the button with a fresh key and a toast; without script, back with a notice", async () => {
    const fragment = await owner.agent
      .post(`/admin/invoices/${invoiceId}/resend-receipt`)
      .set("HX-Request", "true")
      .type("form")
      .send({ key: "page-click-1", back: `/admin/subscriptions/${asked.sub.id}`, number: "HAV-2027-000001" })
      .expect(200);
    expect(fragment.text).toContain('data-testid="toast"');
    expect(fragment.text).toContain(`Receipt sent`);
    expect(fragment.text).toContain(`to ${asked.email}`);
    expect(fragment.text).not.toContain('value="page-click-1"');
    const plain = await owner.agent
      .post(`/admin/invoices/${invoiceId}/resend-receipt`)
      .type("form")
      .send({ key: "page-click-2", back: "https://evil.example/" })
      .expect(303);
    expect(plain.headers.location).toBe(`/admin/invoices?resent=${invoiceId}`);
    expect(await delivered()).toHaveLength(2);
    const page = (await owner.agent.get(`/admin/subscriptions/${asked.sub.id}`).expect(200)).text;
    expect(page).toContain('data-testid="last-resend"');
  });

  it("an inspector may not resend (403), nor open the invoices page; an unknown invoice is a 404", async () => {
    const inspector = await signInAs("inspector");
    const refused = await inspector.post(`/api/invoices/${invoiceId}/resend-receipt`).send({}).expect(403);
    expect(refused.body.message).toBe("Your role (inspector) cannot see subscriptions, invoices or billing.");
    await inspector.get("/admin/invoices").expect(403);
    await owner.agent.post("/api/invoices/999999/resend-receipt").send({}).expect(404);
    expect(await delivered()).toEqual([]);
  });
});

describe("CSV exports", () => {
  /** RFC 4180 records: quoted cells may hold commas (an address) and doubled quotes. */
  const parse = (text: string): string[][] => {
    const records: string[][] = [];
    let record: string[] = [];
    let cell = "";
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (quoted && c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (quoted && c === '"') quoted = false;
      else if (quoted) cell += c;
      else if (c === '"') quoted = true;
      else if (c === ",") {
        record.push(cell);
        cell = "";
      } else if (c === "\r" && text[i + 1] === "\n") {
        record.push(cell);
        records.push(record);
        record = [];
        cell = "";
        i++;
      } else cell += c;
    }
    return records;
  };

  it("GET /api/subscriptions?format=csv: every row of the filter, no paging, with the price list", async () => {
    const json = await owner.agent.get("/api/subscriptions?plan=standard&limit=2").expect(200);
    const res = await owner.agent.get("/api/subscriptions?plan=standard&limit=2&format=csv").expect(200);
    expect(res.headers["content-type"]).toMatch(/text\/csv/);
    const [header, ...rows] = parse(res.text.replace(/^\ufeff/, ""));
    expect(rows).toHaveLength(Number(json.headers["x-total-count"]));
    expect(rows.length).toBeGreaterThan(2);
    const col = (name: string) => header!.indexOf(name);
    expect(col("priceList")).toBeGreaterThan(-1);
    const ada = rows.find((r) => r[col("customerEmail")] === asked.email)!;
    expect(ada[col("priceList")]).toBe("checkout");
    expect(ada[col("monthlyAmount")]).toBe("412");
    const cleo = rows.find((r) => r[col("customerEmail")] === "cleo.pricing@example.com")!;
    expect(cleo[col("priceList")]).toBe("pricing");
    await owner.agent.get("/api/subscriptions?format=xml").expect(400);
  });

  it("GET /api/invoices?format=csv carries number, dates, subtotal, each tax, total, refunded, provider id, price list", async () => {
    const res = await owner.agent.get("/api/invoices?amount=412&from=2027-01-04&to=2027-01-04&format=csv").expect(200);
    const [header, ...rows] = parse(res.text.replace(/^\ufeff/, ""));
    expect(rows).toHaveLength(1);
    for (const name of [
      "number",
      "paidAt",
      "periodStart",
      "periodEnd",
      "subtotal",
      "taxes.GST",
      "taxes.HST",
      "taxes.QST",
      "amount",
      "refunded",
      "providerInvoiceId",
      "priceList",
    ])
      expect(header, name).toContain(name);
    const cell = (name: string) => rows[0]![header!.indexOf(name)];
    expect([cell("subtotal"), cell("taxes.HST"), cell("amount"), cell("refunded"), cell("priceList")]).toEqual([
      "412",
      "53.56",
      "465.56",
      "0",
      "checkout",
    ]);
    expect(cell("providerInvoiceId")).toMatch(/^demo_in_/);
  });
});

describe("owed now, when past due", () => {
  it("a renewal that failed shows 'Owed now' with its open invoice", async () => {
    const late = await buy("Pat Pastdue", new Date("2027-02-02T15:00:00Z"), { card: "4000000000000341" });
    await ctx.container.subscriptions.renewDue(new Date("2027-03-03T12:00:00Z"));
    const detail = (await owner.agent.get(`/api/subscriptions/${late.sub.id}`).expect(200)).body;
    expect(detail.subscription.status).toBe("past_due");
    const open = detail.invoices.find((i: { status: string }) => i.status === "open");
    const html = (await owner.agent.get(`/admin/subscriptions/${late.sub.id}`).expect(200)).text;
    expect(html).toContain('data-testid="owed-now"');
    expect(html).toContain("Owed now: $465.56</strong> since Mar 2, 2027");
    expect(html).toContain(`href="#invoice-${open.id}"`);
    // An unpaid invoice has no receipt to resend: 409, nothing sent.
    await delivered();
    const refused = await owner.agent.post(`/api/invoices/${open.id}/resend-receipt`).send({}).expect(409);
    expect(refused.body.message).toMatch(/Only a paid invoice has a receipt/);
    expect(await delivered()).toEqual([]);
  });
});

describe("the search stays on indexes", () => {
  it("with 120,000 invoices, EXPLAIN of an amount and day search (the list and its count) reads the amount indexes", async () => {
    // A year of charges for many homes, on one test subscription (the foreign key); amounts of every plan and list.
    await ctx.db.raw(
      `insert into invoices (subscription_id, provider, provider_invoice_id, amount_cents, subtotal_cents, tax_cents,
         period_start, period_end, status, billing_reason, paid_at)
       select ?, 'demo', 'demo_in_bulk_' || n, (a * 113) / 100, a, (a * 13) / 100,
         t, t + interval '1 month', 'paid', 'subscription_cycle', t
       from (select n, (array[19400, 14900, 41200, 37000, 88900, 79900])[1 + n % 6] as a,
                    timestamptz '2026-01-01' + (n * interval '262 seconds') as t
             from generate_series(1, 120000) n) g`,
      [asked.sub.id],
    );
    await ctx.db.raw("analyze invoices");
    try {
      const lists = new InvoiceListRepository(ctx.db);
      const filter = {
        amountCents: 41200,
        from: new Date("2026-06-04T04:00:00Z"),
        to: new Date("2026-06-05T04:00:00Z"),
      };
      const explain = async (query: { toSQL(): { sql: string; bindings: readonly unknown[] } }) => {
        const { sql, bindings } = query.toSQL();
        const { rows } = await ctx.db.raw(`explain ${sql}`, bindings as never[]);
        return rows.map((r: { "QUERY PLAN": string }) => r["QUERY PLAN"]).join("\n");
      };
      // A day with an amount, an amount alone (newest first, a page of 100), a day alone; each list and its count.
      const day = { from: filter.from, to: filter.to };
      for (const f of [filter, { amountCents: 41200 }, day]) {
        for (const plan of [
          await explain(lists.listQuery(f).limit(100)),
          await explain(
            ctx
              .db("invoices as i")
              .count({ n: "*" })
              .modify((q) => lists.filterOf(q, f)),
          ),
        ]) {
          expect(plan, plan).not.toContain("Seq Scan on invoices");
          expect(plan, plan).toMatch(/invoices_(total_|subtotal_)?issued_idx/);
        }
      }
    } finally {
      await ctx.db("invoices").where("provider_invoice_id", "like", "demo_in_bulk_%").delete();
    }
  });
});
