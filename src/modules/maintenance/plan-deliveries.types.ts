// The shapes PlanDeliveries (plan-deliveries.ts) takes and gives: a plan service, a subscription, a sync's result.
import type { PlanType } from "../plans/plans.schemas.js";

/** A plan service of a subscription, as staff pages and the API show it. */
export interface PlanServiceSchedule {
  scheduleId: number;
  /** 'window-cleaning', 'hvac-maintenance/furnace' (plans.catalog.ts PLAN_SERVICES keys). */
  service: string;
  title: string;
  rrule: string | null;
  /** The next visit on or after today (a task's date, else the rule's); null when ended or on request. */
  nextDate: string | null;
  held: boolean;
  endedAt: string | null;
  onRequest: boolean;
}

export interface PlanServiceSubscription {
  id: number;
  propertyId: number | null;
  planType: PlanType;
  status: string;
  /** The subscription's start date in the business zone, 'YYYY-MM-DD'. */
  anchor: string;
}

export interface SyncResult {
  /** Schedules made, or reopened (a service added back after a downgrade). */
  added: number;
  /** Schedules ended (a downgrade, or the subscription ended). */
  ended: number;
  /** Future tasks held now (past due), and tasks released (paid again). */
  held: number;
  released: number;
}
