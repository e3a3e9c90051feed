import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { runHavenHere } from "../support/cli.js";
import { LOGIN_LIMITS, TOO_MANY_LOGINS_MESSAGE } from "../../src/modules/auth/auth.service.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Runs the real `haven` bin against this test's database. */
const haven = (args: string[]) => runHavenHere(ctx.url, args);

describe("haven users disable", { timeout: 120_000 }, () => {
  it("revokes the user's live sessions and refuses an unknown e-mail in one line", async () => {
    const { agent, email, user } = await signInStaff(ctx);
    await agent.get("/api/auth/user").expect(200);
    const result = await haven(["users", "disable", "--email", email.toUpperCase(), "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: user.id, email });
    await agent.get("/api/auth/user").expect(401);

    const unknown = await haven(["users", "disable", "--email", "nobody@haven.test"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe("haven: No staff user with e-mail nobody@haven.test");
  });
});

describe("haven users unlock", { timeout: 120_000 }, () => {
  it("`users list` shows a locked account and the addresses it is locked for; `users unlock` clears it, and refuses an unknown e-mail", async () => {
    const { email, password } = await signInStaff(ctx);
    for (let i = 0; i <= LOGIN_LIMITS.perEmailAndAddress; i++) {
      await ctx.container.auth.login(email, "wrong password!", "203.0.113.9").catch(() => undefined);
    }
    await expect(ctx.container.auth.login(email, password, "203.0.113.9")).rejects.toThrow(TOO_MANY_LOGINS_MESSAGE);

    const listed = await haven(["users", "list", "--json"]);
    expect(listed.code).toBe(0);
    const row = JSON.parse(listed.stdout).find((u: { email: string }) => u.email === email);
    expect(row).toMatchObject({ locked: true, lockedAddresses: ["203.0.113.9"], throttledUntil: null });
    expect(new Date(row.lockedUntil).getTime()).toBeGreaterThan(Date.now());
    const table = await haven(["users", "list"]);
    expect(table.stdout).toMatch(/active, locked/);
    expect(table.stdout).toContain("203.0.113.9 until");

    const unlocked = await haven(["users", "unlock", "--email", email.toUpperCase()]);
    expect(unlocked.code).toBe(0);
    expect(unlocked.stdout).toMatch(
      new RegExp(`^Unlocked staff user #\\d+ ${email} \\(\\d+ login counters cleared\\)\\.\\n$`),
    );
    await ctx.container.auth.login(email, password, "203.0.113.9");
    const after = JSON.parse((await haven(["users", "list", "--json"])).stdout).find(
      (u: { email: string }) => u.email === email,
    );
    expect(after).toMatchObject({ locked: false, lockedAddresses: [], lockedUntil: null });

    const unknown = await haven(["users", "unlock", "--email", "nobody@haven.test"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe("haven: No staff user with e-mail nobody@haven.test");
  });
});
