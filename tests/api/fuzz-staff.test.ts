// Property-based fuzzing of every JSON call of the staff side: valid payloads with one to three
// fields swapped for hostile values (year 0, lone surrogates, CR/LF and other control characters, odd ids,
// huge numbers), hostile path ids and queries, and now and then a malformed session cookie. Whatever it
// gets, Haven answers a 2xx/3xx or a clear 4xx, never a 5xx. The seed is fixed, so a run is repeatable.
import fc from "fast-check";
import sharp from "sharp";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiCall } from "../../src/http/openapi.kit.js";
import { SESSION_COOKIE } from "../../src/http/session.js";
import { authCalls } from "../../src/modules/auth/auth.openapi.js";
import { bookingsCalls } from "../../src/modules/bookings/bookings.openapi.js";
import { customersCalls } from "../../src/modules/customers/customers.openapi.js";
import { dashboardCalls } from "../../src/modules/dashboard/dashboard.openapi.js";
import { entriesCalls, inspectionsCalls, photosCalls } from "../../src/modules/inspections/inspections.openapi.js";
import { maintenanceCalls } from "../../src/modules/maintenance/maintenance.openapi.js";
import { quotesCalls } from "../../src/modules/quotes/quotes.openapi.js";
import { reportsCalls } from "../../src/modules/reports/reports.openapi.js";
import { sharingCalls } from "../../src/modules/sharing/sharing.openapi.js";
import { type TestContext, signInStaff } from "../support/context.js";
import { type Smtp, shareReport, sharedReportFixture, sharingTestApp } from "./sharing-fixtures.js";

const SEED = 16;
// Runs per call: the seed is fixed, so each run of the suite tries the same inputs (docs/architecture.md, "The suite's time").
const RUNS_PER_CALL = 25;
/** A cookie of eight sealed parts where iron-session expects fewer. */
const MALFORMED_SESSION = `${SESSION_COOKIE}=a*b*c*d*e*f*g*h`;

let ctx: TestContext;
let smtp: Smtp;
let staffCookie: string;
let ids: {
  property: number;
  inspection: number;
  openInspection: number;
  report: number;
  task: number;
  quote: number;
  photo: number;
};
let pngDataUrl: string;

beforeAll(async () => {
  let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];
  ({ ctx, smtp, staff } = await sharingTestApp());
  const fixture = await sharedReportFixture(ctx);
  const { token } = await shareReport(staff, fixture.report.id, "fuzz-client@example.com");
  const client = ctx.agent();
  await client.get(`/api/client-report/${token}`).expect(200);
  await client
    .post(`/api/client-report/${token}/responses`)
    .send({ responses: [{ maintenanceTaskId: fixture.taskIds[0], action: "request_quote", notes: null }] })
    .expect(201);
  const [quote] = (await staff.get(`/api/quote-requests?propertyId=${fixture.propertyId}`).expect(200)).body as {
    id: number;
  }[];
  // An inspection still open, so entries reach the database (the fixture's one is completed).
  const open = await ctx.container.inspections.create(
    { propertyId: fixture.propertyId, inspectionDate: "2026-03-02" },
    null,
  );
  ids = {
    property: fixture.propertyId,
    inspection: fixture.inspectionId,
    openInspection: open.id,
    report: fixture.report.id,
    task: fixture.taskIds[1]!,
    quote: quote!.id,
    photo: fixture.photos[0]!,
  };
  // The staff cookie, sent by hand so each request may swap it for a malformed one.
  const { email, password } = await signInStaff(ctx);
  const login = await supertest(ctx.app)
    .post("/api/auth/login")
    .set("Sec-Fetch-Site", "same-origin")
    .send({ email, password })
    .expect(200);
  staffCookie = ([] as string[])
    .concat(login.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
  pngDataUrl = `data:image/png;base64,${(
    await sharp({ create: { width: 4, height: 4, channels: 3, background: "#369" } })
      .png()
      .toBuffer()
  ).toString("base64")}`;
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

/** Staff-side calls: staff-only, the session calls staff read, and the auth calls (not logout: it ends the session). */
const STAFF_CALLS: ApiCall[] = [
  ...authCalls.filter((c) => c.path !== "/api/auth/logout"),
  ...dashboardCalls,
  ...customersCalls.filter((c) => c.access === "session"),
  ...bookingsCalls.filter((c) => c.method === "get"),
  ...inspectionsCalls,
  ...entriesCalls,
  ...photosCalls,
  ...reportsCalls,
  ...sharingCalls.filter((c) => c.access === "staff"),
  ...quotesCalls.filter((c) => c.access === "staff"),
  ...maintenanceCalls,
  // Deletes last: they take the fixture's report (and its tasks) away from the calls before them.
].sort((a, b) => Number(a.method === "delete") - Number(b.method === "delete"));

/** A payload each call accepts (or refuses only for its state): the fuzzer spoils some of its fields. */
function validBody(call: ApiCall): unknown {
  const entry = {
    inspectionId: ids.openInspection,
    categoryName: "Roof",
    subcategoryName: "Gutters",
    score: 7,
    notes: "Sagging\nat the corner",
    urgent: false,
  };
  const bodies: Record<string, unknown> = {
    "post /api/auth/login": { email: "nobody@haven.test", password: "not the password" },
    "post /api/inspections": { propertyId: ids.property, inspectionDate: "2026-03-10", status: "draft" },
    "patch /api/inspections/{id}": { status: "in_progress" },
    "post /api/inspection-categories": [entry],
    "post /api/inspection-categories/bulk-complete": [entry],
    "post /api/photos": { data: pngDataUrl, clientId: "fuzz-1" },
    "patch /api/maintenance-tasks/{id}": {
      status: "completed",
      notes: "Done\r\nall good",
      completedAt: "2026-03-01T10:00:00Z",
    },
    "post /api/maintenance-schedules": {
      propertyId: ids.property,
      title: "Clean gutters",
      description: "Both sides\nof the house",
      category: "exterior",
      priority: "medium",
      estimatedDuration: 60,
      recurrenceType: "monthly",
      recurrenceInterval: 1,
      startDate: "2026-04-01",
    },
    "patch /api/quote-requests/{id}": { status: "quoted", quotedAmount: "$450", adminNotes: "Parts\nand labour" },
    "post /api/reports/{id}/share": { clientEmail: "client@example.com" },
  };
  return bodies[`${call.method} ${call.path}`] ?? {};
}

/** The real id a path parameter names, so most requests get past the 404 to the code behind it. */
function realId(path: string, param: string): number {
  if (param === "propertyId" || path.startsWith("/api/properties/")) return ids.property;
  if (path === "/api/inspections/{id}") return ids.openInspection;
  if (path.startsWith("/api/inspections/")) return ids.inspection;
  if (path.startsWith("/api/reports/")) return ids.report;
  if (path.startsWith("/api/maintenance-tasks/")) return ids.task;
  if (path.startsWith("/api/quote-requests/")) return ids.quote;
  if (path.startsWith("/api/photos/")) return ids.photo;
  return 1;
}

// --- Hostile values: dates for date fields, odd ids for id fields, bad text for text fields; any of them anywhere. ---

const hostileDate = fc.constantFrom(
  "0000-01-01",
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+14:00",
  "1899-12-31",
  "2201-01-01T00:00:00Z",
  "9999-12-31",
  "9999-12-31T23:59:59Z",
  "2026-02-30",
  "2026-03-01T10:00:00+23:59",
  "0000-01",
  "2026-13",
  "2026-03-01",
  "2026-03-01T10:00:00Z",
);
const hostileId = fc.oneof(
  fc.constantFrom(
    "0x2c",
    "4.4e1",
    " 44",
    "44 ",
    "044",
    "+44",
    "-1",
    "0",
    "2147483648",
    "99999999999999999999",
    "1e309",
    "NaN",
    "",
    "44",
  ),
  fc.constantFrom(0, -1, 1.5, 2_147_483_648, 1e308, Number.MAX_SAFE_INTEGER, true, null),
);
const surrogates = fc.constantFrom("\ud800", "a\udc00b", "emoji cut \ud83d", "\udfff\ud800");
const controls = fc.constantFrom(
  "x\r\nBcc: victim@example.com",
  "line\nbreak",
  "tab\there",
  "bell\u0007",
  "nel\u0085",
  "line\u2028sep",
  "del\u007f",
  "nul\u0000",
);
const hostileText = fc.oneof(
  { weight: 3, arbitrary: surrogates },
  { weight: 3, arbitrary: controls },
  { weight: 2, arbitrary: fc.constantFrom("", "   ", "'; drop table properties;--", "é😀", "x".repeat(5000)) },
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 12 }),
);
const anyHostile: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  hostileDate,
  hostileId,
  fc.integer(),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Mostly the kind of hostile value that suits the field's name, sometimes any. */
const hostileFor = (key: string): fc.Arbitrary<unknown> => {
  const suited = /date|At$|^from$|^to$|^month$/i.test(key) ? hostileDate : /id$/i.test(key) ? hostileId : hostileText;
  return fc.oneof({ weight: 5, arbitrary: suited }, anyHostile);
};

/** A path id: the real one most of the time, else an odd form (hex, exponent, space, sign, zero, huge). */
const pathId = (real: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(String(real)) },
    fc.constantFrom(
      `0x${real.toString(16)}`,
      `${real}e0`,
      `%20${real}`,
      `${real}%20`,
      `0${real}`,
      `+${real}`,
      `${real}.0`,
      "0",
      "-1",
      "2147483648",
      "99999999999999999999",
      "%00",
      "%ff",
      "abc",
      "%ED%A0%80",
    ),
  );

/** Percent-encodes text for a URL; a lone surrogate (which encodeURIComponent refuses) goes as its raw bytes. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return "%ED%A0%80";
  }
};

/** A query each list call accepts, spoiled like the bodies. */
function validQuery(call: ApiCall): Record<string, string> {
  if (call.path === "/api/maintenance-calendar") return { month: "2026-03" };
  if (call.path === "/api/maintenance-tasks")
    return { from: "2026-01-01", to: "2026-12-31", propertyId: String(ids.property) };
  if (call.path === "/api/quote-requests" || call.path === "/api/maintenance-schedules")
    return { propertyId: String(ids.property) };
  return call.query ? { limit: "10", offset: "0" } : {};
}
const queryArb = (call: ApiCall) => {
  const base = validQuery(call);
  const keys = [...new Set([...Object.keys(call.query?.shape ?? {}), ...Object.keys(base), "id", "propertyId"])];
  const change = fc
    .constantFrom(...keys)
    .chain((key) => fc.option(hostileFor(key), { freq: 10 }).map((value) => [key, value] as const));
  return fc.array(change, { maxLength: 3 }).map((changes) => {
    const query: Record<string, unknown> = { ...base };
    for (const [key, value] of changes) {
      if (value === null) delete query[key];
      else query[key] = value;
    }
    return Object.entries(query)
      .map(([k, v]) => `${k}=${encode(typeof v === "string" ? v : JSON.stringify(v))}`)
      .join("&");
  });
};

/** The valid body with up to three fields replaced by hostile values (or removed), or now and then any JSON. */
const bodyArb = (call: ApiCall) => {
  const base = validBody(call);
  const target = Array.isArray(base) ? (base[0] as Record<string, unknown>) : (base as Record<string, unknown>);
  const keys = [...new Set([...Object.keys(target), "id", "notes", "title", "version"])];
  const change = fc
    .constantFrom(...keys)
    .chain((key) => fc.option(hostileFor(key), { freq: 10 }).map((value) => [key, value] as const));
  // Mostly one spoiled field, so the rest of the payload is valid and the value reaches the code behind.
  const changes = fc.oneof(
    { weight: 3, arbitrary: change.map((c) => [c]) },
    fc.array(change, { minLength: 2, maxLength: 3 }),
  );
  const spoiled = changes.map((changes) => {
    const copy: Record<string, unknown> = { ...target };
    for (const [key, value] of changes) {
      if (value === null) delete copy[key];
      else copy[key] = value;
    }
    return Array.isArray(base) ? [copy, ...base.slice(1)] : copy;
  });
  return fc.oneof({ weight: 8, arbitrary: spoiled }, fc.constant(base), fc.jsonValue({ maxDepth: 3 }));
};

/** The staff cookie most of the time; else the malformed one of the issue, a garbled seal or junk beside it. */
const cookieArb = () =>
  fc.oneof(
    { weight: 16, arbitrary: fc.constant(staffCookie) },
    fc.constant(MALFORMED_SESSION),
    fc.constant(`${staffCookie}; ${MALFORMED_SESSION}`),
    fc.constant(`${MALFORMED_SESSION}; ${staffCookie}`),
    fc.constant(`${staffCookie.slice(0, -6)}AAAAAA`),
    fc.string({ maxLength: 40 }).map((junk) => `${SESSION_COOKIE}=${encode(junk)}`),
    fc.constant(`${staffCookie}; other=%ff%`),
  );

async function send(call: ApiCall, url: string, cookie: string, payload: unknown) {
  const method = call.method;
  const request = supertest(ctx.app)[method](url).set("Sec-Fetch-Site", "same-origin").set("Cookie", cookie);
  return method === "get" || method === "delete"
    ? request
    : request.set("Content-Type", "application/json").send(JSON.stringify(payload ?? null));
}

describe("fuzzing every staff-side JSON call", () => {
  it("covers the staff side", () => {
    expect(STAFF_CALLS.length).toBeGreaterThanOrEqual(30);
  });

  it("answers the issue's cases with a 4xx naming the field, and a malformed session cookie with a 401", async () => {
    const hex = `0x${ids.report.toString(16)}`;
    const cases: { call: string; url: string; body?: unknown; cookie?: string; status: number; field?: string }[] = [
      {
        call: "year 0 date",
        url: "/api/inspections",
        body: { propertyId: ids.property, inspectionDate: "0000-01-01" },
        status: 400,
        field: "inspectionDate",
      },
      {
        call: "year 0 timestamp",
        url: `/api/maintenance-tasks/${ids.task}`,
        body: { status: "completed", completedAt: "0000-01-01T00:00:00Z" },
        status: 400,
        field: "completedAt",
      },
      {
        call: "lone surrogate",
        url: "/api/inspection-categories",
        body: [
          {
            inspectionId: ids.openInspection,
            categoryName: "Roof",
            subcategoryName: "Gutters",
            score: 7,
            notes: "\ud800",
          },
        ],
        status: 400,
        field: "0.notes",
      },
      {
        call: "CR/LF title",
        url: "/api/maintenance-schedules",
        body: { propertyId: ids.property, title: "a\r\nb", category: "exterior" },
        status: 400,
        field: "title",
      },
      {
        call: "CR/LF amount",
        url: `/api/quote-requests/${ids.quote}`,
        body: { status: "quoted", quotedAmount: "$1\r\nBcc: x@y.z" },
        status: 400,
        field: "quotedAmount",
      },
      { call: "hex id", url: `/api/reports/${hex}`, status: 400, field: "id" },
      { call: "exponent id", url: `/api/reports/${ids.report}e0`, status: 400, field: "id" },
      { call: "spaced id", url: `/api/reports/%20${ids.report}`, status: 400, field: "id" },
      { call: "malformed cookie", url: "/api/dashboard/stats", cookie: MALFORMED_SESSION, status: 401 },
      {
        call: "malformed cookie on a write",
        url: `/api/maintenance-tasks/${ids.task}`,
        body: { status: "pending" },
        cookie: MALFORMED_SESSION,
        status: 401,
      },
    ];
    const answers: string[] = [];
    for (const c of cases) {
      const method =
        c.body === undefined
          ? "get"
          : c.url.startsWith("/api/maintenance-tasks/") || c.url.startsWith("/api/quote-requests/")
            ? "patch"
            : "post";
      const res = await send({ method } as ApiCall, c.url, c.cookie ?? staffCookie, c.body);
      const field = c.field && res.body?.fields ? Object.keys(res.body.fields).includes(c.field) : true;
      answers.push(`${c.call}: ${res.status}${field ? "" : " (field not named)"}`);
    }
    expect(answers).toEqual(cases.map((c) => `${c.call}: ${c.status}`));
  });

  it(`never answers 5xx (seed ${SEED}, ${RUNS_PER_CALL} runs per call)`, async () => {
    const failures: string[] = [];
    // FUZZ_STATS=1 prints how each call answered, to see that the fuzzing gets past validation.
    const stats: string[] = [];
    for (const call of STAFF_CALLS) {
      const statuses = new Map<number, number>();
      const params = [...call.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const pathArb = fc.tuple(...params.map((p) => pathId(realId(call.path, p)))) as fc.Arbitrary<string[]>;
      await fc.assert(
        fc.asyncProperty(
          pathArb,
          queryArb(call),
          bodyArb(call),
          cookieArb(),
          async (values, search, payload, cookie) => {
            let i = 0;
            const path = call.path.replace(/\{\w+\}/g, () => values[i++] ?? "1");
            const url = `${path}${search && call.method === "get" ? `?${search}` : ""}`;
            const res = await send(call, url, cookie, payload);
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            if (res.status >= 500)
              failures.push(
                `${call.method.toUpperCase()} ${url} cookie=${cookie.slice(0, 30)} body=${JSON.stringify(payload)?.slice(0, 160)} → ${res.status} ${res.text.slice(0, 120)}`,
              );
            return true;
          },
        ),
        { numRuns: RUNS_PER_CALL, seed: SEED },
      );
      stats.push(
        `${call.method.toUpperCase()} ${call.path}: ${[...statuses].map(([status, n]) => `${status}×${n}`).join(" ")}`,
      );
    }
    if (process.env.FUZZ_STATS) console.log(stats.join("\n"));
    expect(failures).toEqual([]);
  }, 600_000);
});
