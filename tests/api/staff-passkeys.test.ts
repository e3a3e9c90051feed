// Staff passkeys as the second step of sign-in (docs/decisions.md#38), with a software authenticator so the
// WebAuthn checks run for real: adding one, login asking for it after the password (an assertion answers a
// challenge issued to that person, once), removing it, and the owner's requirement met by a passkey alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/shared/one-time-links.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { SoftAuthenticator } from "../support/soft-authenticator.js";

let ctx: TestContext;
const password = "a long enough password";

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function staff(email: string, role: "owner" | "office" | "inspector") {
  await ctx.container.users.create({ email, password, firstName: "Pat", lastName: "Key", role });
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return agent;
}
type Agent = Awaited<ReturnType<typeof staff>>;

async function addPasskey(agent: Agent, key: SoftAuthenticator, name = "Work phone") {
  const options = (await agent.post("/api/auth/passkeys/options").send({}).expect(200)).body;
  return agent.post("/api/auth/passkeys").send({ response: key.register(options), name });
}

describe("a staff passkey", () => {
  it("is added by its owner; login then asks for it after the password, and an assertion works once", async () => {
    const email = "keys@haven.test";
    const agent = await staff(email, "inspector");
    const key = new SoftAuthenticator(new URL(ctx.env.PUBLIC_URL!).origin);
    const options = (await agent.post("/api/auth/passkeys/options").send({}).expect(200)).body;
    expect(options.rp.id).toBe(new URL(ctx.env.PUBLIC_URL!).hostname);
    expect(options.user.name).toBe(email);
    // Only the challenge's hash is kept.
    expect(
      await ctx
        .db("staff_webauthn_challenges")
        .where({ challenge_hash: hashToken(options.challenge) })
        .first(),
    ).toBeTruthy();
    const added = await agent
      .post("/api/auth/passkeys")
      .send({ response: key.register(options), name: "Work phone" })
      .expect(201);
    expect(added.body).toEqual({
      id: expect.any(Number),
      name: "Work phone",
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    // The same challenge, or the same passkey again, is refused.
    await agent
      .post("/api/auth/passkeys")
      .send({ response: key.register(options) })
      .expect(400);
    expect((await addPasskey(agent, key)).status).toBe(400);
    expect((await agent.get("/api/auth/passkeys").expect(200)).body).toHaveLength(1);

    // Login: the right password alone is a 401 carrying the passkey's options.
    const ask = await ctx.agent().post("/api/auth/login").send({ email, password }).expect(401);
    expect(ask.body).toMatchObject({ twoStepRequired: true, message: "Confirm with your passkey" });
    expect(ask.body.passkeyOptions.allowCredentials).toEqual([
      expect.objectContaining({ id: key.credentialId.toString("base64url") }),
    ]);
    const assertion = key.assert(ask.body.passkeyOptions);
    // A wrong password with a right passkey is the generic failure, and spends nothing.
    await ctx
      .agent()
      .post("/api/auth/login")
      .send({ email, password: "wrong password!", passkey: assertion })
      .expect(401);
    const ok = await ctx.agent().post("/api/auth/login").send({ email, password, passkey: assertion }).expect(200);
    expect(ok.body.email).toBe(email);
    // The same assertion again (its challenge is spent) is refused.
    const replay = await ctx.agent().post("/api/auth/login").send({ email, password, passkey: assertion }).expect(401);
    expect(replay.body.twoStepRequired).toBeUndefined();
    // An app's code is no answer for an account with a passkey alone.
    await ctx.agent().post("/api/auth/login").send({ email, password, code: "123456" }).expect(401);
    // A malformed passkey answer is a 400.
    await ctx
      .agent()
      .post("/api/auth/login")
      .send({ email, password, passkey: { id: 1 } })
      .expect(400);
    expect((await agent.get("/api/auth/passkeys").expect(200)).body[0].lastUsedAt).not.toBeNull();

    // Removing it: then the password alone signs in again.
    await agent.delete("/api/auth/passkeys/abc").expect(400);
    await agent.delete(`/api/auth/passkeys/${added.body.id}`).expect(204);
    await agent.delete(`/api/auth/passkeys/${added.body.id}`).expect(404);
    await ctx.agent().post("/api/auth/login").send({ email, password }).expect(200);
  });

  it("answers only its owner's login: another person's passkey, or a challenge issued to someone else, is refused", async () => {
    const origin = new URL(ctx.env.PUBLIC_URL!).origin;
    const mine = new SoftAuthenticator(origin);
    const theirs = new SoftAuthenticator(origin);
    const me = await staff("me@haven.test", "office");
    const them = await staff("them@haven.test", "office");
    await addPasskey(me, mine).then((r) => expect(r.status).toBe(201));
    await addPasskey(them, theirs).then((r) => expect(r.status).toBe(201));
    // Nobody lists or removes another's passkeys.
    const theirId = (await them.get("/api/auth/passkeys").expect(200)).body[0].id;
    expect((await me.get("/api/auth/passkeys").expect(200)).body).toHaveLength(1);
    await me.delete(`/api/auth/passkeys/${theirId}`).expect(404);

    const myAsk = (await ctx.agent().post("/api/auth/login").send({ email: "me@haven.test", password }).expect(401))
      .body;
    const theirAsk = (
      await ctx.agent().post("/api/auth/login").send({ email: "them@haven.test", password }).expect(401)
    ).body;
    // Their passkey on my challenge, and my passkey on their challenge: both refused.
    const wrongKey = theirs.assert(myAsk.passkeyOptions);
    await ctx.agent().post("/api/auth/login").send({ email: "me@haven.test", password, passkey: wrongKey }).expect(401);
    const wrongChallenge = mine.assert(theirAsk.passkeyOptions);
    await ctx
      .agent()
      .post("/api/auth/login")
      .send({ email: "me@haven.test", password, passkey: wrongChallenge })
      .expect(401);
    await ctx
      .agent()
      .post("/api/auth/login")
      .send({ email: "me@haven.test", password, passkey: mine.assert(myAsk.passkeyOptions) })
      .expect(200);
  });

  it("meets the owner's requirement: staff held back by it may add a passkey, and are then let through", async () => {
    const owner = await staff("chief@haven.test", "owner");
    const desk = await staff("front@haven.test", "office");
    // The owner's own second step first: without one the requirement is refused (409), as it would hold them too.
    await owner.post("/admin/staff/two-step").type("form").send({ required: "true" }).expect(409);
    const ownerKey = new SoftAuthenticator(new URL(ctx.env.PUBLIC_URL!).origin);
    expect((await addPasskey(owner, ownerKey)).status).toBe(201);
    await owner.post("/admin/staff/two-step").type("form").send({ required: "true" }).expect(303);
    const held = await desk.get("/api/inspections").expect(403);
    expect(held.body.message).toBe("An owner requires two-step sign-in: add an authenticator app or a passkey first.");
    const key = new SoftAuthenticator(new URL(ctx.env.PUBLIC_URL!).origin);
    expect((await addPasskey(desk, key)).status).toBe(201);
    await desk.get("/api/inspections").expect(200);
    await desk.get("/admin/my-day").expect(200);
    await owner.post("/admin/staff/two-step").type("form").send({}).expect(303);
  });

  it("refuses a forged registration with a clear 400, writing nothing; passkey calls need a staff session", async () => {
    const agent = await staff("forger@haven.test", "office");
    const passkeys = async () => Number((await ctx.db("staff_passkeys").count({ n: "*" }))[0]!.n);
    const before = await passkeys();
    const fake = {
      id: "abc",
      rawId: "abc",
      type: "public-key",
      response: { clientDataJSON: "e30", attestationObject: "oA" },
      clientExtensionResults: {},
    };
    const res = await agent.post("/api/auth/passkeys").send({ response: fake, name: "Phone" }).expect(400);
    expect(res.body.fields).toHaveProperty("response");
    await agent
      .post("/api/auth/passkeys")
      .send({ response: { id: 1 } })
      .expect(400);
    expect(await passkeys()).toBe(before);
    await ctx.agent().get("/api/auth/passkeys").expect(401);
    await ctx.agent().post("/api/auth/passkeys/options").send({}).expect(401);
  });
});
