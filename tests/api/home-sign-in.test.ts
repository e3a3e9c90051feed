// My Home sign-in (docs/decisions.md#28): e-mailed link and code, the scanner case, limits and
// enumeration-safe answers, sessions (renewal, sign out, sign out everywhere), staff/home cookie separation, CSRF,
// no secret in logs, the support CLI and staff's 'Send sign-in link'.
import { Writable } from "node:stream";
import knex from "knex";
import supertest from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createContainer } from "../../src/container.js";
import { reminderEmail } from "../../src/modules/maintenance/index.js";
import { bookingConfirmationEmail } from "../../src/modules/mail/index.js";
import { quoteReportEmail } from "../../src/modules/quotes/index.js";
import { reportSharedEmail } from "../../src/modules/sharing/index.js";
import { hashToken } from "../../src/shared/one-time-links.js";
import { createLogger } from "../../src/observability/logger.js";
import { runHavenHere } from "../support/cli.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";

let ctx: TestContext;
const KNOWN = "Home.Owner@Example.com";
const OTHER = "second.owner@example.com";
let propertyId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
  const { property } = await ctx.container.customers.createWithProperty(
    { email: KNOWN, name: "Hana Owner", phone: "613-555-0101", subscriptionPlan: "basic" },
    {
      address: "1 Wellington Street",
      city: "Ottawa",
      province: "ON",
      postalCode: "K1A 0A9",
      squareFootage: 1500,
      yearBuilt: 1990,
    },
  );
  propertyId = property.id;
  await ctx.container.customers.createWithProperty(
    { email: OTHER, name: "Sam Second", phone: "613-555-0102", subscriptionPlan: "basic" },
    {
      address: "2 Wellington Street",
      city: "Ottawa",
      province: "ON",
      postalCode: "K1A 0A9",
      squareFootage: 1500,
      yearBuilt: 1990,
    },
  );
});
afterAll(() => ctx.close());
// Every test starts under the limits (they count per address, and supertest always comes from 127.0.0.1).
beforeEach(async () => {
  await ctx.db("login_attempts").where("key", "like", "home-%").delete();
});

interface QueuedMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}
async function queuedMail(): Promise<QueuedMail[]> {
  const { rows } = await ctx.db.raw(
    "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
  );
  return rows.map((r: { payload: QueuedMail }) => r.payload);
}
const signInMails = async (to: string) =>
  (await queuedMail()).filter((m) => m.to === to.toLowerCase() && m.subject.startsWith("Your Haven sign-in"));

/** Asks for a sign-in e-mail and reads the link token and the code from the queued message. */
async function requestLink(email = KNOWN, agent = ctx.agent()) {
  const before = (await signInMails(email)).length;
  await agent.post("/my-home/sign-in").type("form").send({ email }).expect(200);
  const mails = await signInMails(email);
  expect(mails).toHaveLength(before + 1);
  const text = mails.at(-1)!.text;
  const token = /\/my-home\/sign-in\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  const code = /code on the sign-in page: (\d{6})/.exec(text)?.[1];
  expect(token).toBeTruthy();
  expect(code).toBeTruthy();
  return { token: token!, code: code!, text };
}

const homeCookie = (res: supertest.Response) =>
  ([] as string[]).concat(res.headers["set-cookie"] ?? []).find((c) => c.startsWith("haven_home="));
const sessionCount = async (email = KNOWN) =>
  Number(
    (await ctx.db("home_sessions").where({ email: email.toLowerCase() }).whereNull("revoked_at").count({ n: "*" }))[0]!
      .n,
  );

describe("sign-in on a pool of one connection", () => {
  // A read on another connection inside a transaction waits for a second connection while it holds the first: with
  // every connection held so by requests at once, none goes on (docs/decisions.md#46). One connection shows it alone.
  it("e-mails the link, from the homeowner and from staff, without a second connection", async () => {
    const single = knex({
      client: "pg",
      connection: ctx.url,
      pool: { min: 0, max: 1 },
      acquireConnectionTimeout: 3_000,
    });
    try {
      const container = createContainer(ctx.env, ctx.url, single, { log: createLogger("silent") });
      const before = (await signInMails(KNOWN)).length;
      await container.homeAuth.requestSignIn(KNOWN, "203.0.113.77");
      await container.homeAuth.sendSignInLink(propertyId);
      expect(await signInMails(KNOWN)).toHaveLength(before + 2);
    } finally {
      await single.destroy();
    }
  });
});

describe("asking for a sign-in e-mail", () => {
  it("shows the e-mail form, which posts without script", async () => {
    const res = await ctx.agent().get("/my-home/sign-in").expect(200);
    expect(res.text).toContain('action="/my-home/sign-in"');
    expect(res.text).toContain('name="email"');
    // A code can be typed without asking again (another device, say).
    expect(res.text).toContain("I already have a code");
  });

  it("e-mails a known customer a link (15 minutes, hashed) and a 6-digit code, with the My Home line", async () => {
    const asked = Date.now();
    const res = await ctx.agent().post("/my-home/sign-in").type("form").send({ email: KNOWN }).expect(200);
    const answered = Date.now();
    expect(res.text).toContain(`If ${KNOWN} is a Haven customer, we have sent a sign-in link and code`);
    const mail = (await signInMails(KNOWN)).at(-1)!;
    expect(mail.text).toContain(`${ctx.env.PUBLIC_URL}/my-home/sign-in/`);
    expect(mail.text).toContain(`My Home: ${ctx.env.PUBLIC_URL}/my-home`);
    const token = /\/my-home\/sign-in\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    const code = /code on the sign-in page: (\d{6})/.exec(mail.text)![1]!;
    const row = await ctx
      .db("home_sign_in_tokens")
      .where({ token_hash: hashToken(token) })
      .first();
    expect(row.email).toBe(KNOWN.toLowerCase());
    expect(row.code_hash).toBe(hashToken(code));
    // Neither secret is stored as such.
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(`"${code}"`);
    // 15 minutes from the request, on the app's clock (created_at is the database's: tests/README.md).
    const expires = new Date(row.expires_at).getTime();
    expect(expires).toBeGreaterThanOrEqual(asked + 15 * 60_000 - 1_000);
    expect(expires).toBeLessThanOrEqual(answered + 15 * 60_000 + 1_000);
  });

  it("answers an unknown e-mail exactly as a known one, and sends nothing", async () => {
    const mailsBefore = (await queuedMail()).length;
    const known = await ctx
      .agent()
      .post("/my-home/sign-in")
      .type("form")
      .send({ email: "home.owner@example.com" })
      .expect(200);
    const unknown = await ctx
      .agent()
      .post("/my-home/sign-in")
      .type("form")
      .send({ email: "nobody.here@example.com" })
      .expect(200);
    const page = (html: string, email: string) => html.replaceAll(email, "E").replace(/nonce="[^"]*"/g, "");
    expect(page(unknown.text, "nobody.here@example.com")).toBe(page(known.text, "home.owner@example.com"));
    expect(await signInMails("nobody.here@example.com")).toHaveLength(0);
    expect((await queuedMail()).length).toBe(mailsBefore + 1);
    // The JSON call answers the same way.
    const a = await ctx.agent().post("/api/my-home/sign-in").send({ email: "home.owner@example.com" }).expect(202);
    const b = await ctx.agent().post("/api/my-home/sign-in").send({ email: "nobody.here@example.com" }).expect(202);
    expect(b.body.message.replace("nobody.here@example.com", "E")).toBe(
      a.body.message.replace("home.owner@example.com", "E"),
    );
  });

  it("refuses a bad e-mail with a 400 that names the field, and writes nothing", async () => {
    const before = await ctx.db("home_sign_in_tokens").count({ n: "*" });
    const page = await ctx.agent().post("/my-home/sign-in").type("form").send({ email: "not-an-email" }).expect(400);
    expect(page.text).toContain('id="email-error"');
    const api = await ctx.agent().post("/api/my-home/sign-in").send({ email: 42 }).expect(400);
    expect(api.body.fields).toHaveProperty("email");
    await ctx.agent().post("/api/my-home/sign-in").send({ email: "a\u0000@example.com" }).expect(400);
    expect(await ctx.db("home_sign_in_tokens").count({ n: "*" })).toEqual(before);
  });

  // Per (e-mail, address): a stranger elsewhere cannot lock the homeowner out (tests/api/home-sign-in-limits.test.ts).
  it("limits requests per e-mail from one address (known or not, the same way) with a clear 429", async () => {
    for (const email of [KNOWN, "nobody.else@example.com"]) {
      for (let i = 0; i < 5; i++) await ctx.agent().post("/my-home/sign-in").type("form").send({ email }).expect(200);
      const refused = await ctx.agent().post("/my-home/sign-in").type("form").send({ email }).expect(429);
      expect(refused.text).toContain("Too many sign-in requests");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      await ctx.agent().post("/api/my-home/sign-in").send({ email }).expect(429);
    }
  });

  it("limits requests per address, whatever the e-mail", async () => {
    for (let i = 0; i < 30; i++)
      await ctx
        .agent()
        .post("/api/my-home/sign-in")
        .send({ email: `someone${i}@example.com` })
        .expect(202);
    await ctx.agent().post("/api/my-home/sign-in").send({ email: "someone-new@example.com" }).expect(429);
    // And the code form is behind the same per-address limit.
    await ctx.agent().post("/my-home/sign-in/code").type("form").send({ email: KNOWN, code: "123456" }).expect(429);
  });
});

describe("the e-mailed link", () => {
  it("opens a 'Continue to My Home' page that spends nothing (mail scanners); the button's POST signs in, once", async () => {
    const { token } = await requestLink();
    const sessionsBefore = await sessionCount();
    for (let i = 0; i < 3; i++) {
      const page = await ctx.agent().get(`/my-home/sign-in/${token}`).expect(200);
      expect(page.text).toContain("Continue to My Home");
      expect(homeCookie(page)).toBeUndefined();
      expect(page.headers["cache-control"]).toBe("no-store");
    }
    expect(
      (
        await ctx
          .db("home_sign_in_tokens")
          .where({ token_hash: hashToken(token) })
          .first()
      ).used_at,
    ).toBeNull();
    expect(await sessionCount()).toBe(sessionsBefore);

    const agent = ctx.agent();
    const spent = await agent.post(`/my-home/sign-in/${token}`).type("form").send({}).expect(303);
    expect(spent.headers.location).toBe("/my-home");
    const cookie = homeCookie(spent)!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=2592000/);
    expect(await sessionCount()).toBe(sessionsBefore + 1);
    await agent.get("/api/my-home/passkeys").expect(200);

    // Used: both the page and the POST say so, with the form to ask again.
    const again = await ctx.agent().post(`/my-home/sign-in/${token}`).type("form").send({}).expect(410);
    expect(again.text).toContain("expired or has already been used");
    expect(again.text).toContain('action="/my-home/sign-in"');
    await ctx.agent().get(`/my-home/sign-in/${token}`).expect(410);
  });

  it("expires after 15 minutes", async () => {
    const { token } = await requestLink();
    await ctx
      .db("home_sign_in_tokens")
      .where({ token_hash: hashToken(token) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await ctx.agent().get(`/my-home/sign-in/${token}`).expect(410);
    const res = await ctx.agent().post(`/my-home/sign-in/${token}`).type("form").send({}).expect(410);
    expect(homeCookie(res)).toBeUndefined();
  });

  it("goes on to a same-site `next` only", async () => {
    const first = await requestLink();
    expect(
      (
        await ctx
          .agent()
          .post(`/my-home/sign-in/${first.token}`)
          .type("form")
          .send({ next: "/my-home/reports" })
          .expect(303)
      ).headers.location,
    ).toBe("/my-home/reports");
    const second = await requestLink();
    expect(
      (
        await ctx
          .agent()
          .post(`/my-home/sign-in/${second.token}`)
          .type("form")
          .send({ next: "//evil.example/x" })
          .expect(303)
      ).headers.location,
    ).toBe("/my-home");
  });

  it("answers an unknown or malformed token like a used one", async () => {
    await ctx
      .agent()
      .get(`/my-home/sign-in/${"A".repeat(43)}`)
      .expect(410);
    await ctx.agent().get("/my-home/sign-in/short").expect(410);
    await ctx.agent().post("/my-home/sign-in/short").type("form").send({}).expect(410);
  });
});

describe("the code", () => {
  it("signs in instead of the link, once", async () => {
    const { code, token } = await requestLink();
    const res = await ctx
      .agent()
      .post("/my-home/sign-in/code")
      .type("form")
      .send({ email: KNOWN, code: `${code.slice(0, 3)} ${code.slice(3)}` })
      .expect(303);
    expect(homeCookie(res)).toBeTruthy();
    // The link and the code are one sign-in: either spends both.
    await ctx.agent().post(`/my-home/sign-in/${token}`).type("form").send({}).expect(410);
    await ctx.agent().post("/my-home/sign-in/code").type("form").send({ email: KNOWN, code }).expect(400);
  });

  it("allows at most 5 tries per code", async () => {
    const { code } = await requestLink();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const res = await ctx
        .agent()
        .post("/my-home/sign-in/code")
        .type("form")
        .send({ email: KNOWN, code: wrong })
        .expect(400);
      expect(res.text).toContain("That code is not right");
    }
    const sixth = await ctx.agent().post("/my-home/sign-in/code").type("form").send({ email: KNOWN, code }).expect(400);
    expect(homeCookie(sixth)).toBeUndefined();
    // A new e-mail brings a new code with its own tries.
    const fresh = await requestLink();
    await ctx.agent().post("/my-home/sign-in/code").type("form").send({ email: KNOWN, code: fresh.code }).expect(303);
  });

  it("expires with the link, and refuses a malformed code by name", async () => {
    const { code, token } = await requestLink();
    await ctx
      .db("home_sign_in_tokens")
      .where({ token_hash: hashToken(token) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await ctx.agent().post("/my-home/sign-in/code").type("form").send({ email: KNOWN, code }).expect(400);
    const bad = await ctx
      .agent()
      .post("/my-home/sign-in/code")
      .type("form")
      .send({ email: KNOWN, code: "12ab" })
      .expect(400);
    expect(bad.text).toContain("Enter the 6-digit code");
  });
});

describe("the session", () => {
  it("guards the portal calls: 401 without a session, the viewer's data with one", async () => {
    await ctx.agent().get("/api/my-home/passkeys").expect(401);
    const agent = await signInHome(ctx, KNOWN);
    expect((await agent.get("/api/my-home/passkeys").expect(200)).body).toEqual([]);
    // Signed in, the sign-in page sends the homeowner on.
    expect((await agent.get("/my-home/sign-in?next=/my-home/plan").expect(303)).headers.location).toBe("/my-home/plan");
  });

  it("is renewed for 30 days while it is used", async () => {
    const { token, sessionId } = await ctx.container.homeAuth.createSession(KNOWN);
    const agent = ctx.agent();
    agent.jar.setCookie(`haven_home=${token}; Path=/`, "127.0.0.1", "/");
    // Recently renewed: the cookie is not sent again on every request.
    expect(homeCookie(await agent.get("/api/my-home/passkeys").expect(200))).toBeUndefined();
    const soon = new Date(Date.now() + 86_400_000);
    await ctx
      .db("home_sessions")
      .where({ id: sessionId })
      .update({ last_seen_at: new Date(Date.now() - 2 * 3_600_000), expires_at: soon });
    const renewed = await agent.get("/api/my-home/passkeys").expect(200);
    expect(homeCookie(renewed)).toMatch(/Max-Age=2592000/);
    const row = await ctx.db("home_sessions").where({ id: sessionId }).first();
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it("ends when it expires, and the stale cookie is cleared", async () => {
    const { token, sessionId } = await ctx.container.homeAuth.createSession(KNOWN);
    const agent = ctx.agent();
    agent.jar.setCookie(`haven_home=${token}; Path=/`, "127.0.0.1", "/");
    await ctx
      .db("home_sessions")
      .where({ id: sessionId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await agent.get("/api/my-home/passkeys").expect(401);
    expect(homeCookie(res)).toMatch(/Expires=Thu, 01 Jan 1970/);
    // A malformed cookie reads as none, and is dropped too.
    const junk = await supertest(ctx.app)
      .get("/api/my-home/passkeys")
      .set("Cookie", "haven_home=not-a-token")
      .expect(401);
    expect(homeCookie(junk)).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  it("signing in again in a browser ends the session it had", async () => {
    const agent = await signInHome(ctx, OTHER);
    const before = await sessionCount(OTHER);
    const { token } = await requestLink();
    await agent.post(`/my-home/sign-in/${token}`).type("form").send({}).expect(303);
    expect(await sessionCount(OTHER)).toBe(before - 1);
  });

  it("signs out this browser only", async () => {
    const here = await signInHome(ctx, KNOWN);
    const there = await signInHome(ctx, KNOWN);
    const res = await here.post("/my-home/sign-out").type("form").send({}).expect(303);
    expect(res.headers.location).toBe("/my-home/sign-in");
    await here.get("/api/my-home/passkeys").expect(401);
    await there.get("/api/my-home/passkeys").expect(200);
  });

  it("signs out everywhere: every session of the e-mail, and no one else's", async () => {
    const one = await signInHome(ctx, KNOWN);
    const two = await signInHome(ctx, KNOWN.toUpperCase());
    const other = await signInHome(ctx, OTHER);
    await one.post("/my-home/sign-out-everywhere").type("form").send({}).expect(303);
    await one.get("/api/my-home/passkeys").expect(401);
    await two.get("/api/my-home/passkeys").expect(401);
    await other.get("/api/my-home/passkeys").expect(200);
    expect(await sessionCount(KNOWN)).toBe(0);
    // The JSON call does the same.
    const three = await signInHome(ctx, KNOWN);
    await three.post("/api/my-home/sign-out-everywhere").send({}).expect(200);
    await three.get("/api/my-home/passkeys").expect(401);
  });

  it("signing out everywhere also ends the calendar feed's URL and every link and code e-mailed before", async () => {
    const older = await requestLink();
    const newer = await requestLink();
    const home = await signInHome(ctx, KNOWN);
    const feedUrl = new URL((await home.post("/api/my-home/calendar-feed").send({}).expect(201)).body.url as string);
    await ctx.agent().get(feedUrl.pathname).expect(200);
    const otherHome = await signInHome(ctx, OTHER);
    const otherFeed = new URL(
      (await otherHome.post("/api/my-home/calendar-feed").send({}).expect(201)).body.url as string,
    );

    await home.post("/my-home/sign-out-everywhere").type("form").send({}).expect(303);
    await ctx.agent().get(feedUrl.pathname).expect(404);
    for (const { token } of [older, newer]) {
      await ctx.agent().get(`/my-home/sign-in/${token}`).expect(410);
      await ctx.agent().post(`/my-home/sign-in/${token}`).type("form").send({}).expect(410);
    }
    await ctx.agent().post("/my-home/sign-in/code").type("form").send({ email: KNOWN, code: newer.code }).expect(400);
    expect(await sessionCount(KNOWN)).toBe(0);
    // Someone else's feed goes on; and the homeowner can sign in again with a new e-mail.
    await ctx.agent().get(otherFeed.pathname).expect(200);
    const fresh = await requestLink();
    await ctx.agent().post(`/my-home/sign-in/${fresh.token}`).type("form").send({}).expect(303);
  });

  it("never grants staff anything, and staff sessions grant nothing in My Home", async () => {
    const home = await signInHome(ctx, KNOWN);
    await home.get("/api/auth/user").expect(401);
    await home.post(`/api/properties/${propertyId}/send-sign-in-link`).send({}).expect(401);
    expect((await home.get("/admin").expect(302)).headers.location).toMatch(/^\/login/);

    const { agent: staff } = await signInStaff(ctx);
    await staff.get("/api/my-home/passkeys").expect(401);
    await staff.post("/api/my-home/passkeys/options").send({}).expect(401);
    expect((await staff.get("/my-home/sign-in").expect(200)).text).toContain('action="/my-home/sign-in"');
  });

  it("refuses cross-site unsafe calls that carry the home cookie (CSRF)", async () => {
    const { token } = await ctx.container.homeAuth.createSession(KNOWN);
    const cookie = `haven_home=${token}`;
    await supertest(ctx.app)
      .post("/my-home/sign-out-everywhere")
      .set("Cookie", cookie)
      .set("Origin", "https://evil.example")
      .type("form")
      .send({})
      .expect(403);
    await supertest(ctx.app)
      .post("/api/my-home/passkeys/options")
      .set("Cookie", cookie)
      .set("Sec-Fetch-Site", "cross-site")
      .send({})
      .expect(403);
    // No Origin and no Sec-Fetch-Site, with the cookie: refused too.
    await supertest(ctx.app)
      .post("/my-home/sign-out-everywhere")
      .set("Cookie", cookie)
      .type("form")
      .send({})
      .expect(403);
    expect(await sessionCount()).toBeGreaterThan(0);
    await supertest(ctx.app).get("/api/my-home/passkeys").set("Cookie", cookie).expect(200);
  });
});

describe("passkeys", () => {
  it("gives registration options only to a signed-in homeowner, for this site", async () => {
    const agent = await signInHome(ctx, KNOWN);
    const options = (await agent.post("/api/my-home/passkeys/options").send({}).expect(200)).body;
    expect(options.rp.id).toBe(new URL(ctx.env.PUBLIC_URL).hostname);
    expect(options.user.name).toBe(KNOWN.toLowerCase());
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the challenge's hash is kept.
    expect(
      await ctx
        .db("home_webauthn_challenges")
        .where({ challenge_hash: hashToken(options.challenge) })
        .first(),
    ).toBeTruthy();
  });

  it("lists and removes only the homeowner's own passkeys", async () => {
    const [mine] = await ctx
      .db("home_passkeys")
      .insert({ email: KNOWN.toLowerCase(), credential_id: "cred-mine", public_key: Buffer.from([1]), name: "Phone" })
      .returning("id");
    const [theirs] = await ctx
      .db("home_passkeys")
      .insert({ email: OTHER, credential_id: "cred-theirs", public_key: Buffer.from([1]), name: "Laptop" })
      .returning("id");
    const agent = await signInHome(ctx, KNOWN);
    const listed = (await agent.get("/api/my-home/passkeys").expect(200)).body;
    expect(listed).toEqual([{ id: mine.id, name: "Phone", createdAt: expect.any(String), lastUsedAt: null }]);
    await agent.delete(`/api/my-home/passkeys/${theirs.id}`).expect(404);
    await agent.delete("/api/my-home/passkeys/abc").expect(400);
    await agent.delete(`/api/my-home/passkeys/${mine.id}`).expect(204);
    expect(await ctx.db("home_passkeys").pluck("credential_id")).toEqual(["cred-theirs"]);
    await ctx.db("home_passkeys").delete();
  });

  it("refuses a forged registration or sign-in with a clear 4xx, writing nothing", async () => {
    const agent = await signInHome(ctx, KNOWN);
    const fake = {
      id: "abc",
      rawId: "abc",
      type: "public-key",
      response: { clientDataJSON: "e30", attestationObject: "oA" },
      clientExtensionResults: {},
    };
    const res = await agent.post("/api/my-home/passkeys").send({ response: fake, name: "Phone" }).expect(400);
    expect(res.body.fields).toHaveProperty("response");
    await agent
      .post("/api/my-home/passkeys")
      .send({ response: { id: 1 } })
      .expect(400);
    expect(Number((await ctx.db("home_passkeys").count({ n: "*" }))[0]!.n)).toBe(0);
    const options = (await ctx.agent().post("/api/my-home/passkey-sign-in/options").send({}).expect(200)).body;
    expect(options.rpId).toBe(new URL(ctx.env.PUBLIC_URL).hostname);
    const signIn = await ctx
      .agent()
      .post("/api/my-home/passkey-sign-in")
      .send({ response: { ...fake, response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" } } })
      .expect(401);
    expect(homeCookie(signIn)).toBeUndefined();
    await agent.delete("/api/my-home/passkeys/999999").expect(404);
  });
});

describe("support and staff", () => {
  it("`haven customers sign-in-link` prints a working 15-minute link and says it was logged", async () => {
    // The link's address: PUBLIC_URL, as support's shell beside the site has it (src/ops/site-address.ts).
    const result = await runHavenHere(ctx.url, ["customers", "sign-in-link", "--email", KNOWN.toUpperCase()], {
      env: { PUBLIC_URL: ctx.env.PUBLIC_URL },
    });
    expect(result.code).toBe(0);
    const url = result.stdout.trim();
    expect(url).toMatch(
      new RegExp(`^${ctx.env.PUBLIC_URL.replace(/[.:/]/g, "\\$&")}/my-home/sign-in/[A-Za-z0-9_-]{43}$`),
    );
    const token = url.split("/").at(-1)!;
    expect(result.stderr).toContain("logged");
    expect(result.stderr).not.toContain(token);
    const row = await ctx
      .db("home_sign_in_tokens")
      .where({ token_hash: hashToken(token) })
      .first();
    expect(row.source).toBe("support");
    expect((new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 60_000).toBeCloseTo(15, 0);
    const res = await ctx.agent().post(`/my-home/sign-in/${token}`).type("form").send({}).expect(303);
    expect(homeCookie(res)).toBeTruthy();

    const unknown = await runHavenHere(ctx.url, ["customers", "sign-in-link", "--email", "nobody@example.com"], {
      env: { PUBLIC_URL: ctx.env.PUBLIC_URL },
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No customer with e-mail nobody@example.com");
  });

  it("staff e-mail the property's customer a link; the property dialog shows the last sign-in", async () => {
    const { agent: staff } = await signInStaff(ctx);
    const before = (await signInMails(KNOWN)).length;
    const res = await staff.post(`/api/properties/${propertyId}/send-sign-in-link`).send({}).expect(200);
    expect(res.body).toEqual({ success: true, email: KNOWN.toLowerCase() });
    const mails = await signInMails(KNOWN);
    expect(mails).toHaveLength(before + 1);
    const token = /\/my-home\/sign-in\/([A-Za-z0-9_-]{43})/.exec(mails.at(-1)!.text)![1]!;
    await ctx.agent().post(`/my-home/sign-in/${token}`).type("form").send({}).expect(303);
    const last = await ctx.container.homeAuth.lastSignedIn(KNOWN);
    expect(last).toBeInstanceOf(Date);
    const dialog = await staff.get(`/admin/properties/${propertyId}`).set("HX-Request", "true").expect(200);
    expect(dialog.text).toMatch(/<dt>My Home<\/dt><dd>Last signed in /);
    expect(dialog.text).toContain(`action="/admin/properties/${propertyId}/send-sign-in-link"`);
    // The dialog's button (htmx) answers a fragment; without script, back to the details.
    const sent = await staff
      .post(`/admin/properties/${propertyId}/send-sign-in-link`)
      .set("HX-Request", "true")
      .type("form")
      .send({})
      .expect(200);
    expect(sent.text).toContain(`Sign-in link sent to ${KNOWN.toLowerCase()}`);
    expect(
      (await staff.post(`/admin/properties/${propertyId}/send-sign-in-link`).type("form").send({}).expect(303)).headers
        .location,
    ).toBe(`/admin/properties/${propertyId}`);
    expect(await signInMails(KNOWN)).toHaveLength(before + 3);
    // A homeowner's cookie cannot use the staff form.
    const home = await signInHome(ctx, KNOWN);
    await home.post(`/admin/properties/${propertyId}/send-sign-in-link`).type("form").send({}).expect(302);
    await staff.post("/api/properties/999999/send-sign-in-link").send({}).expect(404);
    await staff.post("/api/properties/abc/send-sign-in-link").send({}).expect(400);
  });
});

describe("entry points", () => {
  it("every customer e-mail carries the My Home line", () => {
    const url = ctx.env.PUBLIC_URL;
    const line = `My Home: ${url}/my-home`;
    const messages = [
      bookingConfirmationEmail({
        bookingId: 1,
        to: "a@example.com",
        name: "A",
        dateLabel: "Monday",
        timeLabel: "9:00 AM",
        location: "1 Main",
        accessLabel: null,
        accessInstructions: null,
        hasAccessCode: false,
        specialRequests: null,
        start: new Date(),
        minutes: 60,
        supportEmail: "s@example.com",
        supportPhone: "1",
        publicUrl: url,
      }),
      reminderEmail({
        to: "a@example.com",
        name: "A",
        dateLabel: "Monday",
        timeLabel: "9:00 AM",
        what: "x",
        location: "1 Main",
        durationLabel: null,
        ics: "BEGIN:VCALENDAR",
        supportEmail: "s@example.com",
        supportPhone: "1",
        publicUrl: url,
      }),
      reportSharedEmail(
        {
          to: "a@example.com",
          link: `${url}/client-report/abc`,
          propertyAddress: "1 Main",
          expiresAt: new Date().toISOString(),
          supportEmail: "s@example.com",
        },
        null,
      ),
      quoteReportEmail(
        {
          to: "a@example.com",
          clientName: "A",
          propertyAddress: "1 Main",
          items: [],
          totalCents: null,
          link: `${url}/quote-report/abc`,
          supportEmail: "s@example.com",
        },
        Buffer.from("%PDF"),
      ),
    ];
    for (const message of messages) {
      expect(message.text).toContain(line);
      expect(message.html).toContain(`href="${url}/my-home"`);
    }
  });

  it("the footer, the staff login page and the booking confirmation link to My Home", async () => {
    expect((await ctx.agent().get("/pricing").expect(200)).text).toMatch(/<a href="\/my-home"[^>]*>My Home<\/a>/);
    expect((await ctx.agent().get("/login").expect(200)).text).toContain(
      'Homeowner? <a class="link" href="/my-home/sign-in">Sign in to My Home</a>',
    );
    expect((await ctx.agent().get("/booking-confirmation").expect(200)).text).toContain(
      'href="/my-home/sign-in">My Home</a>',
    );
  });
});

describe("privacy", () => {
  it("exports a homeowner's sign-in state without secrets, purges spent rows daily, and erase deletes the rest", async () => {
    const email = "privacy.owner@example.com";
    await ctx.container.customers.createWithProperty(
      { email, name: "Pat Privacy", phone: "613-555-0109", subscriptionPlan: "basic" },
      {
        address: "9 Wellington Street",
        city: "Ottawa",
        province: "ON",
        postalCode: "K1A 0A9",
        squareFootage: 1500,
        yearBuilt: 1990,
      },
    );
    const { token } = await requestLink(email);
    await ctx.agent().post(`/my-home/sign-in/${token}`).type("form").send({}).expect(303);
    await requestLink(email);
    const exported = await ctx.container.privacy.exportCustomer(email);
    expect(exported.myHome.accounts).toHaveLength(1);
    expect(exported.myHome.sessions).toHaveLength(1);
    expect(JSON.stringify(exported.myHome)).not.toContain("token_hash");

    // The daily purge: the used link goes now; the unused one once expired.
    const purged = await ctx.container.privacy.purge(new Date());
    expect(purged.deleted.home_sign_in_tokens).toBeGreaterThanOrEqual(1);
    expect(await ctx.db("home_sign_in_tokens").where({ email }).whereNotNull("used_at").first()).toBeUndefined();
    expect(await ctx.db("home_sign_in_tokens").where({ email }).first()).toBeTruthy();

    const erased = await ctx.container.privacy.eraseCustomer(email);
    expect(erased.changed["home_sessions (deleted)"]).toBe(1);
    for (const table of ["home_sessions", "home_sign_in_tokens", "home_accounts"])
      expect(await ctx.db(table).where({ email }).first()).toBeUndefined();
  });
});

describe("logs", () => {
  it("never carry a sign-in token, a code or a session id", async () => {
    const raw: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        raw.push(String(chunk));
        done();
      },
    });
    const container = createContainer(ctx.env, ctx.url, ctx.db, { log: createLogger("info", stream) });
    const app = createApp(container);
    const agent = supertest.agent(app).set("Sec-Fetch-Site", "same-origin");
    await agent.post("/my-home/sign-in").type("form").send({ email: KNOWN }).expect(200);
    const text = (await signInMails(KNOWN)).at(-1)!.text;
    const token = /\/my-home\/sign-in\/([A-Za-z0-9_-]{43})/.exec(text)![1]!;
    const code = /code on the sign-in page: (\d{6})/.exec(text)![1]!;
    await agent.get(`/my-home/sign-in/${token}`).expect(200);
    await agent
      .post("/my-home/sign-in/code")
      .type("form")
      .send({ email: KNOWN, code: code === "000000" ? "111111" : "000000" })
      .expect(400);
    const spent = await agent.post(`/my-home/sign-in/${token}`).type("form").send({}).expect(303);
    const session = homeCookie(spent)!.split(";")[0]!.split("=")[1]!;
    await agent.get("/api/my-home/passkeys").expect(200);
    await container.homeAuth.signInLink(KNOWN);
    const all = raw.join("\n");
    expect(all).toContain("/my-home/sign-in/[token]");
    expect(all).toContain("home.sign_in_link");
    for (const secret of [token, session]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(new RegExp(`\\b${code}\\b`));
  });
});
