// `haven users disable` (issue 8): the user's open sessions stop working at once.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT_DIR } from "../../src/http/assets.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

function haven(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT_DIR, "bin/haven.js"), ...args], { cwd: ROOT_DIR, env: { ...process.env, DATABASE_URL: ctx.url, NODE_ENV: "test" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

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
