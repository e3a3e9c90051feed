import type { Task } from "graphile-worker";
import { REFUNDS_FINISH_TASK } from "./refund-requests.repository.js";
import type { RefundsService } from "./refunds.js";

export { REFUNDS_FINISH_TASK };

/**
 * The `refunds:finish` job (docs/decisions.md#52): a Stripe refund whose answer was not recorded is found at Stripe or
 * sent again with its key, then its credit note is made. It throws while something is left, and graphile-worker
 * tries again with its backoff (up to 25 times, some days).
 */
export const refundsFinishTask =
  (refunds: Pick<RefundsService, "finish">): Task =>
  async (payload) => {
    const requestId = Number((payload as { requestId?: unknown } | null)?.requestId);
    if (Number.isSafeInteger(requestId) && requestId > 0) await refunds.finish(requestId);
  };
