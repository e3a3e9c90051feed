// A refused htmx request answers `{ message }` (src/http/errors.ts, src/http/roles.ts), so the admin toast shows the
// server's reason (islands/site/refusal.ts) rather than a bare status; a plain page request still gets the page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
const password = "a long enough password";

async function agentFor(role: "owner" | "inspector") {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@haven.test`;
  await ctx.container.users.create({ email, password, firstName: role, lastName: "X", role });
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return agent;
}

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe("refused htmx requests", () => {
  it("a role's refusal carries its message", async () => {
    const inspector = await agentFor("inspector");
    const res = await inspector.get("/admin/subscriptions").set("HX-Request", "true").expect(403);
    expect(res.body).toEqual({ message: "Your role (inspector) cannot see subscriptions, invoices or billing." });
  });

  it("any other refusal too: JSON with the message, where a page request gets the HTML error page", async () => {
    const owner = await agentFor("owner");
    const fragment = await owner
      .post("/admin/properties/999999")
      .set("HX-Request", "true")
      .type("form")
      .send({ city: "Ottawa" })
      .expect(404);
    expect(fragment.headers["content-type"]).toMatch(/application\/json/);
    expect(typeof fragment.body.message).toBe("string");
    expect(fragment.body.message.length).toBeGreaterThan(0);
    const page = await owner.post("/admin/properties/999999").type("form").send({ city: "Ottawa" }).expect(404);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
  });
});
