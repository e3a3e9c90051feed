// Staff accounts (docs/decisions.md#38): invitations with a 48-hour link, roles, deactivation that ends
// sessions at once, reset links limited like logins, the last owner protected, owners only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StaffAccountsRepository } from "../../src/modules/auth/staff-accounts.repository.js";
import { LAST_OWNER_MESSAGE, StaffAccountsService } from "../../src/modules/auth/staff-accounts.service.js";
import { passwordHashing } from "../../src/modules/auth/passwords.js";
import { LoginAttemptsRepository } from "../../src/modules/auth/login-attempts.repository.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let owner: Awaited<ReturnType<typeof signInStaff>>;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signInStaff(ctx);
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await ctx.db("login_attempts").delete();
});

interface QueuedMail {
  template?: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}
async function mailTo(to: string): Promise<QueuedMail[]> {
  const { rows } = await ctx.db.raw(
    "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
  );
  return rows.map((r: { payload: QueuedMail }) => r.payload).filter((m: QueuedMail) => m.to === to);
}
const tokenIn = (mail: QueuedMail) => /\/staff\/set-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];

let seq = 0;
const newEmail = () => `person-${++seq}-${Date.now()}@haven.test`;

async function invite(role = "inspector", email = newEmail()) {
  const res = await owner.agent
    .post("/api/staff-users")
    .send({ email, firstName: "Ines", lastName: "Pector", role })
    .expect(201);
  const mails = await mailTo(email);
  expect(mails).toHaveLength(1);
  return { account: res.body, email, token: tokenIn(mails[0]!)! };
}

function setPassword(token: string, password = "a long new password") {
  return ctx.agent().post("/staff/set-password").type("form").send({ token, password, confirm: password });
}

async function staffWithRole(role: "office" | "inspector" | "owner") {
  const { email, token } = await invite(role);
  await setPassword(token).expect(303);
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password: "a long new password" }).expect(200);
  return { agent, email, id: (await ctx.db("staff_users").where({ email }).first("id")).id as number };
}

describe("invitations", () => {
  it("invite → set password → sign in; the account shows its last sign-in", async () => {
    const { account, email, token } = await invite("office");
    expect(account).toMatchObject({ email, role: "office", status: "invited", lastSignInAt: null });
    const [mail] = await mailTo(email);
    expect(mail).toMatchObject({ template: "staff-invite", subject: "You are invited to Haven's staff portal" });
    expect(mail!.text).toContain("48 hours");
    // Only the token's hash is stored.
    const stored = await ctx.db("staff_account_links").where({ staff_user_id: account.id }).first();
    expect(stored.token_hash).not.toContain(token);

    // An invited account cannot sign in before it has a password.
    await ctx.agent().post("/api/auth/login").send({ email, password: "!" }).expect(401);

    const page = await ctx.agent().get(`/staff/set-password?token=${token}`).expect(200);
    expect(page.text).toContain(email);
    // Opening the page spends nothing.
    await ctx.agent().get(`/staff/set-password?token=${token}`).expect(200);

    const mismatch = await ctx
      .agent()
      .post("/staff/set-password")
      .type("form")
      .send({ token, password: "a long new password", confirm: "something else" })
      .expect(400);
    expect(mismatch.text).toContain("The passwords do not match");

    const done = await setPassword(token).expect(303);
    expect(done.headers.location).toBe("/login?next=%2Fadmin");

    const staff = ctx.agent();
    const signedIn = await staff.post("/api/auth/login").send({ email, password: "a long new password" }).expect(200);
    expect(signedIn.body).toMatchObject({ email, role: "office" });

    const list = await owner.agent.get("/api/staff-users").expect(200);
    const row = list.body.find((a: { email: string }) => a.email === email);
    expect(row.status).toBe("active");
    expect(row.lastSignInAt).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain("password");
  });

  it("a used link says so plainly and sets nothing", async () => {
    const { token } = await invite();
    await setPassword(token).expect(303);
    const again = await ctx.agent().get(`/staff/set-password?token=${token}`).expect(410);
    expect(again.text).toContain("This link has already been used or has expired");
    await setPassword(token, "another long password").expect(410);
    await ctx.agent().get("/staff/set-password?token=not-a-token").expect(410);
  });

  it("the link works for 48 hours (an injected clock)", async () => {
    let now = new Date("2026-12-01T12:00:00Z");
    const accounts = new StaffAccountsService({
      repo: new StaffAccountsRepository(ctx.db),
      transaction: ctx.container.transaction,
      mail: ctx.container.mail,
      attempts: new LoginAttemptsRepository(ctx.db),
      settings: { publicUrl: "https://haven.test", clock: () => now },
      audit: ctx.container.audit,
      passwords: passwordHashing("test"),
    });
    const email = newEmail();
    await accounts.invite(owner.user, { email, firstName: "Tim", lastName: "Ing", role: "inspector" });
    const token = tokenIn((await mailTo(email))[0]!)!;
    now = new Date("2026-12-03T11:59:00Z");
    expect(await accounts.openLink(token)).toEqual({ purpose: "invite", email });
    now = new Date("2026-12-03T12:00:00Z");
    expect(await accounts.openLink(token)).toBeNull();
    await expect(
      accounts.setPassword({ token, password: "a long new password", confirm: "a long new password" }),
    ).rejects.toMatchObject({ status: 410 });
    expect((await ctx.db("staff_users").where({ email }).first()).password_hash).toBe("!");
  });

  it("a refused invite is a 400 or 409 that writes nothing", async () => {
    const before = await ctx.db("staff_users").count("* as n").first();
    const bad = await owner.agent
      .post("/api/staff-users")
      .send({ email: "not-an-email", firstName: "", lastName: "X", role: "boss" })
      .expect(400);
    expect(Object.keys(bad.body.fields ?? bad.body.errors ?? {})).toEqual(
      expect.arrayContaining(["email", "firstName", "role"]),
    );
    await owner.agent
      .post("/api/staff-users")
      .send({ email: owner.email.toUpperCase(), firstName: "A", lastName: "B", role: "office" })
      .expect(409);
    expect(await ctx.db("staff_users").count("* as n").first()).toEqual(before);
  });
});

describe("roles and deactivation", () => {
  it("changes a role", async () => {
    const { id } = await staffWithRole("inspector");
    const res = await owner.agent.patch(`/api/staff-users/${id}`).send({ role: "office" }).expect(200);
    expect(res.body.role).toBe("office");
    await owner.agent.patch(`/api/staff-users/${id}`).send({ role: "admin" }).expect(400);
    await owner.agent.patch(`/api/staff-users/${id}`).send({}).expect(400);
    await owner.agent.patch("/api/staff-users/999999").send({ role: "office" }).expect(404);
  });

  it("deactivating ends a live session at once; sign-in is refused; reactivation lets them back", async () => {
    const staff = await staffWithRole("inspector");
    await staff.agent.get("/api/auth/user").expect(200);
    const res = await owner.agent.patch(`/api/staff-users/${staff.id}`).send({ active: false }).expect(200);
    expect(res.body.status).toBe("deactivated");
    await staff.agent.get("/api/auth/user").expect(401);
    const page = await staff.agent.get("/admin/my-day");
    expect(page.status).toBe(302);
    expect(page.headers.location).toMatch(/^\/login/);
    await ctx.agent().post("/api/auth/login").send({ email: staff.email, password: "a long new password" }).expect(401);
    // No link can be sent to a deactivated account.
    await owner.agent.post(`/api/staff-users/${staff.id}/reset-link`).expect(409);

    await owner.agent.patch(`/api/staff-users/${staff.id}`).send({ active: true }).expect(200);
    await ctx.agent().post("/api/auth/login").send({ email: staff.email, password: "a long new password" }).expect(200);
  });

  it("the last owner cannot be demoted or deactivated (409); with a second owner they can", async () => {
    const ownerIds = await ctx.db("staff_users").where({ role: "owner" }).whereNull("disabled_at").pluck("id");
    expect(ownerIds).toEqual([owner.user.id]);
    const demote = await owner.agent.patch(`/api/staff-users/${owner.user.id}`).send({ role: "office" }).expect(409);
    expect(demote.body.message).toBe(LAST_OWNER_MESSAGE);
    await owner.agent.patch(`/api/staff-users/${owner.user.id}`).send({ active: false }).expect(409);
    expect((await ctx.db("staff_users").where({ id: owner.user.id }).first()).role).toBe("owner");

    const second = await staffWithRole("owner");
    await second.agent.patch(`/api/staff-users/${second.id}`).send({ role: "office" }).expect(200);
    // Back to one owner: the second (now office) is refused, the first still cannot leave.
    await second.agent.get("/api/staff-users").expect(403);
    await owner.agent.patch(`/api/staff-users/${owner.user.id}`).send({ active: false }).expect(409);
  });
});

describe("reset links", () => {
  it("sends a reset link; the new password works and the old one's sessions end", async () => {
    const staff = await staffWithRole("office");
    await owner.agent.post(`/api/staff-users/${staff.id}/reset-link`).expect(202);
    const mails = await mailTo(staff.email);
    const reset = mails.at(-1)!;
    expect(reset).toMatchObject({ template: "staff-password-reset", subject: "Choose a new Haven password" });
    await setPassword(tokenIn(reset)!, "the second long password").expect(303);
    await staff.agent.get("/api/auth/user").expect(401);
    await ctx.agent().post("/api/auth/login").send({ email: staff.email, password: "a long new password" }).expect(401);
    await ctx
      .agent()
      .post("/api/auth/login")
      .send({ email: staff.email, password: "the second long password" })
      .expect(200);
  });

  it("a newer link replaces the older one", async () => {
    const staff = await staffWithRole("office");
    await owner.agent.post(`/api/staff-users/${staff.id}/reset-link`).expect(202);
    await owner.agent.post(`/api/staff-users/${staff.id}/reset-link`).expect(202);
    const [older, newer] = (await mailTo(staff.email)).slice(-2).map((m) => tokenIn(m)!);
    await ctx.agent().get(`/staff/set-password?token=${older}`).expect(410);
    await ctx.agent().get(`/staff/set-password?token=${newer}`).expect(200);
  });

  it("reset requests are limited like logins: past five an account waits (429, Retry-After)", async () => {
    const staff = await staffWithRole("inspector");
    const before = (await mailTo(staff.email)).length;
    for (let i = 0; i < 5; i++) await owner.agent.post(`/api/staff-users/${staff.id}/reset-link`).expect(202);
    const refused = await owner.agent.post(`/api/staff-users/${staff.id}/reset-link`).expect(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await mailTo(staff.email)).length).toBe(before + 5);
  });
});

describe("owners only", () => {
  it("office and inspector get 403 on every call and on the page; signed out is 401", async () => {
    for (const role of ["office", "inspector"] as const) {
      const { agent, id } = await staffWithRole(role);
      await agent.get("/api/staff-users").expect(403);
      await agent
        .post("/api/staff-users")
        .send({ email: newEmail(), firstName: "A", lastName: "B", role: "owner" })
        .expect(403);
      await agent.patch(`/api/staff-users/${id}`).send({ role: "owner" }).expect(403);
      await agent.post(`/api/staff-users/${owner.user.id}/reset-link`).expect(403);
      expect((await agent.get("/admin/staff")).status).toBe(403);
      expect((await agent.post(`/admin/staff/${id}/role`).type("form").send({ role: "owner" })).status).toBe(403);
      expect((await ctx.db("staff_users").where({ id }).first()).role).toBe(role);
    }
    await ctx.agent().get("/api/staff-users").expect(401);
  });
});

describe("/admin/staff", () => {
  it("lists the accounts and invites through the plain form (303) and htmx (the panel)", async () => {
    const page = await owner.agent.get("/admin/staff").expect(200);
    expect(page.text).toContain(owner.email);
    expect(page.text).toContain('data-testid="staff-invite"');

    const email = newEmail();
    const plain = await owner.agent
      .post("/admin/staff/invite")
      .type("form")
      .send({ email, firstName: "Form", lastName: "Person", role: "office" })
      .expect(303);
    expect(plain.headers.location).toBe("/admin/staff?done=invited");
    expect(await mailTo(email)).toHaveLength(1);

    const refused = await owner.agent
      .post("/admin/staff/invite")
      .type("form")
      .send({ email: "nope", firstName: "Form", lastName: "Person", role: "office" })
      .expect(400);
    expect(refused.text).toContain("Enter a valid e-mail address");

    const demote = await owner.agent
      .post(`/admin/staff/${owner.user.id}/role`)
      .set("HX-Request", "true")
      .type("form")
      .send({ role: "inspector" })
      .expect(200);
    expect(demote.text).toContain('id="staff-panel"');
    expect(demote.text).toContain(LAST_OWNER_MESSAGE);
  });
});
