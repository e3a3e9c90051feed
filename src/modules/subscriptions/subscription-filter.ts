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

type Match = Pick<SubscriptionFilter, "status" | "plan" | "q">;

/**
 * The exact test (status, plan, a search of the home, the customer's or the payer's e-mail and name) on a query of
 * `subscriptions as s` joined to `properties as p` and `customers as c`. Alone it reads rows in the query's order:
 * the list's page for a common term walks the newest first and stops at its page (docs/decisions.md#77).
 */
export function whereSubscriptionMatch(query: Knex.QueryBuilder, filter: Match): Knex.QueryBuilder {
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
  }
  return query;
}

/**
 * The filter as the CSV reads it: the exact test, on the candidates the trigram indexes give (migration
 * 20261214000100), each lookup on its own index, so a rare term reads indexes only.
 */
export function whereSubscriptionFilter(query: Knex.QueryBuilder, filter: Match): Knex.QueryBuilder {
  whereSubscriptionMatch(query, filter);
  if (filter.q?.trim()) {
    const pattern = searchPattern(filter.q);
    query.whereRaw(
      `s.id in (select ms.id from subscriptions ms join properties mp on mp.id = ms.property_id where mp.search_text like ?
                union select ms.id from subscriptions ms join customers mc on mc.id = ms.customer_id
                       where lower(mc.email || ' ' || mc.name) like ?
                union select ms.id from subscriptions ms where ms.customer_id is null
                       and lower(coalesce(ms.payer_email, '') || ' ' || coalesce(ms.payer_name, '')) like ?)`,
      [pattern, pattern, pattern],
    );
  }
  return query;
}

/**
 * Up to `limit` ids of the subscriptions a search matches (`q` required), each once, in no order: exactly the rows
 * whereSubscriptionMatch keeps. Three lookups, each exact on its own and read from its own index (the home's, the
 * customer's, a payer's without a customer); the second and third leave out a row whose home matched, so none is
 * counted twice. Each home's subscriptions are read by their own index (`offset 0` keeps that a nested loop), so the
 * limit stops a common term early, while a rare one reads trigram indexes only (docs/decisions.md#77).
 */
export async function matchingIds(db: Knex, filter: Match, limit: number): Promise<number[]> {
  const { rows } = await matchingIdsQuery(db, filter, limit);
  return rows.map((r: { id: number }) => r.id);
}

/** matchingIds' query (its EXPLAIN is tested). */
export function matchingIdsQuery(db: Knex, filter: Match, limit: number): Knex.Raw {
  const pattern = searchPattern(filter.q ?? "");
  const only: string[] = [];
  const bindings: string[] = [];
  if (filter.status) {
    only.push("and s.status = ?");
    bindings.push(filter.status);
  }
  if (filter.plan) {
    only.push("and s.plan_type = ?");
    bindings.push(filter.plan);
  }
  const and = only.join(" ");
  return db.raw(
    `select m.id from (
       select x.id from properties p,
              lateral (select s.id from subscriptions s where s.property_id = p.id ${and} offset 0) x
        where p.search_text like ?
       union all
       select s.id from subscriptions s join customers c on c.id = s.customer_id
              left join properties p on p.id = s.property_id
        where lower(c.email || ' ' || c.name) like ? and (lower(c.email) like ? or lower(c.name) like ?)
          and (p.search_text like ?) is not true ${and}
       union all
       select s.id from subscriptions s left join properties p on p.id = s.property_id
        where s.customer_id is null
          and lower(coalesce(s.payer_email, '') || ' ' || coalesce(s.payer_name, '')) like ?
          and (lower(coalesce(s.payer_email, '')) like ? or lower(coalesce(s.payer_name, '')) like ?)
          and (p.search_text like ?) is not true ${and}
       limit ?) m`,
    [
      ...bindings,
      pattern,
      pattern,
      pattern,
      pattern,
      pattern,
      ...bindings,
      pattern,
      pattern,
      pattern,
      pattern,
      ...bindings,
      limit,
    ],
  );
}
