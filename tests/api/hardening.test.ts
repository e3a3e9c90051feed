// the defects a tester found, each proven fixed against the real app and a real Postgres.
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE } from "../../src/http/csrf.js";
import { MALFORMED_URL_MESSAGE } from "../../src/http/errors.js";
import { LOGIN_LIMITS, TOO_MANY_LOGINS_MESSAGE } from "../../src/modules/auth/auth.service.js";
import { seedAll } from "../../seeds/index.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const count = async (table: string) => Number((await ctx.db(table).count({ n: "*" }).first())!.n);
const mailJobs = async () =>
  Number(
    (await ctx.db.raw("select count(*)::int as n from graphile_worker.jobs where task_identifier = 'mail.send'"))
      .rows[0].n,
  );

describe("malformed percent-escapes", () => {
  it("are 400s with a clear message, in paths and queries, for the API and pages alike", async () => {
    for (const url of [
      "/api/properties/%ff",
      "/%",
      "/client-report/%ff",
      "/api/properties?q=%E0%A4%A",
      "/admin/%zz",
      "/assets/%ff.js",
    ]) {
      const res = await ctx.agent().get(url);
      expect(res.status, url).toBe(400);
      if (url.startsWith("/api/")) expect(res.body).toEqual({ message: MALFORMED_URL_MESSAGE });
      else expect(res.text, url).toContain(MALFORMED_URL_MESSAGE);
    }
    // Well-formed escapes still work.
    await ctx.agent().get("/pricing?utm=%20ok").expect(200);
  });
});

describe("login limits", () => {
  it("count each guess before checking it: 100 parallel wrong passwords get at most the limit evaluated, then even the right one waits for the window", async () => {
    const { email, password } = await signInStaff(ctx);
    const guesses = await Promise.all(
      Array.from({ length: 100 }, () =>
        ctx.agent().post("/api/auth/login").send({ email, password: "wrong password!" }),
      ),
    );
    const statuses = guesses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.perEmailAndAddress);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(100 - LOGIN_LIMITS.perEmailAndAddress);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);

    const right = await ctx.agent().post("/api/auth/login").send({ email, password }).expect(429);
    expect(right.body.message).toBe(TOO_MANY_LOGINS_MESSAGE);
    // The form route shares the counter.
    const form = await ctx.agent().post("/login").type("form").send({ email, password }).expect(429);
    expect(form.text).toContain(TOO_MANY_LOGINS_MESSAGE);

    // When the window has passed, the right password works again.
    await ctx.db("login_attempts").update({ window_started_at: ctx.db.raw("now() - interval '16 minutes'") });
    await ctx.agent().post("/api/auth/login").send({ email, password }).expect(200);
  });

  it("ignore a spoofed X-Forwarded-For when no proxy is trusted (the default)", async () => {
    const { email, password } = await signInStaff(ctx);
    for (let i = 0; i < LOGIN_LIMITS.perEmailAndAddress; i++) {
      await ctx
        .agent()
        .post("/api/auth/login")
        .set("X-Forwarded-For", `203.0.113.${i}`)
        .send({ email, password: "nope nope nope" })
        .expect(401);
    }
    await ctx
      .agent()
      .post("/api/auth/login")
      .set("X-Forwarded-For", "198.51.100.7")
      .send({ email, password })
      .expect(429);
    const addresses = await ctx.db("login_attempts").where("key", "like", "ip:%").pluck("key");
    expect(addresses.some((k: string) => k.includes("203.0.113."))).toBe(false);
  });
});

describe("revocable staff sessions", () => {
  const cookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers["set-cookie"]).split(";")[0]!;

  it("a cookie copied before logout no longer works after it", async () => {
    const { agent, email, password } = await signInStaff(ctx);
    const login = await ctx.agent().post("/api/auth/login").send({ email, password }).expect(200);
    const copied = cookieOf(login);
    await supertest(ctx.app).get("/api/auth/user").set("Cookie", copied).expect(200);
    await supertest(ctx.app)
      .post("/api/auth/logout")
      .set("Cookie", copied)
      .set("Sec-Fetch-Site", "same-origin")
      .expect(200);
    await supertest(ctx.app).get("/api/auth/user").set("Cookie", copied).expect(401);
    await supertest(ctx.app).get("/admin").set("Cookie", copied).expect(302);
    // Another session of the same user is untouched.
    await agent.get("/api/auth/user").expect(200);
  });

  it("a deleted user's cookie reads nothing, and a disabled user's sessions end at once", async () => {
    const deleted = await signInStaff(ctx);
    await deleted.agent.get("/api/properties").expect(200);
    await ctx.container.users.delete(deleted.user.id);
    await deleted.agent.get("/api/auth/user").expect(401);
    expect((await deleted.agent.get("/api/properties").expect(200)).body).toEqual([]);

    const disabled = await signInStaff(ctx);
    await ctx.container.users.disable(disabled.email);
    await disabled.agent.get("/api/auth/user").expect(401);
    await ctx.agent().post("/api/auth/login").send({ email: disabled.email, password: disabled.password }).expect(401);
    expect(
      await ctx
        .db("staff_sessions")
        .where({ staff_user_id: disabled.user.id })
        .whereNull("revoked_at")
        .count({ n: "*" }),
    ).toEqual([{ n: 0 }]);
  });

  it("stores only a hash of the session id", async () => {
    const { agent } = await signInStaff(ctx);
    const rows = await ctx.db("staff_sessions").select("token_hash");
    expect(rows.every((r: { token_hash: string }) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
    await agent.get("/api/auth/user").expect(200);
  });
});

describe("idempotent bookings", () => {
  const wizard = () => ({
    propertyAddress: "77 Maple Crescent, Ottawa, ON K1A 0B1",
    propertyType: "single-family",
    propertySize: "1800",
    yearBuilt: "1990",
    firstName: "Léa",
    lastName: "Tremblay",
    email: "lea@example.com",
    phone: "613-555-0100",
    scheduledDate: ctx.container.bookings.calendar().minDate,
    timeSlot: "10:00 AM",
    accessMethod: "meet-inspector",
    accessCode: "",
    accessInstructions: "",
    specialRequests: "",
  });

  it("50 identical concurrent wizard submissions from one browser create one customer, property, booking and e-mail", async () => {
    const before = {
      customers: await count("customers"),
      bookings: await count("inspection_bookings"),
      mail: await mailJobs(),
    };
    const agent = ctx.agent();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => agent.post("/api/inspection-bookings").send(wizard())),
    );
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(1);
    expect(await count("customers")).toBe(before.customers + 1);
    expect(await count("inspection_bookings")).toBe(before.bookings + 1);
    expect(await mailJobs()).toBe(before.mail + 1);
  });

  it("an Idempotency-Key from the browser replays its booking, and refuses a different submission under the same key", async () => {
    const agent = ctx.agent();
    const body = { ...wizard(), email: "key@example.com" };
    const first = await agent.post("/api/inspection-bookings").set("Idempotency-Key", "k-123").send(body).expect(201);
    const before = await count("inspection_bookings");
    const again = await agent.post("/api/inspection-bookings").set("Idempotency-Key", "k-123").send(body).expect(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await count("inspection_bookings")).toBe(before);
    const other = await agent
      .post("/api/inspection-bookings")
      .set("Idempotency-Key", "k-123")
      .send({ ...body, timeSlot: "11:00 AM" })
      .expect(409);
    expect(other.body.message).toMatch(/Idempotency-Key/);
  });

  it("a booking the server refused is not remembered: the same submission can succeed once it is allowed", async () => {
    const owner = ctx.agent();
    const { body: booked } = await owner
      .post("/api/inspection-bookings")
      .send({ ...wizard(), email: "owner2@example.com" })
      .expect(201);
    const payload = {
      propertyId: booked.propertyId,
      scheduledDate: ctx.container.bookings.calendar().bookingDates[0],
      timeSlot: "morning",
    };
    await ctx.agent().post("/api/inspection-bookings").send(payload).expect(404);
    const { agent: staff } = await signInStaff(ctx);
    await staff.post("/api/inspection-bookings").send(payload).expect(201);
  });
});

describe("CSRF", () => {
  it("refuses unsafe cookie-authenticated requests with no Origin, Origin null, or another scheme", async () => {
    const { agent } = await signInStaff(ctx);
    const cookie = String((await agent.get("/api/auth/user")).request.cookies);
    const bare = () => supertest(ctx.app).post("/api/auth/logout").set("Cookie", cookie);
    expect((await bare().expect(403)).body).toEqual({ message: CROSS_SITE_MESSAGE });
    await bare().set("Origin", "null").expect(403);
    const host = "127.0.0.1:3999";
    await bare().set("Host", host).set("Origin", `https://${host}`).expect(403);
    await bare().set("Host", host).set("Sec-Fetch-Site", "same-site").expect(403);
    await agent.get("/api/auth/user").expect(200);
    await bare().set("Host", host).set("Origin", `http://${host}`).expect(200);
  });

  it("lets a request without a cookie through without Origin (it authenticates nothing)", async () => {
    await supertest(ctx.app).post("/api/auth/login").send({ email: "x@example.com", password: "y" }).expect(401);
  });
});

describe("headers", () => {
  it("no HSTS over plain HTTP outside production; no-store on staff and customer data", async () => {
    const home = await ctx.agent().get("/").expect(200);
    expect(home.headers["strict-transport-security"]).toBeUndefined();
    const { agent } = await signInStaff(ctx);
    for (const url of ["/api/auth/user", "/api/properties", "/api/inspection-bookings"]) {
      expect((await agent.get(url)).headers["cache-control"], url).toBe("no-store");
    }
    expect((await agent.get("/admin")).headers["cache-control"]).toBe("no-store");
    expect((await ctx.agent().get("/api/plans")).headers["cache-control"]).toBe("no-store");
  });

  it("production sends HSTS and never seeds the public demo admin", async () => {
    const prod = await createTestContext({
      NODE_ENV: "production",
      SESSION_SECRET: "p".repeat(40),
      PUBLIC_URL: "https://haven.example",
      PAYMENTS_MODE: "demo",
      MAIL_MODE: "outbox",
    });
    try {
      expect((await prod.agent().get("/").expect(200)).headers["strict-transport-security"]).toMatch(/max-age=/);
      const result = await seedAll(prod.container);
      expect(result.demoUserCreated).toBe(false);
      expect(await prod.db("staff_users").count({ n: "*" })).toEqual([{ n: 0 }]);
    } finally {
      await prod.close();
    }
  });
});
