// The login page's second step by passkey (docs/decisions.md#38), as the form posts it: the 401 page carries the
// options of a challenge issued to that person, and the form sent again with the password and the browser's answer
// (the `passkey` field, JSON) signs in. A field that is no passkey answer asks again, never a 400 or 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../support/context.js";
import { SoftAuthenticator } from "../support/soft-authenticator.js";

let ctx: TestContext;
const password = "a long enough password";
const email = "page-key@haven.test";
let key: SoftAuthenticator;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.users.create({ email, password, firstName: "Page", lastName: "Key", role: "office" });
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  key = new SoftAuthenticator(new URL(ctx.env.PUBLIC_URL!).origin);
  const options = (await agent.post("/api/auth/passkeys/options").send({}).expect(200)).body;
  await agent
    .post("/api/auth/passkeys")
    .send({ response: key.register(options), name: "Desk" })
    .expect(201);
});
afterAll(() => ctx.close());

/** The options the 401 page hands its script (data-options, HTML-escaped JSON). */
function optionsIn(html: string) {
  const found = /data-options="([^"]*)"/.exec(html);
  expect(found).not.toBeNull();
  const text = found![1]!.replaceAll("&#34;", '"').replaceAll("&quot;", '"').replaceAll("&amp;", "&");
  return JSON.parse(text) as { challenge: string; rpId: string };
}

const post = (agent: ReturnType<TestContext["agent"]>, fields: Record<string, string>) =>
  agent
    .post("/login")
    .type("form")
    .send({ email, password, next: "/admin", ...fields });

describe("the login page with a passkey", () => {
  it("offers the passkey after a right password, and the form sent again with its answer signs in", async () => {
    const agent = ctx.agent();
    const ask = await post(agent, {}).expect(401);
    expect(ask.text).toContain("Use your passkey");
    expect(ask.text).toContain("Enter your password again, then use your passkey.");
    // No app: no code field.
    expect(ask.text).not.toContain('name="code"');
    const assertion = key.assert(optionsIn(ask.text));
    const signedIn = await post(agent, { passkey: JSON.stringify(assertion) }).expect(303);
    expect(signedIn.headers.location).toBe("/admin");
    await agent.get("/api/auth/user").expect(200);
    // The same answer again (its challenge is spent) is refused.
    const replay = await post(ctx.agent(), { passkey: JSON.stringify(assertion) }).expect(401);
    expect(replay.text).toContain("That passkey did not confirm it is you");
  });

  it("a field that is no passkey answer asks for the second step again", async () => {
    for (const passkey of ["not json", JSON.stringify({ id: 1 }), JSON.stringify([1, 2])]) {
      const again = await post(ctx.agent(), { passkey }).expect(401);
      expect(again.text).toContain("Use your passkey");
    }
  });
});
