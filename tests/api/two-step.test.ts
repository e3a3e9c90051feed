// Two-step sign-in with an authenticator app (docs/decisions.md#38): adding one, login asking for its code (a
// code works once), removing it, and the owner's requirement.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stepOf, totpAt } from "../../src/modules/auth/totp.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
const password = "a long enough password";

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function signIn(email: string) {
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return agent;
}
const secretOf = async (email: string) => (await ctx.db("staff_users").where({ email }).first()).totp_secret as string;
/** The code of the step after the last one used (a code works once; tests need no sleeps). */
const codeAt = (secret: string, offset: number) => totpAt(secret, stepOf(new Date()) + offset);

describe("an authenticator app", () => {
  it("is added with a confirmed code; login then asks for the code, which works once; removing needs a code", async () => {
    const email = "totp@haven.test";
    await ctx.container.users.create({ email, password, firstName: "T", lastName: "O", role: "inspector" });
    const agent = await signIn(email);
    await agent.post("/admin/account/two-step/start").type("form").send({}).expect(303);
    const page = await agent.get("/admin/account/two-step").expect(200);
    const secret = await secretOf(email);
    expect(page.text).toContain(secret);
    expect(page.text).toContain("otpauth://totp/");
    // Not in force before it is confirmed.
    await signIn(email);
    const wrong = await agent.post("/admin/account/two-step/confirm").type("form").send({ code: "000000" });
    expect(wrong.status).toBe(400);
    await agent
      .post("/admin/account/two-step/confirm")
      .type("form")
      .send({ code: codeAt(secret, -1) })
      .expect(303);

    const withoutCode = await ctx.agent().post("/api/auth/login").send({ email, password }).expect(401);
    expect(withoutCode.body).toMatchObject({ twoStepRequired: true });
    await ctx.agent().post("/api/auth/login").send({ email, password, code: "123456" }).expect(401);
    // A wrong password with a right code is the generic failure.
    const code = codeAt(secret, 0);
    await ctx.agent().post("/api/auth/login").send({ email, password: "wrong password!", code }).expect(401);
    const ok = await ctx.agent().post("/api/auth/login").send({ email, password, code }).expect(200);
    expect(ok.body.email).toBe(email);
    // The same code again is refused (replay).
    await ctx.agent().post("/api/auth/login").send({ email, password, code }).expect(401);

    // The login page asks for the code after the password.
    const form = await ctx.agent().post("/login").type("form").send({ email, password, next: "/admin" }).expect(401);
    expect(form.text).toContain("Code from your authenticator app");
    const viaForm = await ctx
      .agent()
      .post("/login")
      .type("form")
      .send({ email, password, code: codeAt(secret, 1), next: "/admin/my-day" })
      .expect(303);
    expect(viaForm.headers.location).toBe("/admin/my-day");

    await agent.post("/admin/account/two-step/remove").type("form").send({ code: "999999" }).expect(400);
    await ctx.db("staff_users").where({ email }).update({ totp_last_step: null });
    await agent
      .post("/admin/account/two-step/remove")
      .type("form")
      .send({ code: codeAt(secret, 0) })
      .expect(303);
    await signIn(email);
  });
});

describe("the owner's requirement", () => {
  const eventsOfSetting = () =>
    ctx.db("audit_events").where({ record_type: "staff_setting", record_id: "require_two_step" }).select("id");

  it("sends staff without an app to add one (pages redirect, calls 403); only owners may set it", async () => {
    await ctx.container.users.create({
      email: "boss@haven.test",
      password,
      firstName: "B",
      lastName: "O",
      role: "owner",
    });
    await ctx.container.users.create({
      email: "desk@haven.test",
      password,
      firstName: "D",
      lastName: "E",
      role: "office",
    });
    const office = await signIn("desk@haven.test");
    expect((await office.post("/admin/staff/two-step").type("form").send({ required: "true" })).status).toBe(403);
    const owner = await signIn("boss@haven.test");

    // Not before the owner has a second step of their own: it would hold them at the two-step page too.
    const staffPage = await owner.get("/admin/staff").expect(200);
    expect(staffPage.text).toContain('data-testid="staff-two-step-first"');
    expect(staffPage.text).toContain('href="/admin/account/two-step"');
    expect(staffPage.text).toMatch(/disabled aria-describedby="staff-two-step-first">Require it for everyone/);
    const refused = await owner.post("/admin/staff/two-step").type("form").send({ required: "true" }).expect(409);
    expect(refused.text).toContain("Add your own authenticator app or passkey first");
    expect(await ctx.container.twoStep.required()).toBe(false);
    expect(await eventsOfSetting()).toHaveLength(0);
    await owner.get("/admin/staff").expect(200);

    await owner.post("/admin/account/two-step/start").type("form").send({});
    const ownerSecret = await secretOf("boss@haven.test");
    await owner
      .post("/admin/account/two-step/confirm")
      .type("form")
      .send({ code: codeAt(ownerSecret, 0) })
      .expect(303);
    expect((await owner.get("/admin/staff").expect(200)).text).not.toContain("staff-two-step-first");
    await owner.post("/admin/staff/two-step").type("form").send({ required: "true" }).expect(303);
    expect(await ctx.container.twoStep.required()).toBe(true);
    expect(await eventsOfSetting()).toHaveLength(1);
    // The owner, who has an app, is not held.
    await owner.get("/admin/staff").expect(200);

    const page = await office.get("/admin/my-day").expect(303);
    expect(page.headers.location).toBe("/admin/account/two-step");
    const call = await office.get("/api/inspections").expect(403);
    expect(call.body.message).toContain("two-step");
    await office.get("/api/auth/user").expect(200);
    const setUp = await office.get("/admin/account/two-step").expect(200);
    expect(setUp.text).toContain("An owner requires two-step sign-in");
    // The owner's switch is not the office's: neither shown nor let through.
    expect(setUp.text).not.toContain("two-step-owner-switch");
    await office.post("/admin/staff/two-step").type("form").send({ required: "false" }).expect(403);
    expect(await ctx.container.twoStep.required()).toBe(true);

    await office.post("/admin/account/two-step/start").type("form").send({}).expect(303);
    const secret = await secretOf("desk@haven.test");
    await office
      .post("/admin/account/two-step/confirm")
      .type("form")
      .send({ code: codeAt(secret, 0) })
      .expect(303);
    await office.get("/admin/my-day").expect(200);

    // An owner who is held all the same (their app removed while it is required) still reaches the off switch.
    await owner
      .post("/admin/account/two-step/remove")
      .type("form")
      .send({ code: codeAt(ownerSecret, 1) })
      .expect(303);
    expect((await owner.get("/admin/staff").expect(303)).headers.location).toBe("/admin/account/two-step");
    const held = await owner.get("/admin/account/two-step").expect(200);
    expect(held.text).toContain('data-testid="two-step-owner-switch"');
    expect(held.text).toMatch(/name="required" value="false"/);
    // Turning it on again stays refused; off goes through the gate.
    await owner.post("/admin/staff/two-step").type("form").send({ required: "true" }).expect(409);
    const off = await owner.post("/admin/staff/two-step").type("form").send({ required: "false" }).expect(303);
    expect(off.headers.location).toBe("/admin/staff?done=two-step");
    expect(await ctx.container.twoStep.required()).toBe(false);
    expect(await eventsOfSetting()).toHaveLength(2);
    await owner.get("/admin/staff").expect(200);
  });
});
