// nobody can lock a staff member out. The lock counts per (e-mail, address); the e-mail-wide
// ceiling only makes guesses from strange addresses wait, longer and longer; `haven users unlock` clears it all.
import type { Express } from "express";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import {
  AuthService,
  LOGIN_LIMITS,
  type LoginLimits,
  TOO_MANY_LOGINS_MESSAGE,
} from "../../src/modules/auth/auth.service.js";
import { LoginAttemptsRepository } from "../../src/modules/auth/login-attempts.repository.js";
import { StaffSessionsRepository } from "../../src/modules/auth/sessions.repository.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  // Trusting the loopback proxy lets each request say its client address (X-Forwarded-For).
  ctx = await createTestContext({ TRUST_PROXY: "loopback" });
});
afterAll(() => ctx.close());

const OWNER_ADDRESS = "198.51.100.7";
const attacker = (i: number) => `203.0.113.${i}`;

/** The app with its own login limits (the shipped ones need a hundred guesses to show the e-mail-wide wait). */
function appWithLimits(limits: Partial<LoginLimits>): Express {
  const auth = new AuthService({
    users: ctx.container.users,
    sessions: new StaffSessionsRepository(ctx.db),
    attempts: new LoginAttemptsRepository(ctx.db),
    limits: { ...LOGIN_LIMITS, ...limits },
  });
  return createApp({ ...ctx.container, auth });
}

const login = (app: Express, address: string, email: string, password: string) =>
  supertest(app)
    .post("/api/auth/login")
    .set("X-Forwarded-For", address)
    .set("Sec-Fetch-Site", "same-origin")
    .send({ email, password });

/** A staff user who has signed in once from OWNER_ADDRESS (so it is theirs). */
async function owner(app: Express = ctx.app) {
  const { email, password, user } = await signInStaff(ctx);
  await login(app, OWNER_ADDRESS, email, password).expect(200);
  return { email, password, user };
}

/**
 * Retry-After counts down in the database's own time (now()), which runs on while a loaded machine hashes the
 * passwords between the request that set the wait and the one that reads it: a few seconds early, never late.
 */
function expectWait(actualSeconds: number, expectedSeconds: number) {
  expect(actualSeconds).toBeLessThanOrEqual(expectedSeconds);
  expect(actualSeconds).toBeGreaterThan(expectedSeconds - 5);
}

/** Lets the e-mail-wide wait pass, as time would. */
const endWait = (email: string) =>
  ctx
    .db("login_attempts")
    .where({ key: `email:${email}` })
    .update({ blocked_until: ctx.db.raw("now() - interval '1 second'") });

describe("the lock is per (e-mail, address)", () => {
  it("ten wrong passwords lock that address out for the window, with Retry-After; the owner's address still gets in", async () => {
    const { email, password } = await owner();
    for (let i = 0; i < LOGIN_LIMITS.perEmailAndAddress; i++)
      await login(ctx.app, attacker(1), email, "wrong password!").expect(401);
    const locked = await login(ctx.app, attacker(1), email, password).expect(429);
    expect(locked.body.message).toBe(TOO_MANY_LOGINS_MESSAGE);
    const retryAfter = Number(locked.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The form route shares the counters and says the same.
    const form = await supertest(ctx.app)
      .post("/login")
      .set("X-Forwarded-For", attacker(1))
      .set("Sec-Fetch-Site", "same-origin")
      .type("form")
      .send({ email, password })
      .expect(429);
    expect(form.text).toContain(TOO_MANY_LOGINS_MESSAGE);
    expect(Number(form.headers["retry-after"])).toBeGreaterThan(0);

    // The owner, from their address or any other one, is not locked out.
    await login(ctx.app, OWNER_ADDRESS, email, password).expect(200);
    await login(ctx.app, attacker(2), email, password).expect(200);
    // When the window has passed, the locked address may try again.
    await ctx
      .db("login_attempts")
      .where({ key: `pair:${email}|${attacker(1)}` })
      .update({ window_started_at: ctx.db.raw("now() - interval '16 minutes'") });
    await login(ctx.app, attacker(1), email, password).expect(200);
  });

  it("60 parallel guesses from one address: at most ten are checked, the rest are refused with 429", async () => {
    const { email } = await owner();
    const statuses = (
      await Promise.all(Array.from({ length: 60 }, () => login(ctx.app, attacker(3), email, "wrong password!")))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.perEmailAndAddress);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(60 - LOGIN_LIMITS.perEmailAndAddress);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });
});

describe("past the e-mail-wide ceiling, strange addresses wait, longer each time", () => {
  it("answers 429 with a growing Retry-After to addresses the user never signed in from; never to the owner's", async () => {
    const app = appWithLimits({ perEmail: 5, firstDelayMs: 60_000, maxDelayMs: 3_600_000 });
    const { email, password } = await owner(app);
    for (let i = 1; i <= 5; i++) await login(app, attacker(10 + i), email, "wrong password!").expect(401);
    // The sixth guess takes the turn (the first wait, a minute); the next ones must wait for it.
    await login(app, attacker(16), email, "wrong password!").expect(401);
    const first = await login(app, attacker(17), email, "wrong password!").expect(429);
    expect(first.body.message).toBe(TOO_MANY_LOGINS_MESSAGE);
    expectWait(Number(first.headers["retry-after"]), 60);
    // Even the right password waits when it comes from an address the user never used...
    await login(app, attacker(18), email, password).expect(429);
    // ...but the owner's own address is not slowed at all.
    await login(app, OWNER_ADDRESS, email, password).expect(200);

    const waits: number[] = [];
    for (let round = 0; round < 4; round++) {
      await endWait(email);
      await login(app, attacker(20 + round), email, "wrong password!").expect(401);
      waits.push(
        Number((await login(app, attacker(30 + round), email, "wrong password!").expect(429)).headers["retry-after"]),
      );
    }
    // The wait doubles with each attempt counted (refused ones too), up to maxDelayMs: guesses 9, 11, 13 and 15.
    for (const [i, expected] of [8 * 60, 32 * 60, 3600, 3600].entries()) expectWait(waits[i]!, expected);

    // A wait, not a lock: once it has passed, the right password from a new address gets in.
    await endWait(email);
    await login(app, attacker(40), email, password).expect(200);
  });

  it("parallel guesses from many addresses past the ceiling: only one is checked per turn", async () => {
    const app = appWithLimits({ perEmail: 5 });
    const { email } = await owner(app);
    // Twenty guesses already counted this window: the next turn waits the longest.
    await ctx
      .db("login_attempts")
      .where({ key: `email:${email}` })
      .update({ attempts: 20, blocked_until: null });
    const statuses = (
      await Promise.all(Array.from({ length: 30 }, (_, i) => login(app, attacker(100 + i), email, "wrong password!")))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(29);
  });

  it("an address is the owner's for 90 days after its last sign-in", async () => {
    const app = appWithLimits({ perEmail: 5 });
    const { email, password, user } = await owner(app);
    await ctx
      .db("login_attempts")
      .where({ key: `email:${email}` })
      .update({ attempts: 20, blocked_until: ctx.db.raw("now() + interval '10 minutes'") });
    await login(app, OWNER_ADDRESS, email, password).expect(200);
    await ctx
      .db("staff_login_addresses")
      .where({ staff_user_id: user.id })
      .update({ last_success_at: ctx.db.raw("now() - interval '91 days'") });
    await login(app, OWNER_ADDRESS, email, password).expect(429);
  });
});
