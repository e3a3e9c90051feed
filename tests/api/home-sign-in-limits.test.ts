// My Home's sign-in limits (src/modules/my-home/README.md, Sign-in): a stranger asking for a homeowner's sign-in
// e-mail again and again, from one address or many, floods nobody and locks nobody out; the homeowner, at their
// own address, still gets the same answer and signs in with the newest link or code.
import supertest from "supertest";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HOME_CODE_TRIES, HOME_SIGN_IN_LIMITS, TOO_MANY_SIGN_INS_MESSAGE } from "../../src/modules/my-home/index.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
const VICTIM = "victim.owner@example.com";
const HOME_ADDRESS = "198.51.100.44";
const attacker = (i: number) => `203.0.113.${i}`;

beforeAll(async () => {
  // Trusting the loopback proxy lets each request say its client address (X-Forwarded-For).
  ctx = await createTestContext({ TRUST_PROXY: "loopback" });
  await ctx.container.plans.seed();
  await ctx.container.customers.createWithProperty(
    { email: VICTIM, name: "Vic Owner", phone: "613-555-0144", subscriptionPlan: "basic" },
    { address: "44 Sparks Street", city: "Ottawa", province: "ON", postalCode: "K1P 5B7" },
  );
});
afterAll(() => ctx?.close());
beforeEach(async () => {
  await ctx.db("login_attempts").where("key", "like", "home-%").delete();
  await ctx.db("home_sign_in_tokens").delete();
  await ctx.db.raw("delete from graphile_worker._private_jobs");
});

const from = (address: string) =>
  supertest.agent(ctx.app).set("Sec-Fetch-Site", "same-origin").set("X-Forwarded-For", address);
const ask = (address: string, email = VICTIM) => from(address).post("/my-home/sign-in").type("form").send({ email });

/** The sign-in e-mails queued for the victim, oldest first, with their link token and code. */
async function mails() {
  const { rows } = await ctx.db.raw(
    "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
  );
  return (rows as { payload: { to: string; text: string } }[])
    .filter((r) => r.payload.to === VICTIM)
    .map(({ payload }) => ({
      token: /\/my-home\/sign-in\/([A-Za-z0-9_-]{43})/.exec(payload.text)![1]!,
      code: /code on the sign-in page: (\d{6})/.exec(payload.text)![1]!,
    }));
}

describe("a stranger asking for the homeowner's sign-in e-mail", () => {
  it("is refused at their own address only; the e-mails are capped; the homeowner still signs in with the newest code and link", async () => {
    // The attacker at one address: the pair's limit, then a 429 for that address and e-mail only.
    for (let i = 0; i < HOME_SIGN_IN_LIMITS.perEmailAndAddress; i++) await ask(attacker(1)).expect(200);
    const refused = await ask(attacker(1)).expect(429);
    expect(refused.text).toContain(TOO_MANY_SIGN_INS_MESSAGE);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    // From many addresses: each gets the usual answer, and no e-mail goes out past the cap while a link lives.
    for (let a = 2; a <= 5; a++)
      for (let i = 0; i < HOME_SIGN_IN_LIMITS.perEmailAndAddress; i++) await ask(attacker(a)).expect(200);
    expect(await mails()).toHaveLength(HOME_SIGN_IN_LIMITS.mailsPerEmail);
    // The attacker also tries codes for the victim from yet another address: the code's 5 tries still hold.
    for (let i = 0; i < HOME_CODE_TRIES; i++)
      await from(attacker(6))
        .post("/my-home/sign-in/code")
        .type("form")
        .send({ email: VICTIM, code: "000000" })
        .expect(400);

    // The homeowner, at home: the same answer as ever, nothing new sent, and the newest link signs in.
    const home = from(HOME_ADDRESS);
    const answer = await home.post("/my-home/sign-in").type("form").send({ email: VICTIM }).expect(200);
    expect(answer.text).toContain(`If ${VICTIM} is a Haven customer, we have sent a sign-in link and code`);
    const sent = await mails();
    expect(sent).toHaveLength(HOME_SIGN_IN_LIMITS.mailsPerEmail);
    await home.get(`/my-home/sign-in/${sent.at(-1)!.token}`).expect(200);
    const signedIn = await home
      .post(`/my-home/sign-in/${sent.at(-1)!.token}`)
      .type("form")
      .send({})
      .expect(303);
    expect(signedIn.headers.location).toBe("/my-home");
    await home.get("/api/my-home/passkeys").expect(200);
  });

  it("the homeowner signs in with the newest code, and once no link is live a request sends a fresh one, even past the cap", async () => {
    for (let a = 1; a <= 3; a++)
      for (let i = 0; i < HOME_SIGN_IN_LIMITS.perEmailAndAddress; i++) await ask(attacker(a)).expect(200);
    const sent = await mails();
    expect(sent).toHaveLength(HOME_SIGN_IN_LIMITS.mailsPerEmail);
    const home = from(HOME_ADDRESS);
    await ask(HOME_ADDRESS).expect(200);
    await home
      .post("/my-home/sign-in/code")
      .type("form")
      .send({ email: VICTIM, code: sent.at(-1)!.code })
      .expect(303);
    await home.get("/api/my-home/passkeys").expect(200);

    // Every link e-mailed so far is spent or past its 15 minutes: the next request e-mails a new one.
    await ctx
      .db("home_sign_in_tokens")
      .where({ email: VICTIM })
      .update({ expires_at: ctx.db.raw("now() - interval '1 second'") });
    await ask(HOME_ADDRESS).expect(200);
    const fresh = await mails();
    expect(fresh).toHaveLength(HOME_SIGN_IN_LIMITS.mailsPerEmail + 1);
    // …and only one while it lives.
    await ask(attacker(9)).expect(200);
    expect(await mails()).toHaveLength(HOME_SIGN_IN_LIMITS.mailsPerEmail + 1);
    const other = from(HOME_ADDRESS);
    await other
      .post(`/my-home/sign-in/${fresh.at(-1)!.token}`)
      .type("form")
      .send({})
      .expect(303);
  });

  it("an address asking for many e-mails is still stopped (flooding), whatever the e-mail", async () => {
    for (let i = 0; i < HOME_SIGN_IN_LIMITS.perAddress; i++)
      await ask(attacker(20), `someone${i}@example.com`).expect(200);
    await ask(attacker(20), "someone-new@example.com").expect(429);
    await ask(HOME_ADDRESS).expect(200);
  });

  it("the mail cap's counter lasts its hour through the daily purge; the 15-minute counters go after theirs", async () => {
    await ask(attacker(30)).expect(200);
    const keys = async () =>
      (await ctx.db("login_attempts").where("key", "like", "home-%").orderBy("key").pluck("key")) as string[];
    expect(await keys()).toEqual([
      `home-ip:${attacker(30)}`,
      `home-mail:${VICTIM}`,
      `home-pair:${VICTIM}|${attacker(30)}`,
    ]);
    await ctx.container.privacy.purge(new Date(Date.now() + 20 * 60_000));
    expect(await keys()).toEqual([`home-mail:${VICTIM}`]);
    await ctx.container.privacy.purge(new Date(Date.now() + 61 * 60_000));
    expect(await keys()).toEqual([]);
  });
});
