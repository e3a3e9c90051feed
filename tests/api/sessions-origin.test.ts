// unreadable session cookies, secret rotation, the public origin, logout's cache clearing.
import { Writable } from "node:stream";
import { sealData } from "iron-session";
import pino from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { ConfigError, loadEnv } from "../../src/config/env.js";
import { CROSS_SITE_MESSAGE } from "../../src/http/csrf.js";
import { UNKNOWN_HOST_MESSAGE } from "../../src/http/origin.js";
import { SESSION_COOKIE } from "../../src/http/session.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { type Smtp, runJobs, sharedReportFixture, shareReport, startSmtp } from "./sharing-fixtures.js";

const CURRENT = "c".repeat(40);
const RETIRED = "r".repeat(40);
const FORGOTTEN = "f".repeat(40);
const MALFORMED = `${SESSION_COOKIE}=a*b*c*d*e*f*g*h`;

let ctx: TestContext;
let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtp();
  // No PUBLIC_URL: the development default (http://localhost:$PORT) is the public origin.
  ctx = await createTestContext({
    SESSION_SECRET: CURRENT,
    SESSION_SECRETS_PREVIOUS: ` ${RETIRED} ,`,
    SMTP_URL: smtp.url,
    PORT: "3000",
  });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** The Set-Cookie lines for the session cookie. */
const sessionCookies = (res: { headers: Record<string, unknown> }) =>
  ([] as string[])
    .concat((res.headers["set-cookie"] as string[] | undefined) ?? [])
    .filter((c) => c.startsWith(`${SESSION_COOKIE}=`));
const clears = (line: string | undefined) =>
  Boolean(line && /^haven_session=;/.test(line) && /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line));

/** The app on the same database, its log lines kept. */
function appWithLog(env = ctx.env) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = createApp({ ...ctx.container, env, log: pino({ level: "info" }, sink) });
  return { app, lines };
}

/** A live staff session sealed by `password`, as a Cookie header. */
async function staffCookie(password: string) {
  const { email, password: userPassword, user } = await signInStaff(ctx);
  const { sessionToken } = await ctx.container.auth.login(email, userPassword, "192.0.2.1");
  const seal = await sealData({ staffUserId: user.id, staffSessionToken: sessionToken }, { password, ttl: 60 * 60 });
  return { cookie: `${SESSION_COOKIE}=${seal}`, user };
}

describe("a session cookie that cannot be unsealed", () => {
  it("is no session: public pages, the API and staff pages answer as for a visitor, clear the cookie, and log one warning without a stack", async () => {
    const { app, lines } = appWithLog();
    const home = await supertest(app).get("/").set("Cookie", MALFORMED).expect(200);
    expect(clears(sessionCookies(home)[0])).toBe(true);
    const api = await supertest(app).get("/api/plans").set("Cookie", MALFORMED).expect(200);
    expect(clears(sessionCookies(api)[0])).toBe(true);
    await supertest(app).get("/api/auth/user").set("Cookie", MALFORMED).expect(401);
    const admin = await supertest(app).get("/admin").set("Cookie", MALFORMED).expect(302);
    expect(admin.headers.location).toMatch(/^\/login\?next=/);
    await supertest(app).get("/login").set("Cookie", `${MALFORMED}; other=1`).expect(200);

    const warnings = lines.filter((l) => l.msg === "session cookie could not be unsealed; cleared");
    expect(warnings).toHaveLength(5);
    expect(warnings[0]).toMatchObject({ level: 40, reason: "Wrong mac prefix" });
    expect(JSON.stringify(lines)).not.toMatch(/stack|at getIronSession|at unseal/);
    expect(lines.some((l) => (l.level as number) >= 50)).toBe(false);
  });

  it("other garbage is no session either: a bare word, a truncated seal, bad percent-escapes", async () => {
    const good = (await staffCookie(CURRENT)).cookie;
    for (const cookie of [
      `${SESSION_COOKIE}=garbage`,
      good.slice(0, 60),
      `${SESSION_COOKIE}=%E0%A4%A`,
      `${SESSION_COOKIE}=Fe26.2*1*${"x".repeat(30)}~2`,
    ]) {
      const res = await supertest(ctx.app).get("/api/auth/user").set("Cookie", cookie);
      expect(res.status, cookie).toBe(401);
      expect(clears(sessionCookies(res)[0]), cookie).toBe(true);
    }
  });
});

describe("secret rotation (SESSION_SECRET seals, SESSION_SECRETS_PREVIOUS still unseal)", () => {
  it("a cookie sealed with a listed previous secret still works, and comes back sealed with the current one", async () => {
    const { cookie, user } = await staffCookie(RETIRED);
    const res = await supertest(ctx.app).get("/api/auth/user").set("Cookie", cookie).expect(200);
    expect(res.body.id).toBe(user.id);
    const resealed = sessionCookies(res)[0]!.split(";")[0]!;
    expect(resealed).not.toBe(cookie);
    // The new cookie opens with the current secret alone: an app that no longer lists the retired one accepts it.
    const { app } = appWithLog({ ...ctx.env, SESSION_SECRETS_PREVIOUS: [] });
    expect((await supertest(app).get("/api/auth/user").set("Cookie", resealed).expect(200)).body.id).toBe(user.id);
    // A cookie sealed with the current secret is not sealed again on every request.
    expect(sessionCookies(await supertest(ctx.app).get("/api/auth/user").set("Cookie", resealed).expect(200))).toEqual(
      [],
    );
  });

  it("a cookie sealed with a secret that is not listed (any more) is cleared, with one warning", async () => {
    const { cookie } = await staffCookie(FORGOTTEN);
    const { app, lines } = appWithLog();
    const res = await supertest(app).get("/api/auth/user").set("Cookie", cookie).expect(401);
    expect(clears(sessionCookies(res)[0])).toBe(true);
    expect(lines.filter((l) => l.msg === "session cookie could not be unsealed; cleared")).toHaveLength(1);

    const retired = await staffCookie(RETIRED);
    const { app: withoutPrevious } = appWithLog({ ...ctx.env, SESSION_SECRETS_PREVIOUS: [] });
    const dropped = await supertest(withoutPrevious).get("/api/auth/user").set("Cookie", retired.cookie).expect(401);
    expect(clears(sessionCookies(dropped)[0])).toBe(true);
  });

  it("is configured as a comma-separated list of 32+ character secrets, named when one is too short", () => {
    expect(loadEnv({ SESSION_SECRETS_PREVIOUS: `${RETIRED}, ${FORGOTTEN}` }).SESSION_SECRETS_PREVIOUS).toEqual([
      RETIRED,
      FORGOTTEN,
    ]);
    expect(loadEnv({}).SESSION_SECRETS_PREVIOUS).toEqual([]);
    expect(loadEnv({ SESSION_SECRETS_PREVIOUS: "" }).SESSION_SECRETS_PREVIOUS).toEqual([]);
    expect(() => loadEnv({ SESSION_SECRETS_PREVIOUS: `${RETIRED},short` })).toThrow(
      /SESSION_SECRETS_PREVIOUS\.1: each previous session secret must be at least 32 characters/,
    );
  });
});

describe("the public origin comes from PUBLIC_URL, never from the Host header", () => {
  it("defaults to http://localhost:$PORT outside production; production refuses to start without it, in one line naming it", () => {
    expect(loadEnv({ PORT: "4100" }).PUBLIC_URL).toBe("http://localhost:4100");
    expect(loadEnv({ PUBLIC_URL: "https://haven.example/" }).PUBLIC_URL).toBe("https://haven.example");
    const production = {
      NODE_ENV: "production",
      SESSION_SECRET: "p".repeat(40),
      DATABASE_URL: "postgres://x/y",
      PAYMENTS_MODE: "demo",
      MAIL_MODE: "outbox",
    };
    expect(() => loadEnv(production)).toThrow(ConfigError);
    expect(() => loadEnv(production)).toThrow(/^Invalid configuration: PUBLIC_URL must be set in production[^\n]*$/);
    expect(loadEnv({ ...production, PUBLIC_URL: "https://haven.example" }).PUBLIC_URL).toBe("https://haven.example");
  });

  it("a report shared with `Host: evil.example` e-mails a link to PUBLIC_URL", async () => {
    const { agent: staff } = await signInStaff(ctx);
    const { report } = await sharedReportFixture(ctx, "5 Host Header Lane");
    staff.set("Host", "evil.example");
    const { link } = await shareReport(staff, report.id, "host@example.com");
    expect(link).toMatch(/^http:\/\/localhost:3000\/client-report\/[A-Za-z0-9_-]{43}$/);
    smtp.received.length = 0;
    await runJobs(ctx);
    const mail = (await smtp.mails()).find(
      (m) => (m.to && !Array.isArray(m.to) ? m.to.text : "") === "host@example.com",
    )!;
    expect(mail.text).toContain(link);
    expect(`${mail.text}${mail.html}`).not.toContain("evil.example");
  });

  it("robots.txt and the sitemap name PUBLIC_URL whatever the Host", async () => {
    const robots = await supertest(ctx.app).get("/robots.txt").set("Host", "evil.example").expect(200);
    expect(robots.text).toContain("Sitemap: http://localhost:3000/sitemap.xml");
    const sitemap = await supertest(ctx.app).get("/sitemap.xml").set("Host", "evil.example").expect(200);
    expect(sitemap.text).not.toContain("evil.example");
  });

  it("CSRF: an Origin must be PUBLIC_URL's; outside production a loopback browser may post to its own address, never another name", async () => {
    const { agent } = await signInStaff(ctx);
    const cookie = String((await agent.get("/api/auth/user")).request.cookies);
    const post = () => supertest(ctx.app).post("/api/auth/logout").set("Cookie", cookie);
    // Before the fix, a Host the attacker chose made its own Origin "same-site" (DNS rebinding).
    expect((await post().set("Host", "evil.example").set("Origin", "http://evil.example").expect(403)).body).toEqual({
      message: CROSS_SITE_MESSAGE,
    });
    await post().set("Host", "localhost:5173").set("Origin", "http://localhost:5174").expect(403);
    await post().set("Host", "[::1]:4000").set("Origin", "http://[::1]:4000").expect(200);
    const again = await signInStaff(ctx);
    const cookie2 = String((await again.agent.get("/api/auth/user")).request.cookies);
    await supertest(ctx.app)
      .post("/api/auth/logout")
      .set("Cookie", cookie2)
      .set("Host", "evil.example")
      .set("Origin", "http://localhost:3000")
      .expect(200);
  });
});

describe("production: the Host must be PUBLIC_URL's or a loopback name", () => {
  let prod: TestContext;
  beforeAll(async () => {
    prod = await createTestContext({
      NODE_ENV: "production",
      SESSION_SECRET: CURRENT,
      PUBLIC_URL: "https://haven.example",
      PAYMENTS_MODE: "demo",
      MAIL_MODE: "outbox",
    });
  });
  afterAll(() => prod?.close());

  it("answers 400 to any other Host, on pages and the API, before anything is built from it", async () => {
    const page = await supertest(prod.app).get("/pricing").set("Host", "evil.example").expect(400);
    expect(page.text).toContain(UNKNOWN_HOST_MESSAGE);
    const api = await supertest(prod.app).get("/api/plans").set("Host", "evil.example:443").expect(400);
    expect(api.body).toEqual({ message: UNKNOWN_HOST_MESSAGE });
    await supertest(prod.app)
      .post("/api/auth/login")
      .set("Host", "haven.example.evil.example")
      .send({ email: "a@b.c", password: "x" })
      .expect(400);
    for (const host of [
      "haven.example",
      "HAVEN.example",
      "localhost:3000",
      "127.0.0.1:8080",
      "[::1]:3000",
      "localhost",
    ]) {
      expect((await supertest(prod.app).get("/robots.txt").set("Host", host)).status, host).toBe(200);
    }
    expect((await supertest(prod.app).get("/robots.txt").set("Host", "localhost")).text).toContain(
      "Sitemap: https://haven.example/sitemap.xml",
    );
  });

  it("accepts only PUBLIC_URL's Origin for unsafe requests, even from a loopback Host", async () => {
    const body = { email: "nobody@haven.test", password: "x" };
    const cookie = `${SESSION_COOKIE}=${await sealData({ customerIds: [1] }, { password: CURRENT, ttl: 3600 })}`;
    const post = () => supertest(prod.app).post("/api/auth/login").set("Cookie", cookie).send(body);
    await post().set("Origin", "https://haven.example").expect(401);
    await post().set("Host", "127.0.0.1:3000").set("Origin", "http://127.0.0.1:3000").expect(403);
    await post().set("Origin", "http://haven.example").expect(403);
  });
});

describe("logout", () => {
  it('sends Clear-Site-Data: "cache" (staff photos are cached for a year), from the API and the form', async () => {
    const api = await signInStaff(ctx);
    const res = await api.agent.post("/api/auth/logout").expect(200);
    expect(res.headers["clear-site-data"]).toBe('"cache"');
    const form = await signInStaff(ctx);
    const page = await form.agent.post("/logout").expect(303);
    expect(page.headers["clear-site-data"]).toBe('"cache"');
    // Only the HTTP cache: IndexedDB (the inspection form's unsent work) and the rest of storage stay.
    expect(page.headers["clear-site-data"]).not.toMatch(/storage|\*/);
  });
});
