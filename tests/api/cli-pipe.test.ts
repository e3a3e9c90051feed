// `haven customers export --email E | slow-reader` stopped at 64 KB (the pipe's buffer),
// because the CLI exited before standard output drained. A large export read slowly through a real pipe
// arrives whole and parses.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHavenIntoSlowPipe } from "../support/cli.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
});
afterAll(() => ctx.close());

describe("haven output through a slow pipe", { timeout: 120_000 }, () => {
  it("a customer export of several hundred kilobytes arrives complete and parses as JSON", async () => {
    const email = `piper.${randomBytes(3).toString("hex")}@example.org`;
    const PAYMENTS = 1200;
    const start = Date.parse("2025-01-01T12:00:00Z");
    await ctx.container.payments.importDemoPayments(
      Array.from({ length: PAYMENTS }, (_, i) => ({
        providerId: `demo_pi_pipe_${i}_${email}`,
        planType: "standard" as const,
        customerEmail: email,
        customerName: "Piper Slowread",
        createdAt: new Date(start + i * 3_600_000),
      })),
      ctx.db,
    );

    const r = await runHavenIntoSlowPipe(ctx.url, ["customers", "export", "--email", email]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(Buffer.byteLength(r.stdout)).toBeGreaterThan(300_000);
    const exported = JSON.parse(r.stdout);
    expect(exported.email).toBe(email);
    expect(exported.payments).toHaveLength(PAYMENTS);
    expect(exported.payments.at(-1).provider_id).toBe(`demo_pi_pipe_${PAYMENTS - 1}_${email}`);
  });

  it("--json of a list arrives complete through the same pipe", async () => {
    const r = await runHavenIntoSlowPipe(ctx.url, ["plans", "list", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((p: { type: string }) => p.type)).toEqual(["basic", "standard", "premium"]);
  });
});
