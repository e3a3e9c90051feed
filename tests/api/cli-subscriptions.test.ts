// The demo subscriptions from the CLI: `haven subscriptions renew --as-of` walks four months forward, a card
// whose renewals fail (4000 0000 0000 0341) goes past due, and the receipts and the payment-failed e-mail reach
// a real local SMTP server through the job queue. Then list, show, cancel, resume and change-plan from the CLI,
// and two renewals at once.
import { Logger, runOnce } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskList } from "../../src/jobs.js";
import { addDays, todayIn, zonedInstant } from "../../src/shared/business-time.js";
import { monthsAfter, period } from "../../src/modules/subscriptions/index.js";
import type { Subscription } from "../../src/modules/subscriptions/subscriptions.constants.js";
import { type CliResult, runHaven, runHavenHere } from "../support/cli.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { type Smtp, startSmtp } from "../support/smtp.js";

const silent = new Logger(() => () => undefined);
const PUBLIC_URL = "https://haven.example";
// Each run starts a real Node process on a shared, busy machine.
const SLOW = 240_000;

let smtp: Smtp;
let ctx: TestContext;
let env: Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtp();
  env = { MAIL_MODE: "smtp", SMTP_URL: smtp.url, PUBLIC_URL };
  ctx = await createTestContext(env);
  await ctx.container.plans.seed();
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

// In this process (runHavenHere); two renewals at once are two real processes.
const haven = (args: string[]) => runHavenHere(ctx.url, args, { env });
const json = <T>(r: CliResult): T => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};
const noStack = (r: CliResult) => expect(r.stderr + r.stdout).not.toMatch(/\n\s+at .+:\d+:\d+/);
/** Runs every queued job once with the app's real task list, as the worker would (the mail.send jobs). */
const runJobs = () => runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });
const mailsTo = (to: string) => smtp.mailsTo(to);

const timeZone = () => ctx.env.BUSINESS_TZ;
const today = () => todayIn(timeZone());

/** A home bought a plan with this card on `anchor` (10:00 in the business zone), with its customer and property. */
async function buy(
  n: number,
  planType: "basic" | "standard" | "premium",
  cardNumber: string,
  anchor: string,
  attach = true,
): Promise<Subscription> {
  const email = `renewer${n}@example.com`;
  const plan = await ctx.container.plans.get(planType);
  const sub = await ctx.container.subscriptions.startDemo(
    {
      checkoutRef: `demo_cli_${n}`,
      planType,
      amountCents: plan.price * 100,
      payerEmail: email,
      payerName: `Renewer ${n}`,
      cardNumber,
    },
    zonedInstant(anchor, "10:00", timeZone()),
  );
  if (!attach) return sub;
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name: `Renewer ${n}`, subscriptionPlan: planType },
    { address: `${n} Renewal Road`, city: "Ottawa", province: "ON", postalCode: "K1N 5T5" },
  );
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(
      `demo_cli_${n}`,
      { customerId: customer.id, propertyId: property.id },
      tx,
    ),
  );
  return sub;
}

type Totals = { asOf: string; billed: number; paid: number; failed: number; ended: number; planChanges: number };

describe("haven subscriptions", () => {
  // Started a little over four months ago: four renewals, each on a date already past, bring it to today's period.
  let anchor: string;
  let good: Subscription;
  let failing: Subscription;

  it(
    "--help works on every command",
    async () => {
      for (const args of [
        ["subscriptions"],
        ["subscriptions", "list"],
        ["subscriptions", "show"],
        ["subscriptions", "cancel"],
        ["subscriptions", "resume"],
        ["subscriptions", "change-plan"],
        ["subscriptions", "renew"],
      ]) {
        const r = await haven([...args, "--help"]);
        expect(r.code, args.join(" ")).toBe(0);
        expect(r.stdout).toContain("Usage: haven subscriptions");
      }
    },
    SLOW,
  );

  it(
    "renew --as-of walks four months: 4242 pays every month, 0341 goes past due, a repeat run bills nothing, and the e-mails arrive",
    async () => {
      anchor = addDays(monthsAfter(today(), -4), -10);
      good = await buy(1, "standard", "4242 4242 4242 4242", anchor);
      failing = await buy(2, "basic", "4000 0000 0000 0341", anchor);
      await runJobs(); // the first invoices' receipts
      const invoices = (id: number) => ctx.db("invoices").where({ subscription_id: id }).orderBy("period_start");

      // Month 1: the good card pays, the 0341 card's renewal fails.
      const first = json<Totals>(await haven(["subscriptions", "renew", "--as-of", monthsAfter(anchor, 1), "--json"]));
      expect(first).toMatchObject({ billed: 2, paid: 1, failed: 1 });
      expect((await ctx.container.subscriptions.get(failing.id)).status).toBe("past_due");
      const failed = (await invoices(failing.id)).at(-1);
      expect(failed).toMatchObject({ status: "open", failure_reason: expect.stringMatching(/declined/i) });

      // The same day again: every period is billed already.
      const repeat = json<Totals>(await haven(["subscriptions", "renew", "--as-of", monthsAfter(anchor, 1), "--json"]));
      expect(repeat).toMatchObject({ billed: 0, paid: 0 });

      // Months 2 to 4, in text: progress on stderr, one line per invoice and the counts on stdout.
      for (const month of [2, 3, 4]) {
        const asOf = monthsAfter(anchor, month);
        const r = await haven(["subscriptions", "renew", "--as-of", asOf]);
        expect(r.code, r.stderr).toBe(0);
        noStack(r);
        expect(r.stderr).toContain(`due by the end of ${asOf}`);
        const next = period(anchor, month, timeZone());
        expect(r.stdout).toMatch(
          new RegExp(
            // The invoice's total: $370.00 plus Ontario's HST (docs/decisions.md#32).
            `invoice #\\d+\\s+subscription #${good.id}\\s+${next.startDate} – ${next.endDate}\\s+\\$418\\.10\\s+paid\\s+renewer1@example\\.com`,
          ),
        );
        expect(r.stdout).toContain(`Billed 1 period(s) through ${asOf}: 1 paid, 0 failed`);
        expect(r.stdout).not.toContain(`subscription #${failing.id} `);
        const again = await haven(["subscriptions", "renew", "--as-of", asOf]);
        expect(again.stdout).toContain(`Nothing to bill: every demo period due through ${asOf} is billed`);
      }

      // One invoice per period, none twice: five paid for the good card; the failing one never paid a renewal and,
      // still past due when its next period ended, was canceled (the retries ran out).
      expect((await invoices(good.id)).map((i) => [i.status, i.period_start.toISOString()])).toEqual(
        [0, 1, 2, 3, 4].map((n) => ["paid", period(anchor, n, timeZone()).start.toISOString()]),
      );
      expect((await invoices(failing.id)).filter((i) => i.status === "paid")).toHaveLength(1);
      const ended = await ctx.container.subscriptions.get(failing.id);
      expect(ended.status).toBe("canceled");
      const current = await ctx.container.subscriptions.get(good.id);
      expect(current).toMatchObject({
        status: "active",
        currentPeriodStart: period(anchor, 4, timeZone()).start.toISOString(),
      });

      // The mail jobs, as the worker runs them: five receipts for one, a receipt and the payment-failed e-mail for the other.
      await runJobs();
      const goodMails = await mailsTo("renewer1@example.com");
      expect(goodMails.filter((m) => /receipt/i.test(m.subject ?? ""))).toHaveLength(5);
      const failingMails = await mailsTo("renewer2@example.com");
      expect(failingMails.filter((m) => /receipt/i.test(m.subject ?? ""))).toHaveLength(1);
      const paymentFailed = failingMails.filter((m) => /payment failed/i.test(m.subject ?? ""));
      expect(paymentFailed).toHaveLength(1);
      expect(paymentFailed[0]!.text).toContain(`${PUBLIC_URL}/billing/`);
    },
    SLOW * 3,
  );

  it(
    "list, show, cancel, resume and change-plan, with --json and in text",
    async () => {
      const list = json<Subscription[]>(await haven(["subscriptions", "list", "--status", "active", "--json"]));
      expect(list.map((s) => s.id)).toContain(good.id);
      expect(list.every((s) => s.status === "active")).toBe(true);
      const byPlan = json<Subscription[]>(
        await haven(["subscriptions", "list", "--plan", "basic", "--q", "renewer2", "--json"]),
      );
      expect(byPlan.map((s) => s.id)).toEqual([failing.id]);
      const text = await haven(["subscriptions", "list", "--q", "Renewal Road"]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(new RegExp(`#${good.id}\\s+active\\s+standard\\s+\\$370\\.00/mo`));
      expect(text.stdout).toMatch(/2 of 2 subscription\(s\)\./);

      const detail = json<{
        subscription: Subscription;
        invoices: unknown[];
        events: { kind: string }[];
        services: unknown[];
      }>(await haven(["subscriptions", "show", String(good.id), "--json"]));
      expect(detail.subscription).toMatchObject({
        id: good.id,
        planType: "standard",
        status: "active",
        customerEmail: "renewer1@example.com",
      });
      expect(detail.invoices).toHaveLength(5);
      expect(detail.events.map((e) => e.kind)).toContain("created");
      expect(detail.services.length).toBeGreaterThan(0);
      const shown = await haven(["subscriptions", "show", String(failing.id)]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(`Subscription #${failing.id} (basic, $149.00/month) is canceled`);
      expect(shown.stdout).toMatch(/Invoices \(2\):/);

      // After the minimum term, a cancellation takes effect at the end of the paid period; resume undoes it.
      const paidPeriodEnd = (await ctx.container.subscriptions.get(good.id)).currentPeriodEnd;
      const canceled = json<Subscription>(
        await haven(["subscriptions", "cancel", String(good.id), "--reason", "Moving away", "--json"]),
      );
      expect(canceled).toMatchObject({ status: "active", cancelAt: paidPeriodEnd, cancellationReason: "Moving away" });
      const resumed = await haven(["subscriptions", "resume", String(good.id)]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain(`Subscription #${good.id} continues`);
      expect((await ctx.container.subscriptions.get(good.id)).cancelAt).toBeNull();
      const twice = await haven(["subscriptions", "resume", String(good.id)]);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toMatch(/^haven: .*no cancellation/m);
      noStack(twice);

      // An upgrade applies at once (with a prorated invoice); a downgrade waits for the end of the period.
      const upgraded = json<Subscription>(
        await haven(["subscriptions", "change-plan", String(good.id), "premium", "--json"]),
      );
      expect(upgraded).toMatchObject({ planType: "premium", monthlyAmount: 799 });
      expect(
        await ctx
          .db("invoices")
          .where({ subscription_id: good.id, billing_reason: "subscription_update" })
          .pluck("status"),
      ).toEqual(["paid"]);
      const downgraded = await haven(["subscriptions", "change-plan", String(good.id), "basic"]);
      expect(downgraded.code, downgraded.stderr).toBe(0);
      expect(downgraded.stdout).toContain(`Subscription #${good.id} moves to basic on`);
      expect(await ctx.container.subscriptions.get(good.id)).toMatchObject({
        planType: "premium",
        scheduledPlanType: "basic",
      });
      const same = await haven(["subscriptions", "change-plan", String(good.id), "basic"]);
      expect(same.code).toBe(1);
      noStack(same);

      // Staff (and the CLI) may end one at once; the actor is recorded as cli.
      const now = await haven(["subscriptions", "cancel", String(good.id), "--now", "--reason", "Duplicate purchase"]);
      expect(now.code, now.stderr).toBe(0);
      expect(now.stdout).toContain(`Canceled subscription #${good.id} now`);
      expect(await ctx.container.subscriptions.get(good.id)).toMatchObject({ status: "canceled" });
      const events = await ctx
        .db("subscription_events")
        .where({ subscription_id: good.id, actor: "cli" })
        .pluck("kind");
      expect(events).toEqual(
        expect.arrayContaining([
          "cancel_scheduled",
          "cancel_undone",
          "plan_changed",
          "plan_change_scheduled",
          "canceled",
        ]),
      );
      const again = await haven(["subscriptions", "cancel", String(good.id)]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^haven: .*already ended/m);
    },
    SLOW * 3,
  );

  it(
    "refuses bad input in one line, and an unknown id",
    async () => {
      const cases: [string[], string][] = [
        [["subscriptions", "show", "999999"], "Subscription not found"],
        [["subscriptions", "show", "abc"], "Subscription id must be a positive whole number"],
        [["subscriptions", "list", "--status", "gone"], "Status must be one of"],
        [["subscriptions", "list", "--limit", "0"], "Limit must be a whole number from 1 to 500"],
        [["subscriptions", "change-plan", "1", "gold"], "Plan must be one of basic, standard, premium"],
        [["subscriptions", "renew", "--as-of", "2026-02-30"], "As-of must be a date as YYYY-MM-DD"],
        [["subscriptions", "cancel", "1", "--reason", " "], "Reason must be 1 to 500 characters"],
      ];
      for (const [args, message] of cases) {
        const r = await haven(args);
        expect(r.code, args.join(" ")).toBe(1);
        expect(r.stderr, args.join(" ")).toContain(message);
        noStack(r);
      }
    },
    SLOW * 2,
  );

  it(
    "two renew processes at once bill each period once",
    async () => {
      // Thirty homes whose first period ended two days ago: one period each is due today.
      const start = addDays(monthsAfter(today(), -1), -2);
      const subs: Subscription[] = [];
      for (let n = 100; n < 130; n++) subs.push(await buy(n, "standard", "4242424242424242", start, false));
      const ids = subs.map((s) => s.id);
      // A renewal's receipt is queued as a job naming its invoice (docs/decisions.md#82).
      const mailJobs = async () =>
        Number(
          (
            await ctx.db.raw(
              "select count(*)::int as n from graphile_worker.jobs where task_identifier = 'subscriptions:receipt'",
            )
          ).rows[0].n,
        );
      await runJobs();
      const before = await mailJobs();

      const [a, b] = await Promise.all([
        runHaven(ctx.url, ["subscriptions", "renew", "--json"], { env }),
        runHaven(ctx.url, ["subscriptions", "renew", "--json"], { env }),
      ]);
      const totals = [json<Totals>(a), json<Totals>(b)];
      expect(totals[0]!.billed + totals[1]!.billed).toBe(30);
      const perPeriod = await ctx
        .db("invoices")
        .whereIn("subscription_id", ids)
        .where({ billing_reason: "subscription_cycle" })
        .select("subscription_id")
        .count({ n: "*" })
        .groupBy("subscription_id");
      expect(perPeriod).toHaveLength(30);
      expect(perPeriod.every((r) => Number(r.n) === 1)).toBe(true);
      // One receipt each, not two.
      expect((await mailJobs()) - before).toBe(30);
      for (const s of subs)
        expect((await ctx.container.subscriptions.get(s.id)).currentPeriodStart).toBe(
          period(start, 1, timeZone()).start.toISOString(),
        );
    },
    SLOW * 2,
  );
});
