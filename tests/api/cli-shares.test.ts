import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boot } from "../../src/boot.js";
import { loadEnv } from "../../src/config/env.js";
import { SHARE_MAIL_TASK } from "../../src/modules/sharing/index.js";
import { NO_SITE_ADDRESS } from "../../src/ops/site-address.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { jobCount, shareReport, sharedReportFixture } from "./sharing-fixtures.js";
import { runHavenHere } from "../support/cli.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Runs the real `haven` bin against this test's database. */
const haven = (args: string[]) => runHavenHere(ctx.url, args, { env: { PUBLIC_URL: "https://haven.example" } });

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

// Each run of the real bin starts tsx: slow on a busy machine.
const CLI_TIMEOUT = 240_000;

describe("haven shares", () => {
  it(
    "--help works",
    async () => {
      for (const args of [["shares"], ["shares", "rotate"]]) {
        const r = await haven([...args, "--help"]);
        expect(r.code, args.join(" ")).toBe(0);
        expect(r.stdout).toContain("Usage: haven shares");
      }
    },
    CLI_TIMEOUT,
  );

  it(
    "list shows each link's e-mail, dates and status, never a token",
    async () => {
      const { agent: staff } = await signInStaff(ctx);
      const { report } = await sharedReportFixture(ctx);
      const { token } = await shareReport(staff, report.id, "cli-list@example.com");
      await ctx.agent().get(`/api/client-report/${token}`).expect(200);
      const json = await haven(["shares", "list", "--json"]);
      expect(json.code).toBe(0);
      const rows = JSON.parse(json.stdout);
      expect(rows[0]).toMatchObject({
        reportId: report.id,
        clientEmail: "cli-list@example.com",
        status: "opened",
        revoked: false,
      });
      expect(rows[0].openedAt).toEqual(expect.any(String));
      const table = await haven(["shares", "list"]);
      expect(table.code).toBe(0);
      expect(table.stdout).toContain("cli-list@example.com");
      expect(table.stdout).toContain("opened");
      expect(table.stdout + json.stdout).not.toContain(token);
    },
    CLI_TIMEOUT,
  );

  it(
    "rotate revokes the live link, prints a new one, and e-mails it only when asked",
    async () => {
      const { agent: staff } = await signInStaff(ctx);
      const { report } = await sharedReportFixture(ctx);
      const old = await shareReport(staff, report.id, "rotate@example.com");
      const holder = ctx.agent();
      await holder.get(`/api/client-report/${old.token}`).expect(200);

      const jobs = await jobCount(ctx, SHARE_MAIL_TASK);
      const r = await haven(["shares", "rotate", "--report", String(report.id)]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`Revoked 1 live link(s) of report #${report.id}.`);
      const link = r.stdout.match(/https:\/\/haven\.example\/client-report\/([A-Za-z0-9_-]{43})/);
      expect(link).not.toBeNull();
      expect(r.stdout).toContain("Not e-mailed");
      expect(await jobCount(ctx, SHARE_MAIL_TASK)).toBe(jobs);
      await holder.get(`/api/client-report/${old.token}`).expect(410);
      expect(
        (
          await ctx
            .db("report_shares")
            .where({ token_hash: sha256(link![1]!) })
            .first()
        ).client_email,
      ).toBe("rotate@example.com");
      await ctx.agent().get(`/api/client-report/${link![1]}`).expect(200);

      const mailed = await haven([
        "shares",
        "rotate",
        "--report",
        String(report.id),
        "--email",
        "new-owner@example.com",
      ]);
      expect(mailed.code, mailed.stderr).toBe(0);
      expect(mailed.stdout).toContain("E-mail queued to new-owner@example.com.");
      expect(await jobCount(ctx, SHARE_MAIL_TASK)).toBe(jobs + 1);
      const last = await haven(["shares", "rotate", "--report", String(report.id), "--email"]);
      expect(last.stdout).toContain("E-mail queued to new-owner@example.com.");
    },
    CLI_TIMEOUT,
  );

  it(
    "refuses bad arguments clearly, without a stack",
    async () => {
      const missing = await haven(["shares", "rotate"]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("required option '--report <id>' not specified");
      const bad = await haven(["shares", "rotate", "--report", "abc"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain("must be a positive whole number");
      const unknown = await haven(["shares", "rotate", "--report", "99999999"]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("Report not found");
      const badEmail = await haven(["shares", "rotate", "--report", "1", "--email", "nope"]);
      expect(badEmail.code).toBe(1);
      expect(badEmail.stderr).toContain("must be an e-mail address");
      for (const r of [missing, bad, unknown, badEmail]) expect(r.stderr + r.stdout).not.toMatch(/\n\s+at .+:\d+:\d+/);
    },
    CLI_TIMEOUT,
  );
});

// docs/decisions.md#47: a link's address is PUBLIC_URL, or the one the running site recorded at start, never a guess.
describe("haven shares rotate and the site's address", () => {
  /** The real bin with neither PUBLIC_URL nor PORT: a shell that does not have the site's settings. */
  const bare = (args: string[]) => runHavenHere(ctx.url, args);
  const shareMails = async () =>
    (
      await ctx.db.raw(
        "select payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = ? order by j.id",
        [SHARE_MAIL_TASK],
      )
    ).rows.map((r: { payload: { link: string } }) => r.payload.link);

  it(
    "refuses to e-mail or print a link when it cannot know the site's address: one line, exit 1, nothing sent or changed",
    async () => {
      // No web process has started on this database (the test's app was not booted): nothing is recorded.
      expect(await ctx.db("site_settings").count({ n: "*" }).first()).toEqual({ n: 0 });
      const { agent: staff } = await signInStaff(ctx);
      const { report } = await sharedReportFixture(ctx);
      const old = await shareReport(staff, report.id, "where@example.com");
      const mails = await shareMails();
      const rows = await ctx.db("report_shares").where({ report_id: report.id }).orderBy("id");
      const feed = await ctx.db("calendar_feeds").select();
      for (const args of [
        ["shares", "rotate", "--report", String(report.id), "--email"],
        ["shares", "rotate", "--report", String(report.id)],
        ["calendar", "rotate-feed"],
      ]) {
        const r = await bare(args);
        expect(r.code, args.join(" ")).toBe(1);
        expect(r.stderr).toBe(`haven: ${NO_SITE_ADDRESS}\n`);
        expect(r.stdout).toBe("");
      }
      expect(await shareMails()).toEqual(mails);
      expect(await ctx.db("report_shares").where({ report_id: report.id }).orderBy("id")).toEqual(rows);
      expect(await ctx.db("calendar_feeds").select()).toEqual(feed);
      await ctx.agent().get(`/api/client-report/${old.token}`).expect(200);
    },
    CLI_TIMEOUT,
  );

  it(
    "e-mails the address the running site announced when it started",
    async () => {
      // A web process starts with its PUBLIC_URL (here in this test's process, on a free port) and records it.
      const site = await boot(
        { web: true, worker: false, migrate: false, seedIfEmpty: false },
        loadEnv({
          NODE_ENV: "test",
          LOG_LEVEL: "silent",
          DATABASE_URL: ctx.url,
          PORT: "0",
          HOST: "127.0.0.1",
          PUBLIC_URL: "https://site.example/",
        }),
      );
      await site.stop(1);
      const { agent: staff } = await signInStaff(ctx);
      const { report } = await sharedReportFixture(ctx);
      await shareReport(staff, report.id, "announced@example.com");
      const r = await bare(["shares", "rotate", "--report", String(report.id), "--email"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /New link \(valid until [\d-]+\): https:\/\/site\.example\/client-report\/[A-Za-z0-9_-]{43}\n/,
      );
      expect(r.stdout).toContain("E-mail queued to announced@example.com.");
      expect((await shareMails()).at(-1)).toMatch(/^https:\/\/site\.example\/client-report\/[A-Za-z0-9_-]{43}$/);

      // PUBLIC_URL given to the command wins, and the difference is said.
      const given = await haven(["shares", "rotate", "--report", String(report.id)]);
      expect(given.code, given.stderr).toBe(0);
      expect(given.stdout).toContain("https://haven.example/client-report/");
      expect(given.stderr).toContain("the running site announced https://site.example");
    },
    CLI_TIMEOUT,
  );
});
