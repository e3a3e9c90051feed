
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { runHaven } from "../support/cli.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Runs the real `haven` bin against this test's database. */
const haven = (args: string[]) => runHaven(ctx.url, args);

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
