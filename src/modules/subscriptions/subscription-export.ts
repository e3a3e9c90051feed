// GET /api/subscriptions?format=csv (invoices.md, "CSV"): every subscription of the list's filter, no paging,
// streamed from a cursor with the price list it was sold from. The same filter as SubscriptionsRepository.list.
import type { Knex } from "knex";
import { cursorBatches } from "../../db/cursor.js";
import type { PlanType } from "../plans/plans.schemas.js";
import { publicSubscription } from "./provider-state.js";
import type { Subscription } from "./subscriptions.constants.js";
import { whereSubscriptionFilter } from "./subscription-filter.js";
import { toSubscription } from "./subscriptions.repository.js";

export interface SubscriptionExportFilter {
  q?: string;
  status?: string;
  plan?: PlanType;
}

/** A CSV row: the list's subscription and its price list (docs/decisions.md#23). */
export type SubscriptionExportRow = Subscription & { priceList: "pricing" | "checkout" };

export class SubscriptionExport {
  constructor(private readonly db: Knex) {}

  /** The list's query, newest first, without limit or offset. */
  query(filter: SubscriptionExportFilter): Knex.QueryBuilder {
    const query = this.db("subscriptions as s")
      .leftJoin("customers as c", "c.id", "s.customer_id")
      .leftJoin("properties as p", "p.id", "s.property_id")
      .select(
        "s.*",
        "c.name as customer_name",
        "c.email as customer_email",
        this.db.raw("concat_ws(', ', p.address, p.city) as property_address"),
      );
    whereSubscriptionFilter(query, filter);
    return query.orderBy([
      { column: "s.created_at", order: "desc" },
      { column: "s.id", order: "desc" },
    ]);
  }

  /** Every matching row, a batch at a time. */
  batches(filter: SubscriptionExportFilter): AsyncIterable<SubscriptionExportRow[]> {
    return cursorBatches(this.db, this.query(filter), (row) => {
      const sub = toSubscription(row);
      return { ...publicSubscription(sub), priceList: sub.priceList };
    });
  }
}
