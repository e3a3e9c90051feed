// A quote is a document a homeowner can say yes to (docs/decisions.md#42): the scope apart from internal notes,
// the price before tax, the tax of the home's province and the total, how long it is valid, what happens after
// yes; one e-mail per version of a quote; an expired quote refused by every path; the bell on every answer.
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUOTE_VALID_DAYS, afterYesText, expiredMessage } from "../../src/modules/quotes/index.js";
import { addDays } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { type Smtp, startSmtp } from "../support/smtp.js";
import { pdfText, runJobs, shareReport, sharedReportFixture } from "./sharing-fixtures.js";
import { suiteToday } from "../support/clock.js";

const TZ = "America/Toronto";
const OFFICE = "office@haven.example";
const INTERNAL = "INTERNAL margin 40% do not show";
const SCOPE = "Drain and replace the 40-gallon tank.\nHaul the old one away.";

let ctx: TestContext;
let smtp: Smtp;
let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({
    SMTP_URL: smtp.url,
    PUBLIC_URL: "https://haven.example",
    BUSINESS_TZ: TZ,
    REPLY_TO: OFFICE,
  });
  staff = (await signInStaff(ctx)).agent;
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const today = () => suiteToday(TZ);

interface Quote {
  id: number;
  status: string;
  version: number;
  scope: string | null;
  validUntil: string | null;
  taxProvince: string;
  totals: {
    subtotalCents: number;
    taxLines: { label: string; amountCents: number }[];
    taxCents: number;
    totalCents: number;
  } | null;
}

/** A home at this postal code whose owner asked for quotes on every finding; its requests and a home session. */
async function homeWithRequests(address: string, postalCode: string) {
  const fixture = await sharedReportFixture(ctx, address);
  await ctx.db("properties").where({ id: fixture.propertyId }).update({ postal_code: postalCode });
  const email = (await ctx.db("properties").where({ id: fixture.propertyId }).first()).client_email as string;
  const { token } = await shareReport(staff, fixture.report.id, email);
  const client = ctx.agent();
  await client.get(`/api/client-report/${token}`).expect(200);
  await client
    .post(`/api/client-report/${token}/responses`)
    .send({ responses: fixture.taskIds.map((id) => ({ maintenanceTaskId: id, action: "request_quote", notes: null })) })
    .expect(201);
  const list = await staff.get(`/api/quote-requests?propertyId=${fixture.propertyId}`).expect(200);
  return {
    ...fixture,
    email,
    ids: (list.body as Quote[]).map((q) => q.id),
    home: await signInHome(ctx, email),
  };
}

const quote = async (id: number, body: Record<string, unknown>) =>
  (
    await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", ...body })
      .expect(200)
  ).body as Quote;

const readyMails = async (id: number) =>
  (await smtp.mails()).filter(
    (m) => m.subject?.startsWith("Your Haven quote is ready") && m.text?.includes(`#quote-${id}`),
  );

const longDate = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString("en-CA", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });

const notificationsOf = async (id: number) =>
  (
    await ctx
      .db("notifications")
      .where({ record_type: "quote_request", record_id: String(id) })
      .orderBy("id")
  ).map((n: { kind: string; text: string; link: string }) => ({ kind: n.kind, text: n.text, link: n.link }));

describe("the quote's figures: the home's province's tax (docs/decisions.md#32, #42)", () => {
  it("a Quebec home pays GST and QST; the staff list shows scope, tax and total", async () => {
    const { ids } = await homeWithRequests("8 Rue Saint-Denis", "H2X 1Y4");
    const quoted = await quote(ids[0]!, { quotedAmount: "$650", scope: SCOPE, adminNotes: INTERNAL });
    expect(quoted).toMatchObject({ scope: SCOPE, taxProvince: "QC", adminNotes: INTERNAL });
    expect(quoted.totals).toEqual({
      subtotalCents: 65_000,
      taxLines: [
        { kind: "GST", label: "GST 5%", percent: 5, amountCents: 3250 },
        { kind: "QST", label: "QST 9.975%", percent: 9.975, amountCents: 6484 },
      ],
      taxCents: 9734,
      totalCents: 74_734,
    });
    expect((await ctx.db("quote_requests").where({ id: ids[0] }).first()).tax_province).toBe("QC");

    const page = await staff.get(`/admin/quote-requests?q=${encodeURIComponent("8 Rue Saint-Denis")}`).expect(200);
    const item = page.text.slice(page.text.indexOf(`data-quote-request="${ids[0]}"`));
    expect(item).toContain("Drain and replace the 40-gallon tank.");
    expect(item).toContain("GST 5% $32.50 · QST 9.975% $64.84 (QC)");
    expect(item).toMatch(/data-total-with-tax>\$747\.34</);
    expect(page.text).toContain("Admin Notes (internal)");
  });

  it("an Ontario home pays HST; a home whose postal code names no province pays BUSINESS_PROVINCE's", async () => {
    const { ids } = await homeWithRequests("14 Elgin Street", "K1S 2B4");
    const quoted = await quote(ids[0]!, { quotedAmount: "$650" });
    expect(quoted.taxProvince).toBe("ON");
    expect(quoted.totals?.taxLines.map((l) => [l.label, l.amountCents])).toEqual([["HST 13%", 8450]]);
    expect(quoted.totals?.totalCents).toBe(73_450);

    const nowhere = await homeWithRequests("1 Nowhere Road", "99999");
    expect((await quote(nowhere.ids[0]!, { quotedAmount: "$100" })).taxProvince).toBe("ON");
  });

  it("a range has no totals: My Home says it is not paid online", async () => {
    const { ids, home } = await homeWithRequests("3 Range Road", "K2P 1L4");
    const quoted = await quote(ids[0]!, { quotedAmount: "$800-1,200" });
    expect(quoted.totals).toBeNull();
    const mine = (await home.get("/api/my-home/quotes").expect(200)).body as Quote[];
    expect(mine.find((q) => q.id === ids[0])?.totals).toBeNull();
    const page = await home.get("/my-home/quotes").expect(200);
    expect(page.text).toContain("cannot be paid online");
  });
});

describe("validity (docs/decisions.md#42)", () => {
  it("is 30 days from the quoted day unless staff give a date; a day before today or a wrong date writes nothing", async () => {
    const { ids } = await homeWithRequests("20 Valid Avenue", "K1S 2B4");
    expect((await quote(ids[0]!, { quotedAmount: "$100" })).validUntil).toBe(addDays(today(), QUOTE_VALID_DAYS));
    const chosen = addDays(today(), 10);
    expect((await quote(ids[1]!, { quotedAmount: "$100", validUntil: chosen })).validUntil).toBe(chosen);

    const before = await ctx.db("quote_requests").where({ id: ids[2] }).first();
    const past = await staff
      .patch(`/api/quote-requests/${ids[2]}`)
      .send({ status: "quoted", quotedAmount: "$100", validUntil: addDays(today(), -1) })
      .expect(400);
    expect(past.body.fields.validUntil).toBe("Valid until cannot be before today");
    const wrong = await staff
      .patch(`/api/quote-requests/${ids[2]}`)
      .send({ status: "quoted", quotedAmount: "$100", validUntil: "2027-02-30" })
      .expect(400);
    expect(wrong.body.fields.validUntil).toContain("must be a date");
    await staff
      .patch(`/api/quote-requests/${ids[2]}`)
      .send({ status: "quoted", quotedAmount: "$100", validUntil: addDays(today(), 400) })
      .expect(400);
    expect(await ctx.db("quote_requests").where({ id: ids[2] }).first()).toEqual(before);
  });

  it("an expired quote cannot be accepted by link, My Home or staff (409, nothing written); a re-quote renews it", async () => {
    const { ids, home, propertyId } = await homeWithRequests("9 Expired Way", "K1S 2B4");
    const id = ids[0]!;
    await quote(id, { quotedAmount: "$300", scope: "Clean the gutters" });
    const link = (await staff.post(`/api/properties/${propertyId}/generate-quote-report`).expect(201)).body
      .reportLink as string;
    const path = new URL(link).pathname;
    const client = ctx.agent();
    await client.get(path).expect(200);

    const yesterday = addDays(today(), -1);
    await ctx.db("quote_requests").where({ id }).update({ valid_until: yesterday });
    const before = await ctx.db("quote_requests").where({ id }).first();
    const message = expiredMessage(yesterday);
    expect(message).toBe(`This quote expired on ${longDate(yesterday)}; ask us for a new one`);

    const byHome = await home.post(`/api/my-home/quotes/${id}/accept`).expect(409);
    expect(byHome.body.message).toBe(message);
    const byPage = await home.post(`/my-home/quotes/${id}/decision`).type("form").send({ decision: "accept" });
    expect(byPage.status).toBe(303);
    expect(byPage.headers.location).toBe("/my-home/quotes?problem=expired");
    const byLink = await client.post(`${path}/items/${id}`).type("form").send({ decision: "accept" }).expect(409);
    expect(byLink.text).toContain("This quote expired on");
    expect(byLink.text).toContain("Expired on");
    const byStaff = await staff.patch(`/api/quote-requests/${id}`).send({ status: "accepted" }).expect(409);
    expect(byStaff.body.message).toBe(message);
    expect(await ctx.db("quote_requests").where({ id }).first()).toEqual(before);
    const { maintenance_task_id } = before;
    expect((await ctx.db("maintenance_tasks").where({ id: maintenance_task_id }).first()).status).not.toBe("scheduled");
    expect(await notificationsOf(id)).toEqual([]);

    // The homeowner sees it expired, with no Accept; Decline still works for another expired one.
    const mine = (await home.get("/api/my-home/quotes").expect(200)).body as (Quote & { expired: boolean })[];
    expect(mine.find((q) => q.id === id)?.expired).toBe(true);
    const myPage = await home.get("/my-home/quotes").expect(200);
    const card = myPage.text.slice(myPage.text.indexOf(`id="quote-${id}"`)).split("</li>")[0]!;
    expect(card).toContain(`Expired on ${longDate(yesterday)}`);
    expect(card).not.toContain("data-accept");

    // Staff re-quote: valid again for 30 days, and the homeowner can say yes.
    const renewed = await quote(id, { quotedAmount: "$300", version: before.version });
    expect(renewed.validUntil).toBe(addDays(today(), QUOTE_VALID_DAYS));
    expect(renewed.scope).toBe("Clean the gutters");
    const accepted = await home.post(`/api/my-home/quotes/${id}/accept`).expect(200);
    expect(accepted.body.status).toBe("accepted");
  });
});

describe("no adminNotes in any client payload", () => {
  it("My Home, the quote page, the quote report call, its e-mail and PDF, the quote-ready e-mail and PDF", async () => {
    const { ids, home, propertyId } = await homeWithRequests("31 Secret Street", "K1S 2B4");
    await quote(ids[0]!, { quotedAmount: "$410", scope: "Seal the flashing", adminNotes: INTERNAL });
    await quote(ids[1]!, { quotedAmount: "$90", adminNotes: INTERNAL });
    smtp.received.length = 0;
    const generated = await staff.post(`/api/properties/${propertyId}/generate-quote-report`).expect(201);
    await runJobs(ctx);

    const payloads: string[] = [
      JSON.stringify(generated.body),
      JSON.stringify((await home.get("/api/my-home/quotes").expect(200)).body),
      (await home.get("/my-home/quotes").expect(200)).text,
      (await home.get("/my-home").expect(200)).text,
      (await ctx.agent().get(new URL(generated.body.reportLink).pathname).expect(200)).text,
    ];
    const mails = (await smtp.mails()).filter(
      (m) => m.text?.includes("31 Secret Street") && m.subject?.includes("quote"),
    );
    expect(mails.length).toBe(3); // two quote-ready e-mails and the quote report
    for (const mail of mails) {
      payloads.push(mail.text ?? "", String(mail.html ?? ""));
      for (const pdf of mail.attachments.filter((a) => a.contentType === "application/pdf"))
        payloads.push(await pdfText(pdf.content));
    }
    for (const payload of payloads) {
      expect(payload).not.toContain("INTERNAL");
      expect(payload).not.toContain("adminNotes");
    }
    expect(JSON.stringify(generated.body.items)).toContain("Seal the flashing");
  });
});

describe("the quote-ready e-mail (docs/decisions.md#42)", () => {
  const textOf = (mail: ParsedMail) => mail.text ?? "";

  it("says what will be done, the figures, the validity and what happens after yes, with both links, once per version", async () => {
    const { ids, email } = await homeWithRequests("77 Rue Sherbrooke", "H2X 1Y4");
    const id = ids[0]!;
    smtp.received.length = 0;
    const quoted = await quote(id, { quotedAmount: "$650", scope: SCOPE, adminNotes: INTERNAL });
    await runJobs(ctx);
    await runJobs(ctx);
    const [mail, ...more] = await readyMails(id);
    expect(more).toEqual([]);
    expect(mail!.to && !Array.isArray(mail!.to) ? mail!.to.text : "").toBe(email);
    expect(mail!.replyTo?.text).toBe(OFFICE);
    expect(mail!.subject).toMatch(/^Your Haven quote is ready: /);
    const text = textOf(mail!);
    expect(text).toContain("What will be done: Drain and replace the 40-gallon tank.");
    expect(text).toContain("Price before tax: $650.00");
    expect(text).toContain("GST 5%: $32.50");
    expect(text).toContain("QST 9.975%: $64.84");
    expect(text).toContain("Total: $747.34");
    expect(text).toContain(`Valid until: ${longDate(quoted.validUntil!)}`);
    expect(text).toContain(afterYesText(null));
    expect(text).toContain("one of our technicians comes at the time you agree");
    expect(text).toMatch(/See it and accept or decline it: https:\/\/haven\.example\/quote-report\/[A-Za-z0-9_-]{43}/);
    expect(text).toContain(`Or in My Home: https://haven.example/my-home/quotes#quote-${id}`);
    expect(text).not.toContain("INTERNAL");
    expect(String(mail!.html)).toContain("QST 9.975%");
    const pdf = mail!.attachments.find((a) => a.contentType === "application/pdf")!;
    const pdfWords = await pdfText(pdf.content);
    expect(pdfWords).toContain("Haven Quote");
    expect(pdfWords).toContain("$747.34");
    expect(pdfWords).toContain("QST 9.975%");
    expect(pdfWords).toContain("Valid until");

    // The quote page of the e-mail opens, with the same document.
    const link = text.match(/https:\/\/haven\.example(\/quote-report\/[A-Za-z0-9_-]{43})/)![1]!;
    const page = await ctx.agent().get(link).expect(200);
    expect(page.text).toContain("Drain and replace the 40-gallon tank.");
    expect(page.text).toContain("$747.34");

    // A re-quote is a new version: one more e-mail. Two quick edits before the worker runs: only the latest is sent.
    await quote(id, { quotedAmount: "$700", scope: SCOPE });
    await runJobs(ctx);
    expect((await readyMails(id)).length).toBe(2);
    await quote(id, { quotedAmount: "$710", scope: SCOPE });
    await quote(id, { quotedAmount: "$720", scope: SCOPE });
    await runJobs(ctx);
    const all = await readyMails(id);
    expect(all.length).toBe(3);
    expect(textOf(all[2]!)).toContain("Price before tax: $720.00");
    // A stale dialog's save (409) sends nothing.
    await staff
      .patch(`/api/quote-requests/${id}`)
      .send({ status: "quoted", quotedAmount: "$730", version: 1 })
      .expect(409);
    await runJobs(ctx);
    expect((await readyMails(id)).length).toBe(3);
  });

  it("names who comes when the task is assigned", async () => {
    const { ids } = await homeWithRequests("5 Assigned Lane", "K1S 2B4");
    const inspector = await ctx.db("staff_users").first("id", "first_name", "last_name");
    const { maintenance_task_id } = await ctx.db("quote_requests").where({ id: ids[0] }).first();
    await ctx.db("maintenance_tasks").where({ id: maintenance_task_id }).update({ assigned_to: inspector.id });
    smtp.received.length = 0;
    await quote(ids[0]!, { quotedAmount: "$120" });
    await runJobs(ctx);
    const [mail] = await readyMails(ids[0]!);
    expect(mail!.text).toContain(`${inspector.first_name} ${inspector.last_name} comes at the time you agree`);
  });
});

describe("the bell on every answer (docs/decisions.md#42)", () => {
  it("a link's accept, My Home's decline and staff's accept on the homeowner's behalf each raise one", async () => {
    const { ids, home, propertyId } = await homeWithRequests("60 Bell Street", "K1S 2B4");
    for (const id of ids) await quote(id, { quotedAmount: "$100" });
    const link = (await staff.post(`/api/properties/${propertyId}/generate-quote-report`).expect(201)).body
      .reportLink as string;
    const path = new URL(link).pathname;
    const client = ctx.agent();
    await client.get(path).expect(200);

    await client.post(`${path}/items/${ids[0]}`).type("form").send({ decision: "accept" }).expect(303);
    await home.post(`/api/my-home/quotes/${ids[1]}/decline`).expect(200);
    await staff.patch(`/api/quote-requests/${ids[2]}`).send({ status: "accepted" }).expect(200);

    expect((await notificationsOf(ids[0]!)).map((n) => n.kind)).toEqual(["quote-accepted"]);
    expect((await notificationsOf(ids[1]!)).map((n) => n.kind)).toEqual(["quote-declined"]);
    const onBehalf = await notificationsOf(ids[2]!);
    expect(onBehalf.map((n) => n.kind)).toEqual(["quote-accepted"]);
    // Each line says who did what (docs/decisions.md#55): the homeowner, or the staff user by name and role.
    const owner = (await ctx.db("properties").where({ id: propertyId }).first()).client_name as string;
    expect((await notificationsOf(ids[0]!))[0]!.text).toMatch(
      new RegExp(`^${owner} accepted the quote for .* \\(\\$100\\) at 60 Bell Street$`),
    );
    expect(onBehalf[0]!.text).toMatch(
      new RegExp(`^Sam Inspector \\(owner\\) accepted the quote for .* at 60 Bell Street for ${owner}$`),
    );
    // An acceptance leads to where the office books it; a decline to the request itself.
    expect((await notificationsOf(ids[0]!))[0]!.link).toBe("/admin/quotes-to-book");
    expect((await notificationsOf(ids[1]!))[0]!.link).toBe("/admin/quote-requests?status=declined");
    // The staff bell lists them.
    const bell = await staff.get("/admin/notifications?kind=quote-accepted").expect(200);
    expect(bell.text).toContain("Sam Inspector (owner) accepted the quote for");
  });
});
