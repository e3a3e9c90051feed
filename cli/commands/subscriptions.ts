import { type Command, InvalidArgumentError } from "commander";
import type { Container } from "../../src/container.js";
import { addDays, isIsoDate, todayIn } from "../../src/shared/business-time.js";
import { PLAN_TYPES, type PlanType } from "../../src/modules/plans/plans.schemas.js";
import { startOfBusinessDay } from "../../src/modules/subscriptions/index.js";
import { SUBSCRIPTION_STATUSES, type Subscription } from "../../src/modules/subscriptions/subscriptions.constants.js";
import { printJson, withContainer } from "../context.js";

// `haven subscriptions …`: what staff do from /admin/subscriptions, for operators and
// scripts, plus `renew`, the demo provider's billing run (the worker's daily `subscriptions:renew` cron) on demand.
// Every change is recorded with the actor `cli`.

const ACTOR = "cli";
const MAX_ID = 2_147_483_647;
/** How many invoices `renew` lists one per line before it sums up the rest. */
const LISTED = 20;

const subscriptionId = (value: string): number => {
  const id = Number(value);
  if (!/^\d+$/.test(value.trim()) || id < 1 || id > MAX_ID)
    throw new InvalidArgumentError("Subscription id must be a positive whole number");
  return id;
};

const planType = (value: string): PlanType => {
  if (!(PLAN_TYPES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`Plan must be one of ${PLAN_TYPES.join(", ")}`);
  return value as PlanType;
};

const status = (value: string): string => {
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`Status must be one of ${SUBSCRIPTION_STATUSES.join(", ")}`);
  return value;
};

const limit = (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 500)
    throw new InvalidArgumentError("Limit must be a whole number from 1 to 500");
  return n;
};

const searchText = (value: string): string => {
  if (value.length > 200) throw new InvalidArgumentError("Search must be at most 200 characters");
  return value;
};

const reason = (value: string): string => {
  const text = value.trim();
  if (!text || text.length > 500) throw new InvalidArgumentError("Reason must be 1 to 500 characters");
  return text;
};

const asOfDate = (value: string): string => {
  if (!isIsoDate(value)) throw new InvalidArgumentError("As-of must be a date as YYYY-MM-DD");
  return value;
};

/** What `show` prints of a plan service (container.planServices' PlanServiceSchedule). */
interface PlanServiceLine {
  title: string;
  nextDate: string | null;
  held: boolean;
  endedAt: string | null;
  onRequest: boolean;
}

/** The business date of an instant (what staff read on the pages). */
const dateOf = (container: Container, instant: string | null) =>
  instant ? todayIn(container.env.BUSINESS_TZ, new Date(instant)) : "—";
const money = (amount: number) => `$${amount.toFixed(2)}`;

/** One line per subscription, as `list` prints it. */
const row = (container: Container, s: Subscription) =>
  `  #${String(s.id).padEnd(7)} ${s.status.padEnd(18)} ${s.planType.padEnd(9)} ${money(s.monthlyAmount).padStart(9)}/mo  ` +
  `renews ${dateOf(container, s.currentPeriodEnd)}${s.cancelAt ? `  cancels ${dateOf(container, s.cancelAt)}` : ""}  ` +
  `${s.customerName ?? s.customerEmail ?? "—"}${s.propertyAddress ? `, ${s.propertyAddress}` : ""}`;

/** What a subscription's state now means, in one sentence. */
function summary(container: Container, s: Subscription): string {
  const head = `Subscription #${s.id} (${s.planType}, ${money(s.monthlyAmount)}/month) is ${s.status}`;
  if (s.canceledAt) return `${head}: ended on ${dateOf(container, s.canceledAt)}.`;
  const parts = [`${head}; the paid period ends on ${dateOf(container, s.currentPeriodEnd)}`];
  if (s.cancelAt) parts.push(`it cancels on ${dateOf(container, s.cancelAt)} and is not charged after that`);
  if (s.scheduledPlanType) parts.push(`it moves to ${s.scheduledPlanType} on ${dateOf(container, s.scheduledPlanAt)}`);
  return `${parts.join("; ")}.`;
}

/** The end of a business day: `renew --as-of D` bills every period that ended by then. */
const endOfBusinessDay = (date: string, timeZone: string) =>
  new Date(startOfBusinessDay(addDays(date, 1), timeZone).getTime() - 1);

/** Invoices written after `afterId` (the newest invoice before the run), for the run's one-line-per-invoice report. */
async function invoicesSince(container: Container, afterId: number, max: number) {
  return container
    .db("invoices as i")
    .join("subscriptions as s", "s.id", "i.subscription_id")
    .leftJoin("customers as c", "c.id", "s.customer_id")
    .where("i.id", ">", afterId)
    .orderBy("i.id")
    .limit(max)
    .select(
      "i.id",
      "i.subscription_id",
      "i.amount_cents",
      "i.period_start",
      "i.period_end",
      "i.status",
      "i.failure_reason",
      container.db.raw("coalesce(c.email, s.payer_email) as email"),
    );
}

const newestInvoiceId = async (container: Container) =>
  Number((await container.db("invoices").max({ id: "id" }).first())?.id ?? 0);

export function registerSubscriptions(program: Command) {
  const subscriptions = program
    .command("subscriptions")
    .description("Monthly plan subscriptions: list, show, cancel, resume, change plan, and run the demo billing");

  subscriptions
    .command("list")
    .description("List subscriptions, newest first")
    .option("--status <status>", `only this status (${SUBSCRIPTION_STATUSES.join(", ")})`, status)
    .option("--plan <plan>", `only this plan (${PLAN_TYPES.join(", ")})`, planType)
    .option("--q <text>", "only those whose customer name, e-mail or address matches", searchText)
    .option("--limit <n>", "how many (1 to 500)", limit, 50)
    .option("--json", "print the subscriptions as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  haven subscriptions list --status past_due\n  haven subscriptions list --plan premium --q elm --json",
    )
    .action((options: { status?: string; plan?: PlanType; q?: string; limit: number; json?: boolean }) =>
      withContainer(async (container) => {
        const { rows, total, capped } = await container.subscriptions.list({
          limit: options.limit,
          offset: 0,
          q: options.q,
          status: options.status,
          plan: options.plan,
        });
        if (options.json) return printJson(rows);
        if (!rows.length) return console.log("No subscriptions.");
        for (const s of rows) console.log(row(container, s));
        console.log(`${rows.length} of ${total}${capped ? "+" : ""} subscription(s).`);
      }),
    );

  subscriptions
    .command("show")
    .description(
      "One subscription with its invoices, its history (plan changes, cancellations, failed payments) and its plan services",
    )
    .argument("<id>", "the subscription's id", subscriptionId)
    .option("--json", "print it as JSON: {subscription, invoices, events, services}")
    .action((id: number, options: { json?: boolean }) =>
      withContainer(async (container) => {
        const detail = await container.subscriptions.detail(id);
        if (options.json) return printJson(detail);
        const s = detail.subscription;
        console.log(summary(container, s));
        console.log(
          `  customer   ${s.customerName ?? "—"} <${s.customerEmail ?? "—"}>${s.customerId ? ` (customer #${s.customerId})` : ""}`,
        );
        console.log(
          `  property   ${s.propertyAddress ?? "not attached yet"}${s.propertyId ? ` (property #${s.propertyId})` : ""}`,
        );
        console.log(`  provider   ${s.provider}${s.cardLast4 ? `, card ending ${s.cardLast4}` : ""}`);
        console.log(
          `  started    ${dateOf(container, s.startedAt)}; minimum term ends ${dateOf(container, s.minimumTermEndsAt)}`,
        );
        if (s.lastPaymentError) console.log(`  last error ${s.lastPaymentError}`);
        if (s.cancellationReason) console.log(`  reason     ${s.cancellationReason}`);
        console.log(`Invoices (${detail.invoices.length}):`);
        for (const i of detail.invoices) {
          console.log(
            `  ${dateOf(container, i.periodStart)} – ${dateOf(container, i.periodEnd)}  ${money(i.amount).padStart(9)}  ${i.status}${i.paidAt ? ` ${dateOf(container, i.paidAt)}` : ""}${i.failureReason ? ` (${i.failureReason})` : ""}`,
          );
        }
        console.log(`History (${detail.events.length}):`);
        for (const e of detail.events) {
          const plans = e.fromPlan || e.toPlan ? ` ${e.fromPlan ?? "—"} → ${e.toPlan ?? "—"}` : "";
          console.log(`  ${e.createdAt.slice(0, 16).replace("T", " ")}Z  ${e.kind}${plans} by ${e.actor}`);
        }
        console.log(`Plan services (${detail.services.length}):`);
        for (const p of detail.services as PlanServiceLine[]) {
          const when = p.endedAt
            ? `ended ${p.endedAt.slice(0, 10)}`
            : p.onRequest
              ? "on request"
              : `next ${p.nextDate ?? "—"}`;
          console.log(`  ${p.title.padEnd(32)} ${when}${p.held ? " (held: payment past due)" : ""}`);
        }
      }),
    );

  subscriptions
    .command("cancel")
    .description(
      "Cancel at the end of the paid period (before the 3-month minimum ends: at its end), or at once with --now",
    )
    .argument("<id>", "the subscription's id", subscriptionId)
    .option("--now", "end it at once (staff only: nothing more is billed, its plan services end)")
    .option("--reason <text>", "why (kept with the subscription and shown to staff)", reason)
    .option("--json", "print the subscription as JSON")
    .addHelpText(
      "after",
      '\nExamples:\n  haven subscriptions cancel 42 --reason "Moving away"\n  haven subscriptions cancel 42 --now --reason "Duplicate purchase"',
    )
    .action((id: number, options: { now?: boolean; reason?: string; json?: boolean }) =>
      withContainer(async (container) => {
        const s = await container.subscriptions.cancel(id, {
          when: options.now ? "now" : "period_end",
          reason: options.reason ?? null,
          actor: ACTOR,
        });
        if (options.json) return printJson(s);
        if (s.canceledAt) return console.log(`Canceled subscription #${s.id} now: nothing more is billed.`);
        const why =
          s.cancelAt && s.cancelAt === s.minimumTermEndsAt
            ? "the end of the 3-month minimum term"
            : "the end of the paid period";
        console.log(
          `Subscription #${s.id} cancels on ${dateOf(container, s.cancelAt)} (${why}); nothing is charged after that. Undo with: haven subscriptions resume ${s.id}`,
        );
      }),
    );

  subscriptions
    .command("resume")
    .description("Undo a scheduled cancellation (before it takes effect)")
    .argument("<id>", "the subscription's id", subscriptionId)
    .option("--json", "print the subscription as JSON")
    .action((id: number, options: { json?: boolean }) =>
      withContainer(async (container) => {
        const s = await container.subscriptions.resume(id, { actor: ACTOR });
        if (options.json) return printJson(s);
        console.log(
          `Subscription #${s.id} continues: the cancellation is undone; it renews on ${dateOf(container, s.currentPeriodEnd)}.`,
        );
      }),
    );

  subscriptions
    .command("change-plan")
    .description(
      "Change the plan: an upgrade applies at once (a prorated invoice), a downgrade at the end of the period",
    )
    .argument("<id>", "the subscription's id", subscriptionId)
    .argument("<plan>", `the new plan (${PLAN_TYPES.join(", ")})`, planType)
    .option("--json", "print the subscription as JSON")
    .addHelpText("after", "\nExample:\n  haven subscriptions change-plan 42 premium")
    .action((id: number, plan: PlanType, options: { json?: boolean }) =>
      withContainer(
        async (container) => {
          const s = await container.subscriptions.changePlan(id, { planType: plan, actor: ACTOR });
          if (options.json) return printJson(s);
          if (s.scheduledPlanType === plan)
            return console.log(
              `Subscription #${s.id} moves to ${plan} on ${dateOf(container, s.scheduledPlanAt)} (a downgrade waits for the end of the period).`,
            );
          console.log(
            `Subscription #${s.id} is now on ${s.planType} at ${money(s.monthlyAmount)}/month (the rest of this period is invoiced prorated).`,
          );
        },
        { links: true },
      ),
    );

  subscriptions
    .command("renew")
    .description(
      "Bill every demo subscription period that has come due (the worker does this daily); safe to repeat: a period is billed once",
    )
    .option(
      "--as-of <date>",
      "bill what is due by the end of this business day (YYYY-MM-DD; default now): walks a demo forward",
      asOfDate,
    )
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  haven subscriptions renew\n  haven subscriptions renew --as-of 2027-02-01 --json",
    )
    .action((options: { asOf?: string; json?: boolean }) =>
      withContainer(
        async (container) => {
          const timeZone = container.env.BUSINESS_TZ;
          const asOf = options.asOf ? endOfBusinessDay(options.asOf, timeZone) : new Date();
          const through = options.asOf ?? todayIn(timeZone, asOf);
          const before = options.json ? 0 : await newestInvoiceId(container);
          // Progress goes to stderr (one line rewritten on a terminal), so --json output and pipes stay clean.
          const progress = (done: number) => {
            const line = `Renewing: ${done} due subscription(s) processed`;
            if (process.stderr.isTTY) process.stderr.write(`\r${line}`);
            else process.stderr.write(`${line}\n`);
          };
          process.stderr.write(`Billing the demo subscriptions due by the end of ${through} (${timeZone})\n`);
          const result = await container.subscriptions.renewDue(asOf, progress);
          if (process.stderr.isTTY) process.stderr.write("\n");
          if (options.json) return printJson({ asOf: asOf.toISOString(), ...result });
          if (result.billed > 0) {
            const invoices = await invoicesSince(container, before, LISTED + 1);
            for (const i of invoices.slice(0, LISTED)) {
              const amount = money(Number(i.amount_cents) / 100).padStart(9);
              const outcome =
                i.status === "paid" ? "paid" : `${i.status}${i.failure_reason ? `: ${i.failure_reason}` : ""}`;
              console.log(
                `  invoice #${i.id}  subscription #${i.subscription_id}  ${dateOf(container, new Date(i.period_start).toISOString())} – ${dateOf(container, new Date(i.period_end).toISOString())}  ${amount}  ${outcome}  ${i.email ?? ""}`,
              );
            }
            if (result.billed > LISTED) console.log(`  … and ${result.billed - LISTED} more`);
          }
          const extra = [
            result.ended ? `${result.ended} ended` : "",
            result.planChanges ? `${result.planChanges} scheduled plan change(s) applied` : "",
          ]
            .filter(Boolean)
            .join(", ");
          const retries =
            result.paid || result.failed ? `; open invoices retried: ${result.paid} paid, ${result.failed} failed` : "";
          console.log(
            result.billed
              ? `Billed ${result.billed} period(s) through ${through}: ${result.paid} paid, ${result.failed} failed${extra ? `; ${extra}` : ""}.`
              : `Nothing to bill: every demo period due through ${through} is billed${retries}${extra ? `; ${extra}` : ""}.`,
          );
        },
        { links: true },
      ),
    );
}
