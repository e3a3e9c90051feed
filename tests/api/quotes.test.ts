import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAllTranslated, pseudoApp } from "../support/pseudo-locale.js";
import {
  QUOTE_STATUSES,
  type QuoteStatus,
  STAFF_MOVES,
  parseCents,
} from "../../src/modules/quotes/quotes.constants.js";
import { QUOTE_REPORT_MAIL_TASK } from "../../src/modules/quotes/index.js";
import type { TestContext, signInStaff } from "../support/context.js";
import {
  type Smtp,
  jobCount,
  pdfText,
  runJobs,
  shareReport,
  sharedReportFixture,
  sharingTestApp,
} from "./sharing-fixtures.js";

let ctx: TestContext;
let smtp: Smtp;
let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];

beforeAll(async () => {
  ({ ctx, smtp, staff } = await sharingTestApp());
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const browser = () => ctx.agent();

/** A shared report whose client asked for quotes on every finding; returns the quote request ids. */
async function clientAskedForQuotes(address?: string) {
  const fixture = await sharedReportFixture(ctx, address);
  const { token } = await shareReport(staff, fixture.report.id, "quotes-client@example.com");
  const client = browser();
  await client.get(`/api/client-report/${token}`).expect(200);
  await client
    .post(`/api/client-report/${token}/responses`)
    .send({
      responses: fixture.taskIds.map((id, i) => ({
        maintenanceTaskId: id,
        action: "request_quote",
        notes: i === 0 ? "Please call first" : null,
      })),
    })
    .expect(201);
  const list = await staff.get(`/api/quote-requests?propertyId=${fixture.propertyId}`).expect(200);
  return {
    ...fixture,
    token,
    client,
    quotes: list.body as { id: number; maintenanceTaskId: number; status: string }[],
  };
}

const taskStatus = async (taskId: number) =>
  (await ctx.db("maintenance_tasks").where({ id: taskId }).first()).status as string;
const setStatus = (id: number, status: QuoteStatus) =>
  ctx
    .db("quote_requests")
    .where({ id })
    .update({ status, quoted_amount: status === "pending" || status === "declined" ? null : "$100" });

describe("quote requests (staff)", () => {
  it("are listed newest first with the spec's fields, grouped data per property, and need a session", async () => {
    const { quotes, propertyId, taskIds } = await clientAskedForQuotes("5 Quote Lane");
    await browser().get("/api/quote-requests").expect(401);
    expect(quotes).toHaveLength(taskIds.length);
    const res = await staff.get(`/api/quote-requests?propertyId=${propertyId}`).expect(200);
    expect(Number(res.headers["x-total-count"])).toBe(taskIds.length);
    const hot = res.body.find((q: { taskTitle: string }) => /Hot Water/.test(q.taskTitle));
    expect(hot).toMatchObject({
      propertyId,
      status: "pending",
      priority: "immediate",
      quotedAmount: null,
      adminNotes: null,
      clientNotes: "Please call first",
    });
    expect(hot.propertyAddress).toContain("5 Quote Lane");
    for (const key of [
      "propertyAddress",
      "taskTitle",
      "taskDescription",
      "status",
      "priority",
      "quotedAmount",
      "adminNotes",
      "clientNotes",
      "createdAt",
    ]) {
      expect(hot).toHaveProperty(key);
    }
    const searched = await staff.get("/api/quote-requests?q=5%20Quote%20Lane&status=pending").expect(200);
    expect(searched.body.length).toBe(taskIds.length);
    await staff.get("/api/quote-requests?status=nope").expect(400);
  });

  it("enforce every legal and illegal move of the status machine on the server", async () => {
    const { quotes } = await clientAskedForQuotes();
    const id = quotes[0]!.id;
    for (const from of QUOTE_STATUSES) {
      for (const to of QUOTE_STATUSES) {
        await setStatus(id, from);
        const body =
          to === "quoted" ? { status: to, quotedAmount: "$1,250.50", adminNotes: "parts on order" } : { status: to };
        const res = await staff.patch(`/api/quote-requests/${id}`).send(body);
        const legal = STAFF_MOVES[from].includes(to);
        expect(res.status, `${from} → ${to}`).toBe(legal ? 200 : 409);
        const row = await ctx.db("quote_requests").where({ id }).first();
        expect(row.status, `${from} → ${to}`).toBe(legal ? to : from);
        if (legal) expect(res.body.status).toBe(to);
      }
    }
    // The moves of staff-side §4, spelled out.
    expect(STAFF_MOVES).toEqual({
      pending: ["quoted", "declined"],
      quoted: ["accepted", "quoted"],
      accepted: ["completed"],
      declined: [],
      completed: [],
    });
  });

  it("a quote needs an amount; it is kept as typed and as cents when it reads as dollars", async () => {
    const { quotes } = await clientAskedForQuotes();
    const id = quotes[0]!.id;
    const missing = await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", quotedAmount: "  " })
      .expect(400);
    expect(missing.body.fields).toHaveProperty("quotedAmount");
    await staff.patch(`/api/quote-requests/${id}`).send({ status: "bogus" }).expect(400);
    await staff.patch("/api/quote-requests/99999999").send({ status: "declined" }).expect(404);
    await browser().patch(`/api/quote-requests/${id}`).send({ status: "declined" }).expect(401);
    expect((await ctx.db("quote_requests").where({ id }).first()).status).toBe("pending");

    const quoted = await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", quotedAmount: "$1,250.50", adminNotes: "Supplier A" })
      .expect(200);
    expect(quoted.body).toMatchObject({
      status: "quoted",
      quotedAmount: "$1,250.50",
      quotedCents: 125050,
      adminNotes: "Supplier A",
    });
    const edited = await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", quotedAmount: "$800-1,200", adminNotes: "range" })
      .expect(200);
    expect(edited.body).toMatchObject({ quotedAmount: "$800-1,200", quotedCents: null });
    expect([parseCents("1200"), parseCents("$45"), parseCents("CAD 300.5"), parseCents("call us")]).toEqual([
      120000,
      4500,
      30050,
      null,
    ]);
  });

  it("accepting schedules the task and completing completes it, in the same transaction", async () => {
    const { quotes } = await clientAskedForQuotes();
    const q = quotes[0]!;
    await staff.patch(`/api/quote-requests/${q.id}`).send({ status: "quoted", quotedAmount: "$300" }).expect(200);
    expect(await taskStatus(q.maintenanceTaskId)).toBe("pending");
    await staff.patch(`/api/quote-requests/${q.id}`).send({ status: "accepted" }).expect(200);
    expect(await taskStatus(q.maintenanceTaskId)).toBe("scheduled");
    await staff.patch(`/api/quote-requests/${q.id}`).send({ status: "completed" }).expect(200);
    expect(await taskStatus(q.maintenanceTaskId)).toBe("completed");
  });

  it("two staff moving one request at once: one wins, the other gets 409, nothing half-changed", async () => {
    const { quotes } = await clientAskedForQuotes();
    const q = quotes[0]!;
    const [a, b] = await Promise.all([
      staff.patch(`/api/quote-requests/${q.id}`).send({ status: "quoted", quotedAmount: "$500", adminNotes: "A" }),
      staff.patch(`/api/quote-requests/${q.id}`).send({ status: "declined" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const row = await ctx.db("quote_requests").where({ id: q.id }).first();
    if (a.status === 200) expect(row).toMatchObject({ status: "quoted", quoted_amount: "$500", admin_notes: "A" });
    else expect(row).toMatchObject({ status: "declined", quoted_amount: null, admin_notes: null });

    // Two accepts of one quoted request: the task is scheduled once, the second is a 409.
    const other = quotes[1]!;
    await staff.patch(`/api/quote-requests/${other.id}`).send({ status: "quoted", quotedAmount: "$90" }).expect(200);
    const accepts = await Promise.all(
      [1, 2].map(() => staff.patch(`/api/quote-requests/${other.id}`).send({ status: "accepted" })),
    );
    expect(accepts.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await taskStatus(other.maintenanceTaskId)).toBe("scheduled");
  });

  it("delete works in every status and answers 404 afterwards", async () => {
    const { quotes } = await clientAskedForQuotes();
    for (const [i, status] of (["pending", "quoted", "accepted"] as const).entries()) {
      const id = quotes[i]!.id;
      await setStatus(id, status);
      await browser().delete(`/api/quote-requests/${id}`).expect(401);
      await staff.delete(`/api/quote-requests/${id}`).expect(204);
      await staff.delete(`/api/quote-requests/${id}`).expect(404);
    }
  });

  it("the staff page groups the requests by property and shows the actions of each status", async () => {
    const { quotes, propertyId } = await clientAskedForQuotes("9 Page Road");
    await browser().get("/admin/quote-requests").expect(302);
    await staff
      .patch(`/api/quote-requests/${quotes[0]!.id}`)
      .send({ status: "quoted", quotedAmount: "$75" })
      .expect(200);
    const html = (await staff.get("/admin/quote-requests?q=9%20Page%20Road").expect(200)).text;
    expect(html).toContain(`data-property-group="${propertyId}"`);
    expect(html).toContain("9 Page Road");
    expect(html).toContain("Are you sure you want to delete this quote request?");
    expect(html).toContain("Provide Quote");
    expect(html).toMatch(/data-save-quote disabled>Save Quote/);
    expect(html).toContain(`data-generate-quote-report="${propertyId}" >`);
    expect(html).toContain(">Edit Quote<");
    expect(html).toContain(">Decline<");
    const fragment = await staff.get("/admin/quote-requests?q=9%20Page%20Road").set("HX-Request", "true").expect(200);
    expect(fragment.text).not.toContain("<html");
    expect(fragment.text).toContain('id="quote-list"');
  });
});

describe("the quote report", () => {
  it("needs a quoted item; e-mails the client the items, amounts and total with a PDF; the client accepts in one click", async () => {
    const { quotes, propertyId } = await clientAskedForQuotes("21 Total Avenue");
    await browser().post(`/api/properties/${propertyId}/generate-quote-report`).expect(401);
    await staff.post(`/api/properties/${propertyId}/generate-quote-report`).expect(409);
    await staff.post("/api/properties/99999999/generate-quote-report").expect(404);

    const [first, second, third] = quotes;
    await staff
      .patch(`/api/quote-requests/${first!.id}`)
      .send({ status: "quoted", quotedAmount: "$1,200", adminNotes: "INTERNAL margin 40%" })
      .expect(200);
    await staff
      .patch(`/api/quote-requests/${second!.id}`)
      .send({ status: "quoted", quotedAmount: "$300.50", adminNotes: "INTERNAL supplier B" })
      .expect(200);
    await staff.patch(`/api/quote-requests/${third!.id}`).send({ status: "declined" }).expect(200);

    const before = await jobCount(ctx, QUOTE_REPORT_MAIL_TASK);
    const generated = await staff.post(`/api/properties/${propertyId}/generate-quote-report`).expect(201);
    expect(await jobCount(ctx, QUOTE_REPORT_MAIL_TASK)).toBe(before + 1);
    const link = generated.body.reportLink as string;
    expect(link).toMatch(/^https:\/\/haven\.example\/quote-report\/[A-Za-z0-9_-]{43}$/);
    expect(generated.body.totalCents).toBe(150050);
    expect(JSON.stringify(generated.body)).not.toMatch(/adminNotes|INTERNAL/);

    smtp.received.length = 0;
    await runJobs(ctx);
    const mail = (await smtp.mails()).find((m) => m.subject?.includes("21 Total Avenue"))!;
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toMatch(/@example\.ca$/);
    expect(mail.text).toContain("$1,200");
    expect(mail.text).toContain("$300.50");
    expect(mail.text).toContain("Total before tax: $1,500.50");
    expect(mail.text).toContain(link);
    expect(mail.text).not.toContain("INTERNAL");
    const pdf = mail.attachments.find((a) => a.contentType === "application/pdf")!;
    expect(pdf.filename).toBe("haven-quote-report.pdf");
    const text = await pdfText(pdf.content);
    expect(text).toContain("Haven Quote Report");
    expect(text).toContain("$1,200");
    expect(text).toContain("$300.50");
    expect(text).toContain("$1,500.50");
    expect(text).not.toContain("INTERNAL");

    const path = new URL(link).pathname;
    const token = path.split("/").pop()!;
    const client = browser();
    const page = await client.get(path).expect(200);
    expect(page.text).toContain("$1,200");
    expect(page.text).toContain("$1,500.50");
    expect(page.text).not.toContain("INTERNAL");
    expect(page.text).not.toContain("data-site-nav");
    expect(page.headers["set-cookie"]?.[0]).toMatch(
      new RegExp(`^haven_link=.*Path=/quote-report/${token}.*HttpOnly`, "i"),
    );
    expect((await browser().get(path).expect(303)).headers.location).toBe("/report-expired");
    // The same page in French, its cookie reaching /fr too (docs/decisions.md#65); every word from the catalogue.
    const french = await client.get(`/fr${path}`).expect(200);
    expect(french.text).toContain('<html lang="fr-CA">');
    expect(french.text).toContain("Votre soumission Haven");
    expect(french.text).toContain("1\u00a0500,50\u00a0$");
    expect(french.text).toContain(`action="/fr${path}/items/`);
    const cookie = ([] as string[])
      .concat(page.headers["set-cookie"] ?? [])
      .map((c) => c.split(";")[0])
      .join("; ");
    const pseudo = await supertest(pseudoApp(ctx)).get(path).set("Cookie", cookie).expect(200);
    expectAllTranslated(
      pseudo.text,
      path,
      [
        ...new Set(
          [
            ...(await ctx.db("maintenance_tasks").where({ property_id: propertyId }).pluck("title")),
            ...(await ctx.db("maintenance_tasks").where({ property_id: propertyId }).pluck("description")),
            ...(await ctx.db("quote_requests").where({ property_id: propertyId }).pluck("scope")),
            ...(await ctx.db("quote_requests").where({ property_id: propertyId }).pluck("quoted_amount")),
            ...(await ctx
              .db("properties as p")
              .join("customers as c", "c.id", "p.customer_id")
              .where("p.id", propertyId)
              .pluck("c.name")),
            ...(await ctx.db("properties").where({ id: propertyId }).pluck("address")),
            ...Object.values(
              await ctx.db("properties").where({ id: propertyId }).first("city", "province", "postal_code"),
            ).map(String),
            "Haven",
          ].filter(Boolean),
        ),
      ].sort((a, b) => b.length - a.length),
    );

    // A declined item is not in the report; an item of another property is refused.
    await client.post(`${path}/items/${third!.id}`).type("form").send({ decision: "accept" }).expect(400);
    await client.post(`${path}/items/${first!.id}`).type("form").send({ decision: "maybe" }).expect(400);
    await browser().post(`${path}/items/${first!.id}`).type("form").send({ decision: "accept" }).expect(303);
    expect((await ctx.db("quote_requests").where({ id: first!.id }).first()).status).toBe("quoted");

    const accepted = await client
      .post(`${path}/items/${first!.id}`)
      .type("form")
      .send({ decision: "accept" })
      .expect(303);
    expect(accepted.headers.location).toBe(`${path}#item-${first!.id}`);
    const staffView = await staff.get(`/api/quote-requests?propertyId=${propertyId}&status=accepted`).expect(200);
    expect(staffView.body.map((q: { id: number }) => q.id)).toEqual([first!.id]);
    expect(await taskStatus(first!.maintenanceTaskId)).toBe("scheduled");
    await client.post(`${path}/items/${first!.id}`).type("form").send({ decision: "decline" }).expect(409);

    // Reusable by the same browser until every item is answered; then spent.
    await client.get(path).expect(200);
    const last = await client
      .post(`${path}/items/${second!.id}`)
      .type("form")
      .send({ decision: "decline" })
      .expect(200);
    expect(last.text).toContain("every item is answered");
    expect((await ctx.db("quote_requests").where({ id: second!.id }).first()).status).toBe("declined");
    expect((await client.get(path).expect(303)).headers.location).toBe("/report-expired");
  });

  it("no client payload carries adminNotes", async () => {
    const { quotes, token, client, propertyId } = await clientAskedForQuotes();
    await staff
      .patch(`/api/quote-requests/${quotes[0]!.id}`)
      .send({ status: "quoted", quotedAmount: "$10", adminNotes: "SECRET-NOTE" })
      .expect(200);
    const report = await client.get(`/api/client-report/${token}`).expect(200);
    expect(JSON.stringify(report.body)).not.toMatch(/adminNotes|admin_notes|SECRET-NOTE/);
    const generated = await staff.post(`/api/properties/${propertyId}/generate-quote-report`).expect(201);
    const page = await browser().get(new URL(generated.body.reportLink).pathname).expect(200);
    expect(page.text).not.toMatch(/adminNotes|SECRET-NOTE/);
  });
});
