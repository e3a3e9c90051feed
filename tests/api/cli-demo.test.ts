import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../support/context.js";
import { type CliResult, runHavenHere } from "../support/cli.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Runs the real `haven` bin against this test's database. */
const haven = (args: string[], env: Record<string, string> = {}) => runHavenHere(ctx.url, args, { env });

/** Each run of the bin starts tsx and a database pool: seconds each on a busy machine. */
const SLOW = 150_000;

const noStack = (r: CliResult) => expect(r.stderr + r.stdout).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe("haven demo seed and haven users list", () => {
  it(
    "--help works on the new commands",
    async () => {
      for (const args of [["demo"], ["demo", "seed"], ["users", "list"]]) {
        const r = await haven([...args, "--help"]);
        expect(r.code, args.join(" ")).toBe(0);
        expect(r.stdout).toContain("Usage: haven");
      }
    },
    SLOW,
  );

  it(
    "demo seed --properties 5 --json adds five homes with inspections and payments",
    async () => {
      const r = await haven(["demo", "seed", "--properties", "5", "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const result = JSON.parse(r.stdout);
      expect(result).toMatchObject({ properties: 5, customers: 5 });
      expect(result.inspections.completed).toBeGreaterThan(0);
      expect(result.inspections.in_progress + result.inspections.scheduled + result.inspections.draft).toBeGreaterThan(
        0,
      );
      expect(Number((await ctx.db("properties").count({ n: "*" }))[0]!.n)).toBe(5);
      expect(Number((await ctx.db("payments").where({ status: "succeeded" }).count({ n: "*" }))[0]!.n)).toBe(
        result.payments,
      );

      const plain = await haven(["demo", "seed", "--properties", "2"]);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toMatch(
        /^Added 2 properties, 2 customers, \d+ bookings, \d+ inspections .* payments in [\d.]+ s\.\n$/,
      );
    },
    SLOW,
  );

  it(
    "refuses a bad argument clearly",
    async () => {
      for (const value of ["0", "ten"]) {
        const r = await haven(["demo", "seed", "--properties", value]);
        expect(r.code, value).toBe(1);
        expect(r.stderr).toContain("Properties must be a whole number from 1 to 1000000");
        noStack(r);
      }
      const unknown = await haven(["demo", "seed", "--homes", "3"]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("unknown option '--homes'");
    },
    SLOW,
  );

  it(
    "users list --json lists staff users without password hashes",
    async () => {
      await ctx.container.users.create({
        email: "lea@haven.test",
        password: "correct horse battery",
        firstName: "Léa",
        lastName: "Côté",
      });
      const r = await haven(["users", "list", "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const list = JSON.parse(r.stdout);
      expect(list).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            email: "lea@haven.test",
            firstName: "Léa",
            lastName: "Côté",
            disabled: false,
            lastLoginAt: null,
          }),
        ]),
      );
      expect(r.stdout).not.toContain("argon2");
      expect(r.stdout).not.toMatch(/password/i);
      const table = await haven(["users", "list"]);
      expect(table.code).toBe(0);
      expect(table.stdout).toContain("lea@haven.test");
    },
    SLOW,
  );
});
