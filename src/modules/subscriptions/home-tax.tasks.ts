// The jobs of the tax following the home (docs/decisions.md#57, home-tax.ts). Each is queued in the transaction of
// what caused it, so it cannot be lost, and runs outside it: Stripe is called with no lock held.
import type { Task } from "graphile-worker";
import type { Tx } from "../../db/transaction.js";
import { todayIn } from "../../shared/business-time.js";
import { HOME_MOVED_TASK } from "../customers/index.js";
import { ratesChangeOn } from "../tax/index.js";
import type { HomeTax } from "./home-tax.js";

/** One subscription follows its home; `settle` (intake) settles its first invoice's difference too. */
export const HOME_TAX_TASK = "subscriptions:home-tax";
/** Hourly: on the day a rate starts or stops, and the day after, every live subscription takes the day's rates. */
export const HOME_TAX_RATES_TASK = "subscriptions:tax-rates";
export const HOME_TAX_CRONTAB = `40 * * * * ${HOME_TAX_RATES_TASK}`;
export { HOME_MOVED_TASK };

/** Queued in the caller's transaction (intake's); retried with graphile-worker's backoff while Stripe fails. */
export async function queueHomeTax(tx: Tx, subscriptionId: number, settle: boolean): Promise<void> {
  await tx.raw(
    "select graphile_worker.add_job(?, json_build_object('subscriptionId', ?::int, 'settle', ?::boolean), max_attempts => 25, job_key => ?)",
    [HOME_TAX_TASK, subscriptionId, settle, `home-tax:${subscriptionId}:${settle}`],
  );
}

const positive = (value: unknown) => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

export const homeTaxTask =
  (homeTax: Pick<HomeTax, "follow">): Task =>
  async (payload) => {
    const { subscriptionId, settle } = (payload ?? {}) as { subscriptionId?: unknown; settle?: unknown };
    const id = positive(subscriptionId);
    if (id) await homeTax.follow(id, { settle: settle === true, actor: settle === true ? "customer" : "system" });
  };

/** The customers module's event: staff changed a home's address (customers.service.ts editProperty). */
export const homeMovedTask =
  (homeTax: Pick<HomeTax, "followProperty">): Task =>
  async (payload) => {
    const id = positive((payload as { propertyId?: unknown } | null)?.propertyId);
    if (id) await homeTax.followProperty(id);
  };

export const homeTaxRatesTask =
  (homeTax: Pick<HomeTax, "followAll">, timeZone: string, clock: () => Date = () => new Date()): Task =>
  async (_payload, helpers) => {
    const now = clock();
    const today = todayIn(timeZone, now);
    const yesterday = todayIn(timeZone, new Date(now.getTime() - 86_400_000));
    if (!ratesChangeOn(today) && !ratesChangeOn(yesterday)) return;
    const { followed, failed } = await homeTax.followAll(now);
    helpers.logger.info(`tax rates of ${today}: ${followed} subscription(s) followed, ${failed} failed`);
  };
