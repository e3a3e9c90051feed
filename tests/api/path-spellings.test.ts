// Every route, for every role and under the owner's two-step rule, in every other spelling of its path: a spelling
// never opens what the plain path refuses (docs/decisions.md#45). The routes are read from the app and the OpenAPI
// document, so a new route is tried without anyone adding it here.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { oas31 } from "zod-openapi";
import type { StaffRole } from "../../src/http/roles.js";
import { listRoutes } from "../../src/http/routes.js";
import { buildOpenApiDocument } from "../../src/openapi.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { completedInspection, newProperty, photo, quickEntries } from "./reports-fixtures.js";

let ctx: TestContext;
let server: http.Server;
let port: number;
beforeAll(async () => {
  ctx = await createTestContext();
  server = ctx.app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

interface Answer {
  status: number;
  body: string;
}

/** A request with its path sent byte for byte (fetch and supertest would tidy `./` and `//` away). */
function send(method: string, path: string, cookie: string | null, body: unknown = {}): Promise<Answer> {
  const payload = method === "GET" ? "" : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: {
          "sec-fetch-site": "same-origin",
          accept: "application/json",
          ...(cookie && { cookie }),
          ...(payload && { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** The session cookie of a new staff user of this role. */
async function cookieOf(role: StaffRole): Promise<{ cookie: string; id: number }> {
  const email = `${role}-${randomBytes(3).toString("hex")}@haven.test`;
  const password = "correct horse battery";
  const user = await ctx.container.users.create({ email, password, firstName: "Sam", lastName: "Spelling", role });
  const res = await ctx.agent().post("/api/auth/login").send({ email, password }).expect(200);
  const cookie = (res.headers["set-cookie"] as unknown as string[]).map((c) => c.split(";")[0]).join("; ");
  return { cookie, id: user.id };
}

interface Route {
  method: string;
  /** As registered: "/api/reports/:id". */
  path: string;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

let routesOnce: Route[] | null = null;

/** Every route Express has, and every call of the OpenAPI document (which should be among them); built once. */
function everyRoute(): Route[] {
  if (routesOnce) return routesOnce;
  const doc: oas31.OpenAPIObject = buildOpenApiDocument();
  const calls = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item?.[m]).map((m) => ({
      method: m.toUpperCase(),
      path: `/api${path.replace(/^\/api/, "")}`.replace(/{(\w+)}/g, ":$1"),
    })),
  );
  const seen = new Map<string, Route>();
  for (const r of [...listRoutes(ctx.app), ...calls]) if (r.method !== "HEAD") seen.set(`${r.method} ${r.path}`, r);
  routesOnce = [...seen.values()];
  return routesOnce;
}

// Logging out ends the session the other requests ride on; it guards nothing.
const SKIPPED = new Set(["POST /logout", "POST /api/auth/logout"]);

/** Another spelling of a concrete path; `values` are the segments that are parameters. null: not applicable. */
type Spelling = (segments: string[], params: Set<number>) => string | null;

const isSuccess = (status: number) => status >= 200 && status < 300;
const isGuardRefusal = (status: number) => status === 401 || status === 403 || (status >= 300 && status < 400);

/** Requests a few at a time, in order: the app and its pool are one process's. */
async function inBatches<T, R>(items: T[], run: (item: T) => Promise<R>, size = 8): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return results;
}

const join = (segments: string[]) => `/${segments.join("/")}`;
const percentEncoded = (value: string) =>
  [...value].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join("");

const SPELLINGS: Record<string, Spelling> = {
  "percent-encoded id": (s, params) =>
    params.size ? join(s.map((v, i) => (params.has(i) ? percentEncoded(v) : v))) : null,
  "upper case": (s) => join(s).toUpperCase(),
  // Below its mount: a router of its own would decide the case there.
  "upper case below the first segment": (s) => `/${s[0]}${join(s.slice(1)).toUpperCase()}`,
  "mixed case": (s, params) => join(s.map((v, i) => (params.has(i) ? v : v.charAt(0).toUpperCase() + v.slice(1)))),
  "double slash": (s) => `/${s[0]}//${s.slice(1).join("/")}`,
  "trailing slash": (s) => `${join(s)}/`,
  "leading zeros": (s, params) =>
    [...params].some((i) => /^\d+$/.test(s[i] ?? "")) ? join(s.map((v, i) => (params.has(i) ? `00${v}` : v))) : null,
  ";x": (s) => `${join(s)};x`,
  "./": (s) => `/${s[0]}/./${s.slice(1).join("/")}`,
};

describe("every spelling of every path", () => {
  let fixtures: { inspection: number; report: number; task: number; property: number; photo: number };

  beforeAll(async () => {
    const other = await cookieOf("inspector");
    const done = await completedInspection(ctx.container, quickEntries(), { inspectorId: other.id });
    const report = await ctx.container.reports.generate(done.inspectionId);
    const entry = await ctx.db("inspection_entries").where({ inspection_id: done.inspectionId }).first("id");
    const photoId = await photo(ctx.container, 1);
    await ctx.db("inspection_entry_photos").insert({ entry_id: entry.id, photo_id: photoId });
    const property = await newProperty(ctx.container);
    const [task] = await ctx
      .db("maintenance_tasks")
      .insert({
        property_id: property.id,
        title: "Gutters",
        scheduled_date: "2027-03-10",
        status: "scheduled",
        assigned_to: other.id,
      })
      .returning("id");
    fixtures = {
      inspection: done.inspectionId,
      report: report.id,
      task: task.id,
      property: done.propertyId,
      photo: photoId,
    };
  });

  /**
   * The path with its parameters filled: the records of another inspector where an inspector's ownership is
   * checked, an id that names nothing elsewhere (so the owner's plain calls change nothing), and a token otherwise.
   */
  function concrete(route: Route): { segments: string[]; params: Set<number> } {
    const owned: [RegExp, number][] = [
      [/^\/(api|admin)\/inspections\//, fixtures.inspection],
      [/^\/(api|admin)\/reports\//, fixtures.report],
      [/^\/api\/maintenance-tasks\//, fixtures.task],
      [/^\/api\/properties\//, fixtures.property],
      [/^\/api\/photos\//, fixtures.photo],
    ];
    const id = owned.find(([pattern]) => pattern.test(route.path))?.[1] ?? 987_654;
    const params = new Set<number>();
    const segments = route.path
      .slice(1)
      .split("/")
      .map((segment, i) => {
        if (!segment.startsWith(":")) return segment;
        params.add(i);
        return /id$/i.test(segment) ? String(id) : "spelling-token";
      });
    return { segments, params };
  }

  /** Each route the plain path refuses to this session, tried in every spelling: the refusals that a spelling lifts. */
  async function liftedRefusals(cookie: string | null): Promise<{ lifted: string[]; refused: number }> {
    const body = { inspectionId: fixtures.inspection, notes: "spelling probe" };
    const routes = everyRoute().filter((r) => !SKIPPED.has(`${r.method} ${r.path}`));
    const plain = await inBatches(routes, (route) => send(route.method, join(concrete(route).segments), cookie, body));
    // A guard's refusal: sign in (401, or a page's redirect), the role or the two-step rule (403), or the two-step
    // page's redirect. A route's own 400 or 404 is the same in any spelling that reaches it.
    const refusedRoutes = routes.filter((_, i) => isGuardRefusal(plain[i]?.status ?? 0));
    const tries = refusedRoutes.flatMap((route) => {
      const { segments, params } = concrete(route);
      return Object.entries(SPELLINGS).flatMap(([name, spell]) => {
        const path = spell(segments, params);
        return path === null ? [] : [{ route, name, path }];
      });
    });
    const answers = await inBatches(tries, (t) => send(t.route.method, t.path, cookie, body));
    const lifted = tries.flatMap((t, i) => {
      const status = answers[i]?.status ?? 0;
      return isSuccess(status) ? [`${t.route.method} ${t.path} (${t.name}) → ${status}`] : [];
    });
    return { lifted, refused: refusedRoutes.length };
  }

  for (const role of ["inspector", "office", "owner"] as const) {
    it(`${role}: no spelling opens a route the plain path refuses`, { timeout: 120_000 }, async () => {
      const { cookie } = await cookieOf(role);
      const { lifted, refused } = await liftedRefusals(cookie);
      // The owner may call every route; the others are refused by their role, an inspector by ownership too.
      if (role !== "owner") expect(refused).toBeGreaterThan(role === "office" ? 10 : 60);
      expect(lifted).toEqual([]);
    });
  }

  it("no account: no spelling opens a staff route", { timeout: 120_000 }, async () => {
    const { lifted, refused } = await liftedRefusals(null);
    expect(refused).toBeGreaterThan(100);
    expect(lifted).toEqual([]);
  });

  it("the owner's two-step rule: an office account without a second step opens nothing by another spelling", {
    timeout: 120_000,
  }, async () => {
    const { cookie } = await cookieOf("office");
    await ctx.db("staff_settings").insert({ key: "require_two_step", value: "true" }).onConflict("key").merge();
    try {
      expect((await send("GET", "/api/invoices", cookie)).status).toBe(403);
      const { lifted, refused } = await liftedRefusals(cookie);
      expect(refused).toBeGreaterThan(100);
      expect(lifted).toEqual([]);
    } finally {
      await ctx.db("staff_settings").where({ key: "require_two_step" }).delete();
    }
  });
});

describe("the routers", () => {
  it("every router of the app routes by exact case and trailing slash (src/http/router.ts)", () => {
    type Layer = { handle?: { stack?: Layer[]; caseSensitive?: boolean; strict?: boolean } };
    const loose: string[] = [];
    let routers = 0;
    const walk = (stack: Layer[]) => {
      for (const layer of stack) {
        const router = layer.handle;
        if (!router?.stack) continue;
        routers++;
        if (!router.caseSensitive || !router.strict) loose.push(String(router.stack.length));
        walk(router.stack);
      }
    };
    const app = ctx.app as unknown as { router: { stack: Layer[]; caseSensitive: boolean; strict: boolean } };
    expect([app.router.caseSensitive, app.router.strict]).toEqual([true, true]);
    walk(app.router.stack);
    expect(routers).toBeGreaterThan(30);
    expect(loose).toEqual([]);
  });
});

describe("the spellings named in the attack", () => {
  it("an inspector's percent-encoded id is refused like the plain one, and writes nothing", async () => {
    const other = await cookieOf("inspector");
    const mine = await cookieOf("inspector");
    const done = await completedInspection(ctx.container, quickEntries(), { inspectorId: other.id });
    const id = String(done.inspectionId);
    expect((await send("GET", `/api/inspections/${id}`, mine.cookie)).status).toBe(403);
    expect((await send("GET", `/api/inspections/${percentEncoded(id)}`, mine.cookie)).status).toBe(404);
    const page = await send("GET", `/admin/inspections/view/${percentEncoded(id)}`, mine.cookie);
    expect(page.status).toBe(308);
    const property = await newProperty(ctx.container);
    const [task] = await ctx
      .db("maintenance_tasks")
      .insert({
        property_id: property.id,
        title: "Furnace",
        scheduled_date: "2027-03-10",
        status: "scheduled",
        assigned_to: other.id,
      })
      .returning("id");
    const patched = await send("PATCH", `/api/maintenance-tasks/${percentEncoded(String(task.id))}`, mine.cookie, {
      notes: "written past the check",
    });
    expect(patched.status).toBe(404);
    expect((await ctx.db("maintenance_tasks").where({ id: task.id }).first("notes")).notes).toBeNull();
  });

  it("a page in another spelling is redirected to its one spelling, keeping the query", async () => {
    const { cookie } = await cookieOf("office");
    for (const [path, canonical] of [
      ["/admin//properties?q=elm", "/admin/properties?q=elm"],
      ["/admin/properties/?q=elm", "/admin/properties?q=elm"],
      ["/admin/./properties", "/admin/properties"],
      ["/admin/properties;jsessionid=1", "/admin/properties"],
      ["/%61dmin/properties", "/admin/properties"],
      ["//evil.example/admin", "/evil.example/admin"],
    ]) {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http
          .request({ host: "127.0.0.1", port, path, agent: false, headers: { cookie } }, resolve)
          .on("error", reject)
          .end(),
      );
      res.resume();
      expect(res.statusCode, path).toBe(308);
      expect(res.headers.location, path).toBe(canonical);
    }
  });

  it("letter case is the route's own: /API and /ADMIN name nothing, in JSON for the API", async () => {
    const { cookie } = await cookieOf("owner");
    for (const path of ["/API/invoices", "/Api/properties", "/api/Invoices"]) {
      const res = await send("GET", path, cookie);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body).message, path).toMatch(/^No API route/);
    }
    expect((await send("GET", "/ADMIN/invoices", cookie)).status).toBe(404);
    expect((await send("PATCH", "/API/properties/1", cookie, { notes: "x" })).status).toBe(404);
  });
});
