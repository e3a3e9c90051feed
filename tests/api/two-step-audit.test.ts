// Two-step sign-in leaves the audit trail one event per change (docs/decisions.md#38, #39): adding and removing a
// passkey, turning an authenticator app on and off, and the owner's requirement. No secret, code, credential id
// or public key reaches before/after; a refused change writes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepOf, totpAt } from "../../src/modules/auth/totp.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { SoftAuthenticator } from "../support/soft-authenticator.js";

let ctx: TestContext;
const password = "a long enough password";

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function staff(email: string, role: "owner" | "office" | "inspector") {
  const user = await ctx.container.users.create({ email, password, firstName: "Aud", lastName: "It", role });
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return { user, agent };
}

/** The record's events, but its creation (`staff_user.create`, the test's own setup). */
const eventsOf = (recordType: string, recordId: number | string) =>
  ctx
    .db("audit_events")
    .where({ record_type: recordType, record_id: String(recordId) })
    .whereNot("action", "staff_user.create")
    .orderBy("id");

/** Whatever the event holds, as text: none of these may be in it. */
function expectNoSecrets(events: { before: unknown; after: unknown }[], secrets: string[]) {
  const text = JSON.stringify(events.map((e) => [e.before, e.after]));
  for (const secret of secrets) expect(text).not.toContain(secret);
}

describe("two-step audit events", () => {
  it("adding and removing a passkey: one event each, its name and id only", async () => {
    const { user, agent } = await staff("pk-audit@haven.test", "inspector");
    const key = new SoftAuthenticator(new URL(ctx.env.PUBLIC_URL!).origin);
    const options = (await agent.post("/api/auth/passkeys/options").send({}).expect(200)).body;
    const response = key.register(options);
    const added = await agent.post("/api/auth/passkeys").send({ response, name: "Work phone" }).expect(201);
    // The same response again is refused and writes nothing.
    await agent.post("/api/auth/passkeys").send({ response, name: "Again" }).expect(400);
    let events = await eventsOf("staff_user", user.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: "staff_user.passkey_add",
      actor: `staff:${user.id}`,
      before: null,
      after: { signInKey: { id: added.body.id, name: "Work phone", addedAt: added.body.createdAt } },
    });

    await agent.delete(`/api/auth/passkeys/${added.body.id}`).expect(204);
    await agent.delete(`/api/auth/passkeys/${added.body.id}`).expect(404);
    events = await eventsOf("staff_user", user.id);
    expect(events.map((e) => e.action)).toEqual(["staff_user.passkey_add", "staff_user.passkey_remove"]);
    expect(events[1]).toMatchObject({
      before: { signInKey: { id: added.body.id, name: "Work phone" } },
      after: null,
    });
    const stored = response as { id: string; response: { publicKey?: string; attestationObject: string } };
    expectNoSecrets(events, [stored.id, stored.response.attestationObject, options.challenge]);
  });

  it("an authenticator app turned on and off: one event each; starting or a wrong code writes none", async () => {
    const { user, agent } = await staff("app-audit@haven.test", "office");
    await agent.post("/admin/account/two-step/start").type("form").send({}).expect(303);
    const secret = (await ctx.db("staff_users").where({ id: user.id }).first()).totp_secret as string;
    await agent.post("/admin/account/two-step/confirm").type("form").send({ code: "000000" }).expect(400);
    expect(await eventsOf("staff_user", user.id)).toHaveLength(0);
    const first = totpAt(secret, stepOf(new Date()));
    await agent.post("/admin/account/two-step/confirm").type("form").send({ code: first }).expect(303);
    let events = await eventsOf("staff_user", user.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: "staff_user.app_on",
      actor: `staff:${user.id}`,
      before: { authenticatorApp: "off" },
      after: { authenticatorApp: "on" },
    });
    // Removing with a wrong code is refused and writes nothing; with the next code, one event.
    await agent.post("/admin/account/two-step/remove").type("form").send({ code: "000000" }).expect(400);
    expect(await eventsOf("staff_user", user.id)).toHaveLength(1);
    const next = totpAt(secret, stepOf(new Date()) + 1);
    await agent.post("/admin/account/two-step/remove").type("form").send({ code: next }).expect(303);
    events = await eventsOf("staff_user", user.id);
    expect(events.map((e) => e.action)).toEqual(["staff_user.app_on", "staff_user.app_off"]);
    expect(events[1]).toMatchObject({ before: { authenticatorApp: "on" }, after: { authenticatorApp: "off" } });
    expectNoSecrets(events, [secret, first, next]);

    // A secret started and dropped before it was confirmed was never on: no event.
    await agent.post("/admin/account/two-step/start").type("form").send({}).expect(303);
    await agent.post("/admin/account/two-step/remove").type("form").send({}).expect(303);
    expect(await eventsOf("staff_user", user.id)).toHaveLength(2);
  });

  it("the owner's requirement: one event per change, none when it is set to what it is; others cannot set it", async () => {
    const { user: owner, agent } = await staff("owner-audit@haven.test", "owner");
    const { agent: office } = await staff("office-audit@haven.test", "office");
    // The owner has a passkey, so their own requirement does not hold them at the two-step page.
    const key = new SoftAuthenticator(new URL(ctx.env.PUBLIC_URL!).origin);
    const options = (await agent.post("/api/auth/passkeys/options").send({}).expect(200)).body;
    await agent
      .post("/api/auth/passkeys")
      .send({ response: key.register(options), name: "Owner's key" })
      .expect(201);
    const before = (await eventsOf("staff_setting", "require_two_step")).length;
    await office.post("/admin/staff/two-step").type("form").send({ required: "true" }).expect(403);
    expect(await eventsOf("staff_setting", "require_two_step")).toHaveLength(before);

    const set = async (required: string) => {
      const answer = await agent.post("/admin/staff/two-step").type("form").send({ required }).expect(303);
      expect(answer.headers.location).toBe("/admin/staff?done=two-step");
    };
    await set("true");
    await set("true");
    let events = await eventsOf("staff_setting", "require_two_step");
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({
      action: "staff_settings.require_two_step",
      actor: `staff:${owner.id}`,
      before: { required: false },
      after: { required: true },
    });
    await set("false");
    events = await eventsOf("staff_setting", "require_two_step");
    expect(events).toHaveLength(before + 2);
    expect(events.at(-1)).toMatchObject({ before: { required: true }, after: { required: false } });
  });

  it("a password set through an invitation's link: one event by that person, naming the link, no password", async () => {
    const { agent: ownerAgent } = await staff("link-owner@haven.test", "owner");
    const email = "linked@haven.test";
    const invited = await ownerAgent
      .post("/api/staff-users")
      .send({ email, firstName: "Lin", lastName: "Ked", role: "office" })
      .expect(201);
    const { rows } = await ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
    );
    const mail = rows
      .map((r: { payload: { to: string; text: string } }) => r.payload)
      .find((m: { to: string }) => m.to === email);
    const token = /\/staff\/set-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    const chosen = "a long chosen password";
    await ctx
      .agent()
      .post("/staff/set-password")
      .type("form")
      .send({ token, password: chosen, confirm: chosen })
      .expect(303);
    // The link works once: a second try is refused and writes nothing.
    await ctx.agent().post("/staff/set-password").type("form").send({ token, password: chosen, confirm: chosen });
    const events = (await eventsOf("staff_user", invited.body.id)).filter(
      (e) => e.action === "staff_user.set_password",
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: `staff:${invited.body.id}`,
      before: null,
      after: { through: "invite link" },
    });
    expectNoSecrets(events, [chosen, token]);
  });
});
