// Pages show no control whose call the role refuses (docs/decisions.md#36): each role walks every staff page it may
// open, from the sidebar's sections and the role table's pages through the links it is shown, and no form, button
// or htmx attribute on them targets a call the role table refuses for that role.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_INSPECTORS } from "../../seeds/demo/inspectors.js";
import { seedDemo } from "../../seeds/demo/index.js";
import { seedAll } from "../../seeds/index.js";
import { ADMIN_SECTIONS } from "../../src/http/admin.js";
import { type StaffRole, mayCall } from "../../src/http/roles.js";
import { listRoutes } from "../../src/http/routes.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
const password = "correct horse battery";

beforeAll(async () => {
  ctx = await createTestContext();
  for (const role of ["owner", "office"] as const) {
    await ctx.container.users.create({
      email: `${role}@haven.test`,
      password,
      firstName: "Robin",
      lastName: role,
      role,
    });
  }
  // Bookings, inspections in every status, reports, quotes and subscriptions with paid invoices; the demo
  // inspectors get visits of their own.
  await seedDemo(ctx.container, { properties: 16, inspectors: true });
}, 60_000);
afterAll(() => ctx.close());

const ENTITIES: Record<string, string> = {
  "&quot;": '"',
  "&#39;": "'",
  "&#34;": '"',
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
};
/** An attribute's text as EJS escaped it. */
const unescaped = (text: string) => text.replace(/&(?:quot|#39|#34|lt|gt|amp);/g, (e) => ENTITIES[e]!);

/** Every tag's name and attributes, in document order (the pages are the app's own EJS output). */
function tags(html: string): { name: string; attrs: Map<string, string> }[] {
  const found: { name: string; attrs: Map<string, string> }[] = [];
  for (const tag of html.matchAll(
    /<(\/?[a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g,
  )) {
    const attrs = new Map<string, string>();
    for (const a of (tag[2] ?? "").matchAll(/([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      attrs.set(a[1]!.toLowerCase(), unescaped(a[2] ?? a[3] ?? a[4] ?? ""));
    }
    found.push({ name: tag[1]!.toLowerCase(), attrs });
  }
  return found;
}

const HX = ["hx-get", "hx-post", "hx-put", "hx-patch", "hx-delete"] as const;
const pathOf = (url: string, page: string) => new URL(url || page, "http://haven.test").pathname;

type Call = { method: string; path: string };
const call = (method: string, path: string): Call => ({ method, path });

/** The data attributes the client-request page's script (islands/quotes/QuoteActions.island.tsx) acts on. */
const ISLAND_ATTRIBUTES: [string, (value: string, attrs: Map<string, string>) => Call][] = [
  ["data-generate-quote-report", (id) => call("POST", `/api/properties/${id}/generate-quote-report`)],
  ["data-property-details", (id) => call("GET", `/api/properties/${id}`)],
  [
    "data-quote-action",
    (kind, attrs) => call(kind === "delete" ? "DELETE" : "PATCH", `/api/quote-requests/${attrs.get("data-id")}`),
  ],
];

/** The islands' permission props (a prop left out counts as shown) and the call each one offers. */
const ISLAND_FLAGS: Record<string, Record<string, (props: Record<string, unknown>) => Call>> = {
  "reports/ReportViewer": {
    canShare: (p) => call("POST", `/api/reports/${p.reportId}/share`),
    canSchedule: () => call("POST", "/api/maintenance-schedules"),
    canOpenHistory: () => call("GET", "/admin/property-history/1"),
  },
  "maintenance/MaintenanceCalendar": {
    canSchedule: () => call("POST", "/api/maintenance-schedules"),
    canChangeBookings: () => call("PATCH", "/api/inspection-bookings/1"),
  },
};

/** The calls a page's controls make: forms (and their buttons' formaction), htmx attributes; and its links. */
function controlsOf(html: string, page: string) {
  const calls: { method: string; path: string; where: string }[] = [];
  const links: string[] = [];
  let form: { method: string; action: string } | null = null;
  for (const { name, attrs } of tags(html)) {
    if (name === "form") {
      form = { method: (attrs.get("method") || "get").toUpperCase(), action: attrs.get("action") ?? "" };
      // A dialog's form only closes it: no request.
      if (form.method !== "DIALOG")
        calls.push({ method: form.method, path: pathOf(form.action, page), where: "form action" });
    } else if (name === "/form") form = null;
    if (attrs.has("formaction")) {
      const method = (attrs.get("formmethod") || form?.method || "get").toUpperCase();
      calls.push({ method, path: pathOf(attrs.get("formaction")!, page), where: `${name} formaction` });
    }
    for (const hx of HX) {
      if (attrs.has(hx))
        calls.push({ method: hx.slice(3).toUpperCase(), path: pathOf(attrs.get(hx)!, page), where: hx });
    }
    for (const [attr, call] of ISLAND_ATTRIBUTES) {
      const value = attrs.get(attr);
      if (value !== undefined) calls.push({ ...call(value, attrs), where: attr });
    }
    const flags = ISLAND_FLAGS[attrs.get("data-island") ?? ""];
    if (flags) {
      const props = JSON.parse(attrs.get("data-props") ?? "{}") as Record<string, unknown>;
      for (const [flag, call] of Object.entries(flags)) {
        if (props[flag] !== false) calls.push({ ...call(props), where: `${attrs.get("data-island")} ${flag}` });
      }
    }
    const href = name === "a" ? attrs.get("href") : undefined;
    if (href?.startsWith("/admin")) links.push(pathOf(href, page));
    // Downloads (PDFs, CSV exports) are calls too; they are checked, not walked.
    else if (href?.startsWith("/api/")) calls.push({ method: "GET", path: pathOf(href, page), where: "link" });
  }
  return { calls, links };
}

/** The route a GET path is (its pattern as registered), to walk a few pages of each kind and not every row. */
function patternOf(patterns: { path: string; re: RegExp }[], path: string) {
  return patterns.find((p) => p.re.test(path))?.path;
}

async function walk(role: StaffRole, email: string, pass: string) {
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password: pass }).expect(200);
  const patterns = listRoutes(ctx.app)
    .filter((r) => r.method === "GET" && r.path.startsWith("/admin"))
    .map((r) => ({ path: r.path, re: new RegExp(`^${r.path.replace(/:\w+/g, "[^/]+")}$`) }))
    // Exact paths before patterns ("/admin/inspections/new" is not a view of ":id").
    .sort((a, b) => a.path.split(":").length - b.path.split(":").length);
  // The pages: the sidebar's sections and every /admin page without a parameter that the role table lets it
  // open; then the pages they link to.
  // Paid invoices first: the ones with the most controls (resend, refund).
  const queue = [
    "/admin/invoices?status=paid",
    ...ADMIN_SECTIONS.map((s) => s.href),
    ...patterns.filter((p) => !p.path.includes(":")).map((p) => p.path),
  ].filter((path) => mayCall(role, "GET", pathOf(path, path)));
  const seen = new Set<string>();
  const perPattern = new Map<string, number>();
  const refused: string[] = [];
  const unopened: string[] = [];
  const calls = new Set<string>();
  while (queue.length) {
    const page = queue.shift()!;
    const pattern = patternOf(patterns, pathOf(page, page));
    if (seen.has(page) || !pattern || (perPattern.get(pattern) ?? 0) >= 3) continue;
    seen.add(page);
    perPattern.set(pattern, (perPattern.get(pattern) ?? 0) + 1);
    const res = await agent.get(page);
    if (res.status !== 200) {
      unopened.push(`${page} → ${res.status}`);
      continue;
    }
    if (!String(res.headers["content-type"]).includes("text/html")) continue;
    const found = controlsOf(res.text, page);
    for (const c of found.calls) {
      calls.add(`${c.method} ${c.path}`);
      if (!mayCall(role, c.method, c.path)) refused.push(`${page}: ${c.where} ${c.method} ${c.path}`);
    }
    for (const link of found.links) {
      if (!mayCall(role, "GET", link)) refused.push(`${page}: link GET ${link}`);
      else if (!seen.has(link)) queue.push(link);
    }
  }
  return { refused: [...new Set(refused)], unopened, patterns: [...perPattern.keys()], calls };
}

/** Who walks: new owner and office accounts, and a demo inspector (the demo staff password), who has visits. */
const SIGN_IN: Record<StaffRole, string> = {
  owner: "owner@haven.test",
  office: "office@haven.test",
  inspector: DEMO_INSPECTORS[0].email,
};

describe("staff pages show each role only the controls its calls allow", () => {
  for (const role of ["owner", "office", "inspector"] as const) {
    it(`${role}: no form, button, htmx call or link on any page it opens is refused to it`, async () => {
      const result = await walk(role, SIGN_IN[role], role === "inspector" ? ctx.env.DEMO_STAFF_PASSWORD : password);
      expect(result.refused).toEqual([]);
      // Every page the walk was given or shown opens for this role (a link shown is a page it may open).
      expect(result.unopened).toEqual([]);
      // The walk reached the pages with the most controls.
      if (role !== "inspector") {
        expect(result.patterns).toEqual(
          expect.arrayContaining(["/admin/subscriptions/:id", "/admin/invoices/:id", "/admin/properties/:id"]),
        );
      }
      expect(result.patterns).toEqual(expect.arrayContaining(["/admin/reports/:id", "/admin/inspections/view/:id"]));
      // The islands' controls are read too: the share dialog and the client-request buttons.
      const offered = [...result.calls].join("\n");
      if (role !== "inspector") expect(offered).toMatch(/^POST \/api\/reports\/\d+\/share$/m);
      if (role !== "inspector") expect(offered).toMatch(/^PATCH \/api\/quote-requests\/\d+$/m);
      // The owner is shown the refund forms the office is not: the pages walked do carry them.
      const refunds = [...result.calls].filter((c) => /^POST \/admin\/(subscriptions|invoices)\/\d+\/refund$/.test(c));
      const kinds = new Set(refunds.map((c) => c.split("/")[2]));
      expect([...kinds].sort()).toEqual(role === "owner" ? ["invoices", "subscriptions"] : []);
    }, 120_000);
  }
});

describe("each account's own settings, and the demo owner's name", () => {
  it("My Day is the day's work: the two-step line is behind the account's avatar on every staff page", async () => {
    for (const role of ["office", "inspector"] as const) {
      const agent = ctx.agent();
      const pass = role === "inspector" ? ctx.env.DEMO_STAFF_PASSWORD : password;
      await agent.post("/api/auth/login").send({ email: SIGN_IN[role], password: pass }).expect(200);
      for (const page of ["/admin/my-day", "/admin/inspections"]) {
        const { text } = await agent.get(page).expect(200);
        expect(text).not.toContain("for your account");
        const avatar = tags(text).find((t) => t.attrs.get("data-testid") === "account-link");
        expect(avatar?.name).toBe("a");
        expect(avatar?.attrs.get("href")).toBe("/admin/account/two-step");
        expect(avatar?.attrs.get("aria-label")).toMatch(/^Signed in as \w+: your two-step sign-in$/);
      }
    }
  });

  it("the demo login is an owner, listed on /admin/staff by an owner's name", async () => {
    await seedAll(ctx.container);
    const demo = await ctx.container.users.findByEmail(ctx.env.DEMO_STAFF_EMAIL);
    expect(demo).toMatchObject({ role: "owner", firstName: "Demo", lastName: "Owner" });
    const agent = ctx.agent();
    await agent
      .post("/api/auth/login")
      .send({ email: ctx.env.DEMO_STAFF_EMAIL, password: ctx.env.DEMO_STAFF_PASSWORD })
      .expect(200);
    const { text } = await agent.get("/admin/staff").expect(200);
    expect(text).toMatch(/Demo Owner <span class="text-sm font-normal">\(you\)<\/span>/);
    expect(text).not.toContain("Demo Inspector");
  });
});
