// What follows a homeowner's yes (docs/decisions.md#43). Every path that accepts a quote (My Home, the quote report
// link, staff on their behalf) schedules its task through the quotes service's `maintenance.setTaskStatus` port in
// the acceptance's transaction; this port adds the after-yes step there: the quote's invoice and the e-mail with its
// pay link, in that same transaction. The container passes it to QuotesService in place of the bare service.
import type { Tx } from "../../db/transaction.js";
import type { MaintenanceService } from "../maintenance/index.js";
import type { QuotePayments } from "./quote-payments.js";

type SetTaskStatus = Pick<MaintenanceService, "setTaskStatus">;

/** `maintenance` with the after-yes step: a task moved to `scheduled` by an acceptance gets its quote invoiced. */
export function withAfterYes(
  maintenance: SetTaskStatus,
  payments: Pick<QuotePayments, "onAccepted">,
  clock: () => Date = () => new Date(),
): SetTaskStatus {
  return {
    async setTaskStatus(id: number, status: Parameters<SetTaskStatus["setTaskStatus"]>[1], tx?: Tx) {
      const task = await maintenance.setTaskStatus(id, status, tx);
      // The quotes service moves a task to scheduled only when its quote is accepted, always inside a transaction.
      if (status === "scheduled" && tx) await payments.onAccepted(id, tx, clock());
      return task;
    },
  };
}
