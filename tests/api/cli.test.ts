import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FolderMigrationSource } from "../../src/db/migration-source.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { type CliResult, runHaven, runHavenHere } from "../support/cli.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Runs `haven` against this test's database: in this process, or the real bin when it reads stdin. */
const haven = (args: string[], stdin = "") =>
  stdin ? runHaven(ctx.url, args, { stdin }) : runHavenHere(ctx.url, args);

const noStack = (r: CliResult) => expect(r.stderr + r.stdout).not.toMatch(/\n\s+at .+:\d+:\d+/);

// Each run starts the real bin (tsx, every module): on a busy machine a few take seconds each.
describe("haven CLI", { timeout: 120_000 }, () => {
  it("--help works on every command", async () => {
    for (const args of [
      [],
      ["db"],
      ["db", "migrate"],
      ["db", "reset"],
      ["plans"],
      ["plans", "set-price"],
      ["users", "create"],
      ["db", "backup"],
      ["db", "restore"],
      ["doctor"],
    ]) {
      const r = await haven([...args, "--help"]);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toContain("Usage: haven");
    }
  });

  it("db migrate, plans seed twice, plans list", async () => {
    expect((await haven(["db", "migrate"])).stdout).toContain("Already up to date.");
    expect((await haven(["plans", "seed"])).stdout).toContain("Added 3 plan(s).");
    expect((await haven(["plans", "seed"])).stdout).toContain("nothing changed");
    const list = await haven(["plans", "list", "--json"]);
    expect(JSON.parse(list.stdout).map((p: { price: number }) => p.price)).toEqual([149, 370, 799]);
  });

  it("plans set-price changes the price and refuses bad arguments clearly", async () => {
    const ok = await haven(["plans", "set-price", "premium", "--monthly", "829", "--checkout", "899"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("Premium: monthly $829, checkout $899.");
    expect(await ctx.db("plans").where({ type: "premium" }).first()).toMatchObject({
      monthly_price: 829,
      checkout_price: 899,
    });

    const badType = await haven(["plans", "set-price", "gold", "--monthly", "5"]);
    expect(badType.code).toBe(1);
    expect(badType.stderr).toContain("Plan must be one of basic, standard, premium");
    const badPrice = await haven(["plans", "set-price", "basic", "--monthly", "-3"]);
    expect(badPrice.code).toBe(1);
    expect(badPrice.stderr).toContain("Price must be greater than 0");
    const noPrice = await haven(["plans", "set-price", "basic"]);
    expect(noPrice.code).toBe(1);
    expect(noPrice.stderr).toContain("Give a monthly price, a checkout price, or both");
    for (const r of [badType, badPrice, noPrice]) noStack(r);
  });

  it("users create reads the password from stdin and stores an argon2id hash", async () => {
    const r = await haven(
      ["users", "create", "--email", "Ana@Haven.test", "--first-name", "Ana", "--last-name", "Diaz"],
      "a-long-password\n",
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Created staff user #\d+ ana@haven.test\./);
    const row = await ctx.db("staff_users").where({ email: "ana@haven.test" }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(await ctx.container.users.verify("ana@haven.test", "a-long-password")).toMatchObject({ firstName: "Ana" });

    // The refusals: the same program in this process, given the same stdin (the bin's own stdin was read above).
    const again = await runHavenHere(
      ctx.url,
      ["users", "create", "--email", "ana@haven.test", "--first-name", "A", "--last-name", "D"],
      { stdin: "a-long-password" },
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
    const short = await runHavenHere(
      ctx.url,
      ["users", "create", "--email", "bo@haven.test", "--first-name", "Bo", "--last-name", "Li"],
      { stdin: "short" },
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("Password must be at least 10 characters");
    const badEmail = await runHavenHere(
      ctx.url,
      ["users", "create", "--email", "nope", "--first-name", "Bo", "--last-name", "Li"],
      { stdin: "a-long-password" },
    );
    expect(badEmail.stderr).toContain("Enter a valid e-mail address");
    const missing = await haven(["users", "create", "--email", "bo@haven.test"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("required option '--first-name <name>' not specified");
    for (const x of [again, short, badEmail, missing]) noStack(x);
  });

  it("an unknown command is a clear error", async () => {
    const r = await haven(["frobnicate"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it("db rollback, seed and reset", async () => {
    const back = await haven(["db", "rollback", "--all"]);
    expect(back.code).toBe(0);
    const migrations = (await new FolderMigrationSource().getMigrations()).length;
    expect(back.stdout).toContain(`Rolled back ${migrations} migration(s)`);
    expect((await haven(["db", "migrate"])).stdout).toContain(`Applied ${migrations} migration(s)`);
    const seed = await haven(["db", "seed"]);
    expect(seed.stdout).toContain("Plans added: 3. Demo staff user created.");
    expect((await haven(["db", "reset"])).code).toBe(1);
    const reset = await haven(["db", "reset", "--yes"]);
    expect(reset.code).toBe(0);
    expect(await ctx.db("plans").count({ n: "*" })).toEqual([{ n: 3 }]);
  });
});
