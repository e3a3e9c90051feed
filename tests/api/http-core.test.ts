import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("web core", () => {
  it("GET /healthz reports the database up", async () => {
    const res = await ctx.agent().get("/healthz").expect(200);
    expect(res.body).toEqual({ status: "ok", database: "up" });
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const res = await ctx.agent().get("/api/does-not-exist").expect(404);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.body.message).toContain("/api/does-not-exist");
  });

  it("answers unknown pages with the spec's 404 screen", async () => {
    const res = await ctx.agent().get("/no/such/page").expect(404);
    expect(res.text).toContain("404 Page Not Found");
    expect(res.text).toContain("Did you forget to add the page to the router?");
  });

  it("refuses malformed JSON with a 400 JSON error, not a 500", async () => {
    const res = await ctx
      .agent()
      .post("/api/auth/login")
      .set("Content-Type", "application/json")
      .send("{not json")
      .expect(400);
    expect(res.body).toEqual({ message: "Request body is not valid JSON" });
  });

  it("names every invalid field of a bad body", async () => {
    const res = await ctx.agent().post("/api/auth/login").send({ email: "not-an-email" }).expect(400);
    expect(res.body.message).toBe("Invalid input");
    expect(Object.keys(res.body.fields).sort()).toEqual(["email", "password"]);
  });

  it("sets security headers and a request id", async () => {
    // Not a probe: /livez, /readyz, /healthz and /metrics answer before helmet and the Host guard (src/observability).
    const res = await ctx.agent().get("/api/openapi.json");
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.headers["x-request-id"]).toBeTruthy();
  });

  it("refuses an unsafe cross-site request", async () => {
    await ctx.agent().post("/api/auth/logout").set("Origin", "https://evil.example").expect(403);
    await ctx.agent().post("/api/auth/logout").set("Sec-Fetch-Site", "cross-site").expect(403);
  });
});

describe("staff session", () => {
  it("GET /api/auth/user is 401 without a session and the user with one", async () => {
    await ctx.agent().get("/api/auth/user").expect(401);
    const { agent, user } = await signInStaff(ctx);
    const res = await agent.get("/api/auth/user").expect(200);
    expect(res.body).toMatchObject({ id: user.id, firstName: "Sam" });
    expect(res.body.passwordHash).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain("argon2");
  });

  it("one generic message for a wrong password and an unknown e-mail", async () => {
    const { email } = await signInStaff(ctx);
    const wrong = await ctx.agent().post("/api/auth/login").send({ email, password: "nope-nope-nope" }).expect(401);
    const unknown = await ctx
      .agent()
      .post("/api/auth/login")
      .send({ email: "who@haven.test", password: "nope-nope-nope" })
      .expect(401);
    expect(wrong.body).toEqual({ message: "Invalid email or password" });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("rate-limits repeated failures", async () => {
    const { email, password } = await signInStaff(ctx);
    for (let i = 0; i < 10; i++)
      await ctx.agent().post("/api/auth/login").send({ email, password: "wrong-password" }).expect(401);
    const blocked = await ctx.agent().post("/api/auth/login").send({ email, password }).expect(429);
    expect(blocked.body.message).toMatch(/Too many failed attempts/);
  });

  it("logout ends the session", async () => {
    const { agent } = await signInStaff(ctx);
    await agent.post("/api/auth/logout").expect(200);
    await agent.get("/api/auth/user").expect(401);
  });

  it("admin pages redirect to /login?next=… without a session", async () => {
    const res = await ctx.agent().get("/admin/dashboard").expect(302);
    expect(res.headers.location).toBe("/login?next=%2Fadmin%2Fdashboard");
  });

  it("GET /api/login redirects to /login", async () => {
    const res = await ctx.agent().get("/api/login").expect(302);
    expect(res.headers.location).toBe("/login");
  });

  it("the login form keeps the e-mail and explains a missing password", async () => {
    const res = await ctx
      .agent()
      .post("/login")
      .type("form")
      .send({ email: "ana@haven.test", password: "" })
      .expect(400);
    expect(res.text).toContain("Missing Information");
    expect(res.text).toContain("Please enter both email and password");
    expect(res.text).toContain('value="ana@haven.test"');
  });

  it("login never redirects off-site", async () => {
    const { email, password } = await signInStaff(ctx);
    const res = await ctx
      .agent()
      .post("/login")
      .type("form")
      .send({ email, password, next: "//evil.example" })
      .expect(303);
    expect(res.headers.location).toBe("/admin");
  });
});
