// The staff subscription list's filter, shared by the list (SubscriptionsRepository.list) and its CSV
// (subscription-export.ts).
import type { Knex } from "knex";
import { propertyMatches, searchPattern } from "../../db/property-search.js";
import type { PlanType } from "../plans/plans.schemas.js";

export interface SubscriptionFilter {
  limit: number;
  offset: number;
  q?: string;
  status?: string;
  plan?: PlanType;
}

/**
 * The staff list's filter (status, plan, a search of the home, the customer's or the payer's e-mail and name) on a
 * query of `subscriptions as s` joined to `properties as p` and `customers as c`: the list and its CSV share it.
 */
export function whereSubscriptionFilter(
  query: Knex.QueryBuilder,
  filter: Pick<SubscriptionFilter, "status" | "plan" | "q">,
): Knex.QueryBuilder {
  if (filter.status) query.where("s.status", filter.status);
  if (filter.plan) query.where("s.plan_type", filter.plan);
  if (filter.q?.trim()) {
    const [sql, bindings] = propertyMatches("p", filter.q);
    const pattern = searchPattern(filter.q);
    query.where((q) =>
      q
        .whereRaw(sql, bindings)
        .orWhereRaw("lower(coalesce(c.email, s.payer_email, '')) like ?", [pattern])
        .orWhereRaw("lower(coalesce(c.name, s.payer_name, '')) like ?", [pattern]),
    );
    // The same match read from trigram indexes (migration 20261214000100): every subscription it can match, each
    // lookup on its own index; the exact test above then runs on those rows alone.
    query.whereRaw(
      `s.id in (select ms.id from subscriptions ms join properties mp on mp.id = ms.property_id where mp.search_text like ?
                union select ms.id from subscriptions ms join customers mc on mc.id = ms.customer_id
                       where lower(mc.email || ' ' || mc.name) like ?
                union select ms.id from subscriptions ms where ms.customer_id is null
                       and lower(coalesce(ms.payer_email, '') || ' ' || coalesce(ms.payer_name, '')) like ?)`,
      [...bindings, pattern, pattern],
    );
  }
  return query;
}
