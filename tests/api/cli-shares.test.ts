import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARE_MAIL_TASK } from "../../src/modules/sharing/index.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { jobCount, shareReport, sharedReportFixture } from "./sharing-fixtures.js";
import { runHaven } from "../support/cli.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Runs the real `haven` bin against this test's database. */
const haven = (args: string[]) => runHaven(ctx.url, args, { env: { PUBLIC_URL: "https://haven.example" } });

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
