import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const tables = async () =>
  (await ctx.db.raw("select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('public','graphile_worker') order by 1")).rows.map(
    (r: { name: string }) => r.name,
  );

describe("migrations", () => {
  it("go all the way down and up again", async () => {
    const before = await tables();
    expect(before).toEqual(expect.arrayContaining(["public.plans", "public.staff_users"]));
    expect(before.some((t: string) => t.startsWith("graphile_worker."))).toBe(true);

    await ctx.db.migrate.rollback(undefined, true);
    const down = await tables();
    expect(down.filter((t: string) => !t.startsWith("public.knex_migrations"))).toEqual([]);

    await ctx.db.migrate.latest();
    expect(await tables()).toEqual(before);
  });

  it("leave the job queue usable inside a transaction", async () => {
    await ctx.db.transaction(async (trx) => {
      await trx.raw("select graphile_worker.add_job('test.noop', json_build_object('n', 1))");
    });
    const { rows } = await ctx.db.raw("select count(*)::int as n from graphile_worker.jobs where task_identifier = 'test.noop'");
    expect(rows[0].n).toBe(1);
  });
});
