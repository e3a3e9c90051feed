import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import pino from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createContainer } from "../../src/container.js";
import { createKnex } from "../../src/db/knex.js";
import { redactLinkTokens } from "../../src/shared/one-time-links.js";
import { SAMPLE_READ_ONLY_MESSAGE, SHARE_MAIL_TASK } from "../../src/modules/sharing/index.js";
import { sampleReport } from "../../seeds/sample-report.js";
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

/** A browser of its own: its own cookie jar. */
const browser = () => ctx.agent();
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** Every key at any depth of a JSON value. */
function keysOf(value: unknown, keys = new Set<string>()): Set<string> {
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      keys.add(k);
      keysOf(v, keys);
    }
  }
  return keys;
}

describe("sharing a report (staff)", () => {
  it("needs a staff session, a valid e-mail and an existing report", async () => {
    const { report } = await sharedReportFixture(ctx);
    await browser().post(`/api/reports/${report.id}/share`).send({ clientEmail: "a@example.com" }).expect(401);
    const bad = await staff.post(`/api/reports/${report.id}/share`).send({ clientEmail: "not-an-email" }).expect(400);
    expect(bad.body.fields).toHaveProperty("clientEmail");
    const missing = await staff.post(`/api/reports/${report.id}/share`).send({}).expect(400);
    expect(missing.body.fields.clientEmail).toBe("Client email is required");
    await staff.post("/api/reports/99999999/share").send({ clientEmail: "a@example.com" }).expect(404);
    await staff.post("/api/reports/abc/share").send({ clientEmail: "a@example.com" }).expect(400);
    expect(Number((await ctx.db("report_shares").where({ report_id: report.id }).count({ n: "*" }).first())!.n)).toBe(
      0,
    );
  });

  it("answers {reportLink}, stores only the token's SHA-256, and queues the e-mail in the same transaction", async () => {
    const { report } = await sharedReportFixture(ctx, "77 Share Street");
    const before = await jobCount(ctx, SHARE_MAIL_TASK);
    const asked = Date.now();
    const { link, token, body } = await shareReport(staff, report.id, "owner@example.com");
    const answered = Date.now();
    expect(link).toMatch(/^https:\/\/haven\.example\/client-report\/[A-Za-z0-9_-]{43}$/);
    expect(body.testLink).toBe(link);
    expect(await jobCount(ctx, SHARE_MAIL_TASK)).toBe(before + 1);

    const row = await ctx.db("report_shares").where({ report_id: report.id }).first();
    expect(row.token_hash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.client_email).toBe("owner@example.com");
    // 30 days from the share, on the app's clock (created_at is the database's: tests/README.md).
    const expires = new Date(row.expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(asked + 30 * 86_400_000 - 1_000);
    expect(expires).toBeLessThanOrEqual(answered + 30 * 86_400_000 + 1_000);
    expect(row.revoked).toBe(false);
    expect(row.claimed_at).toBeNull();

    // The worker renders the summary PDF and sends it with the link.
    smtp.received.length = 0;
    await runJobs(ctx);
    expect(await jobCount(ctx, SHARE_MAIL_TASK)).toBe(0);
    const mails = await smtp.mails();
    const mail = mails.find((m) => (m.to && !Array.isArray(m.to) ? m.to.text : "") === "owner@example.com")!;
    expect(mail.subject).toBe("Your Haven Health Report is ready");
    // Not the home's client: no name to greet.
    expect(mail.text).toMatch(/^Hello,\n/);
    expect(mail.text).toContain(link);
    expect(mail.text).toContain("77 Share Street");
    const pdf = mail.attachments.find((a) => a.contentType === "application/pdf")!;
    expect(pdf.filename).toBe("haven-health-report-summary.pdf");
    const text = await pdfText(pdf.content);
    expect(text).toContain(String(report.overallScore));
    expect(text).toMatch(/Hot Water System/);
  });

  it("greets the home's own client by name", async () => {
    const { report } = await sharedReportFixture(ctx, "78 Share Street");
    const home = await ctx.db("properties").where({ id: report.propertyId }).first("client_name", "client_email");
    await shareReport(staff, report.id, home.client_email.toUpperCase());
    smtp.received.length = 0;
    await runJobs(ctx);
    const mail = (await smtp.mails()).find((m) => m.text?.includes("78 Share Street"))!;
    expect(mail.text).toMatch(new RegExp(`^Hello ${home.client_name},\\n`));
    expect(mail.html).toContain(`<p>Hello ${home.client_name},</p>`);
  });

  it("lists the shares for staff: e-mail, created, opened, expires, revoked", async () => {
    const { report } = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id, "listed@example.com");
    await browser().get("/api/client-report-shares").expect(401);
    const before = await staff.get("/api/client-report-shares?q=listed@example.com").expect(200);
    expect(Number(before.headers["x-total-count"])).toBe(1);
    expect(before.body[0]).toMatchObject({
      reportId: report.id,
      clientEmail: "listed@example.com",
      openedAt: null,
      revoked: false,
      status: "unopened",
    });
    expect(before.body[0].createdAt).toEqual(expect.any(String));
    expect(before.body[0].expiresAt).toEqual(expect.any(String));
    await browser().get(`/api/client-report/${token}`).expect(200);
    const after = await staff.get("/api/client-report-shares?q=listed@example.com").expect(200);
    expect(after.body[0].openedAt).toEqual(expect.any(String));
    expect(after.body[0].status).toBe("opened");
    const all = await staff.get("/api/client-report-shares?limit=1").expect(200);
    expect(all.body).toHaveLength(1);
    expect(Number(all.headers["x-total-count"])).toBeGreaterThan(1);
    await staff.get("/api/client-report-shares?limit=501").expect(400);
  });
});

describe("one-time links", () => {
  it("the first browser claims the link with an httpOnly cookie scoped to the link; it can reload; every other browser gets 410", async () => {
    const { report, taskIds, photos } = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id);
    const client = browser();
    const first = await client.get(`/api/client-report/${token}`).expect(200);
    const cookies = ([] as string[]).concat(first.headers["set-cookie"] ?? []);
    // The page in each language and its API (docs/decisions.md#65).
    expect(cookies).toHaveLength(3);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/^haven_link=/);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
    }
    expect(cookies.some((c) => c.includes(`Path=/api/client-report/${token}`))).toBe(true);
    expect(cookies.some((c) => c.includes(`Path=/client-report/${token}`))).toBe(true);
    expect(cookies.some((c) => c.includes(`Path=/fr/client-report/${token}`))).toBe(true);
    expect(first.headers["cache-control"]).toBe("no-store");

    const { report: shown, share, property } = first.body;
    expect(shown.id).toBe(report.id);
    expect(shown.overallScore).toBe(report.overallScore);
    expect(shown.reportData.recommendations.map((r: { id: number }) => r.id)).toEqual(taskIds);
    expect(shown.reportData.issues).toEqual(shown.reportData.recommendations);
    expect(shown.reportData.allCategories.map((c: { categoryName: string }) => c.categoryName)).toEqual(
      expect.arrayContaining(["Plumbing", "Roof"]),
    );
    expect(share).toMatchObject({ clientEmail: "client@example.com", respondedAt: null, responses: [] });
    expect(property.address).toEqual(expect.any(String));
    // Photos come under the link, never the staff-only /api/photos.
    const withPhotos = shown.reportData.recommendations.find((r: { photos: string[] }) => r.photos.length)!;
    expect(withPhotos.photos).toEqual(photos.map((id) => `/api/client-report/${token}/photos/${id}`));
    expect(JSON.stringify(first.body)).not.toContain("/api/photos/");

    await client.get(`/api/client-report/${token}`).expect(200);
    await client.get(`/client-report/${token}`).expect(200);
    const image = await client.get(`/api/client-report/${token}/photos/${photos[0]}`).expect(200);
    expect(image.headers["content-type"]).toMatch(/^image\//);

    const other = browser();
    const gone = await other.get(`/api/client-report/${token}`).expect(410);
    expect(gone.body.message).toEqual(expect.any(String));
    const page = await other.get(`/client-report/${token}`).expect(303);
    expect(page.headers.location).toBe("/report-expired");
    await other.get(`/api/client-report/${token}/photos/${photos[0]}`).expect(410);
    await other
      .post(`/api/client-report/${token}/responses`)
      .send({ responses: [{ maintenanceTaskId: taskIds[0], action: "ignore", notes: null }] })
      .expect(410);
    // A photo that is not in this report is not served, even to the bound browser.
    const foreignPhoto = (await sharedReportFixture(ctx)).photos[0]!;
    await client.get(`/api/client-report/${token}/photos/${foreignPhoto}`).expect(404);
  });

  it("asked in French, each point comes with its name and description in French; in English the payload is as stored", async () => {
    const { report } = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id);
    const client = browser();
    const french = await client.get(`/api/client-report/${token}`).set("Accept-Language", "fr-CA").expect(200);
    const gutters = french.body.report.reportData.recommendations.find(
      (r: { subcategory: string }) => r.subcategory === "Gutters",
    );
    // The stored English stays; what the page shows is beside it (docs/decisions.md#74).
    expect(gutters.said).toEqual({
      subcategory: "Gouttières",
      description: "Gouttières (Toiture) a obtenu 40/100 et demande de l’attention.",
    });
    const english = await client.get(`/api/client-report/${token}`).expect(200);
    expect(english.body.report.reportData.recommendations.every((r: object) => !("said" in r))).toBe(true);
    expect(english.body.report.reportData.recommendations.map((r: { subcategory: string }) => r.subcategory)).toEqual(
      french.body.report.reportData.recommendations.map((r: { subcategory: string }) => r.subcategory),
    );
  });

  it("the page itself never claims: only the report call does (a mail scanner cannot spend the link)", async () => {
    const { report } = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id);
    const scanner = browser();
    const page = await scanner.get(`/client-report/${token}`).expect(200);
    expect(page.text).toContain('data-island="sharing/ClientReport"');
    expect(page.text).not.toContain("data-site-nav");
    expect(page.headers["set-cookie"]).toBeUndefined();
    expect(
      (
        await ctx
          .db("report_shares")
          .where({ token_hash: sha256(token) })
          .first()
      ).claimed_at,
    ).toBeNull();
    await browser().get(`/api/client-report/${token}`).expect(200);
    await scanner.get(`/api/client-report/${token}`).expect(410);
  });

  it("the marketing sample is the same island page and payload as a real link: reusable, read-only, never claimed", async () => {
    const sample = sampleReport();
    const page = await browser().get("/client-report/sample").expect(200);
    expect(page.text).toContain('data-island="sharing/ClientReport"');
    expect(page.text).toContain("&#34;sample&#34;:true");
    expect(page.text).not.toContain("data-site-nav");
    expect(page.text).not.toContain('class="site-footer"');
    expect(page.text).toContain('<meta name="robots" content="noindex">');

    const rows = async () =>
      Promise.all(
        ["report_shares", "client_responses", "quote_requests"].map(async (t) =>
          Number((await ctx.db(t).count({ n: "*" }).first())!.n),
        ),
      );
    const before = await rows();
    const first = browser();
    const res = await first.get("/api/client-report/sample").expect(200);
    expect(res.headers["set-cookie"]).toBeUndefined();
    const { report, share, property } = res.body;
    expect(report.overallScore).toBe(sample.overallScore);
    expect(report.reportData.recommendations.map((r: { notes: string }) => r.notes)).toEqual(
      sample.recommendations.map((r) => r.notes),
    );
    expect(report.reportData.allCategories.map((c: { categoryName: string }) => c.categoryName)).toEqual(
      sample.categories.map((c) => c.categoryName),
    );
    expect(share).toMatchObject({ respondedAt: null, responses: [] });
    expect(property.clientName).toBe(sample.property.clientName);
    // The same whitelist as a real report: nothing beyond the client's fields.
    expect([...keysOf(report.reportData.recommendations[0])].sort()).toEqual([
      "category",
      "description",
      "id",
      "notes",
      "photos",
      "priority",
      "score",
      "subcategory",
      "urgency",
    ]);
    // Any number of browsers, any number of times.
    await first.get("/api/client-report/sample").expect(200);
    await browser().get("/api/client-report/sample").expect(200);

    const answer = await first
      .post("/api/client-report/sample/responses")
      .send({
        responses: [
          { maintenanceTaskId: report.reportData.recommendations[0].id, action: "request_quote", notes: null },
        ],
      })
      .expect(403);
    expect(answer.body.message).toBe(SAMPLE_READ_ONLY_MESSAGE);
    expect(await rows()).toEqual(before);
  });

  it("unknown, malformed, expired and revoked links are gone; only the sample id is the sample", async () => {
    const unknown = "A".repeat(43);
    await browser().get(`/api/client-report/${unknown}`).expect(410);
    expect((await browser().get(`/client-report/${unknown}`).expect(303)).headers.location).toBe("/report-expired");
    await browser().get("/api/client-report/short").expect(410);
    await browser().get("/client-report/sample-2").expect(404);
    await browser().get("/client-report/sample").expect(200);

    const { report } = await sharedReportFixture(ctx);
    const expired = await shareReport(staff, report.id);
    const client = browser();
    await client.get(`/api/client-report/${expired.token}`).expect(200);
    await ctx
      .db("report_shares")
      .where({ token_hash: sha256(expired.token) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await client.get(`/api/client-report/${expired.token}`).expect(410);
    expect((await client.get(`/client-report/${expired.token}`).expect(303)).headers.location).toBe("/report-expired");

    const unopened = await shareReport(staff, report.id);
    await ctx
      .db("report_shares")
      .where({ token_hash: sha256(unopened.token) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await browser().get(`/api/client-report/${unopened.token}`).expect(410);

    const revoked = await shareReport(staff, report.id);
    const holder = browser();
    await holder.get(`/api/client-report/${revoked.token}`).expect(200);
    await ctx
      .db("report_shares")
      .where({ token_hash: sha256(revoked.token) })
      .update({ revoked: true });
    await holder.get(`/api/client-report/${revoked.token}`).expect(410);
  });

  it("a cookie of another link does not open this one", async () => {
    const { report } = await sharedReportFixture(ctx);
    const a = await shareReport(staff, report.id);
    const b = await shareReport(staff, report.id);
    const first = await browser().get(`/api/client-report/${a.token}`).expect(200);
    const cookie = ([] as string[]).concat(first.headers["set-cookie"] ?? [])[0]!.split(";")[0]!;
    await browser().get(`/api/client-report/${b.token}`).expect(200);
    await supertest(ctx.app).get(`/api/client-report/${b.token}`).set("Cookie", cookie).expect(410);
  });

  it("50 concurrent first opens across two app instances on one database: exactly one succeeds", async () => {
    const { report } = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id);
    const db2 = createKnex(ctx.url, { min: 0, max: 10 });
    try {
      const second = createApp(createContainer(ctx.env, ctx.url, db2, { log: pino({ level: "silent" }) }));
      const apps = [ctx.app, second];
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => supertest(apps[i % 2]!).get(`/api/client-report/${token}`)),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 410)).toHaveLength(49);
      const row = await ctx
        .db("report_shares")
        .where({ token_hash: sha256(token) })
        .first();
      expect(row.claimed_at).not.toBeNull();
    } finally {
      await db2.destroy();
    }
  });

  it("never writes a token into the request log", async () => {
    const { report } = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id);
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = createApp({ ...ctx.container, log: pino({ level: "info" }, sink) });
    await supertest(app).get(`/client-report/${token}`).expect(200);
    await supertest(app).get(`/api/client-report/${token}`).expect(200);
    await supertest(app).get(`/api/client-report/${token}`).expect(410);
    const log = lines.join("");
    expect(log).toContain("/client-report/[token]");
    expect(log).toContain("/api/client-report/[token]");
    expect(log).not.toContain(token);
    expect(redactLinkTokens(`/api/client-report/${token}/photos/3?x=1`)).toBe(
      "/api/client-report/[token]/photos/3?x=1",
    );
    expect(redactLinkTokens(`/quote-report/${token}/items/4`)).toBe("/quote-report/[token]/items/4");
    expect(redactLinkTokens("/client-report/sample")).toBe("/client-report/sample");
  });
});

describe("client responses", () => {
  it("refuse an empty list, a foreign task id and bad actions with a 400 that writes nothing", async () => {
    const { report, taskIds } = await sharedReportFixture(ctx);
    const other = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id);
    const client = browser();
    await client.get(`/api/client-report/${token}`).expect(200);
    const empty = await client.post(`/api/client-report/${token}/responses`).send({ responses: [] }).expect(400);
    expect(empty.body.message).toBe("Please select at least one response before submitting.");
    const foreign = await client
      .post(`/api/client-report/${token}/responses`)
      .send({
        responses: [
          { maintenanceTaskId: taskIds[0], action: "ignore", notes: null },
          { maintenanceTaskId: other.taskIds[0], action: "request_quote", notes: "x" },
        ],
      })
      .expect(400);
    expect(Object.keys(foreign.body.fields)).toEqual(["responses.1.maintenanceTaskId"]);
    const badAction = await client
      .post(`/api/client-report/${token}/responses`)
      .send({ responses: [{ maintenanceTaskId: taskIds[0], action: "maybe" }] })
      .expect(400);
    expect(badAction.body.fields).toHaveProperty("responses.0.action");
    const twice = await client
      .post(`/api/client-report/${token}/responses`)
      .send({
        responses: [
          { maintenanceTaskId: taskIds[0], action: "ignore" },
          { maintenanceTaskId: taskIds[0], action: "request_quote" },
        ],
      })
      .expect(400);
    expect(twice.body.fields).toHaveProperty("responses.1.maintenanceTaskId");
    const share = await ctx
      .db("report_shares")
      .where({ token_hash: sha256(token) })
      .first();
    expect(share.responded_at).toBeNull();
    expect(Number((await ctx.db("client_responses").where({ share_id: share.id }).count({ n: "*" }).first())!.n)).toBe(
      0,
    );
  });

  it("a link that was never opened takes no responses", async () => {
    const { report, taskIds } = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id);
    await browser()
      .post(`/api/client-report/${token}/responses`)
      .send({ responses: [{ maintenanceTaskId: taskIds[0], action: "ignore" }] })
      .expect(410);
  });

  it("records every answer once: request_quote becomes a quote request, ignore is kept too; a second submission is a 409", async () => {
    const { report, taskIds } = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id);
    const client = browser();
    await client.get(`/api/client-report/${token}`).expect(200);
    const res = await client
      .post(`/api/client-report/${token}/responses`)
      .send({
        responses: [
          { maintenanceTaskId: taskIds[0], action: "request_quote", notes: "Before winter please" },
          { maintenanceTaskId: taskIds[1], action: "ignore", notes: "dropped: notes only go with a quote" },
        ],
      })
      .expect(201);
    expect(res.body).toEqual({ recorded: 2, quoteRequests: 1 });
    const share = await ctx
      .db("report_shares")
      .where({ token_hash: sha256(token) })
      .first();
    expect(share.responded_at).not.toBeNull();
    const responses = await ctx.db("client_responses").where({ share_id: share.id }).orderBy("id");
    expect(responses.map((r) => [r.maintenance_task_id, r.action, r.notes])).toEqual([
      [taskIds[0], "request_quote", "Before winter please"],
      [taskIds[1], "ignore", null],
    ]);
    const quotes = await ctx.db("quote_requests").where({ share_id: share.id });
    expect(quotes).toHaveLength(1);
    expect(quotes[0]).toMatchObject({
      maintenance_task_id: taskIds[0],
      status: "pending",
      client_notes: "Before winter please",
      priority: "immediate",
    });

    await client
      .post(`/api/client-report/${token}/responses`)
      .send({ responses: [{ maintenanceTaskId: taskIds[2], action: "ignore" }] })
      .expect(409);
    // The same browser can still reload, and sees what it answered.
    const again = await client.get(`/api/client-report/${token}`).expect(200);
    expect(again.body.share.respondedAt).toEqual(expect.any(String));
    expect(again.body.share.responses).toEqual([
      { maintenanceTaskId: taskIds[0], action: "request_quote", notes: "Before winter please" },
      { maintenanceTaskId: taskIds[1], action: "ignore", notes: null },
    ]);
    expect([...keysOf(again.body)].filter((k) => /admin/i.test(k))).toEqual([]);
  });

  it("10 concurrent submissions: exactly one is recorded", async () => {
    const { report, taskIds } = await sharedReportFixture(ctx);
    const { token } = await shareReport(staff, report.id);
    const client = browser();
    await client.get(`/api/client-report/${token}`).expect(200);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        client.post(`/api/client-report/${token}/responses`).send({
          responses: [{ maintenanceTaskId: taskIds[i % taskIds.length], action: "request_quote", notes: `try ${i}` }],
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    const share = await ctx
      .db("report_shares")
      .where({ token_hash: sha256(token) })
      .first();
    expect(Number((await ctx.db("client_responses").where({ share_id: share.id }).count({ n: "*" }).first())!.n)).toBe(
      1,
    );
    expect(Number((await ctx.db("quote_requests").where({ share_id: share.id }).count({ n: "*" }).first())!.n)).toBe(1);
  });
});
