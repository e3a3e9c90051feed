// What subscriptions calls in maintenance's PlanDeliveries (docs/decisions.md#26: what each plan delivers, as
// maintenance schedules). Maintenance sits above subscriptions (docs/architecture.md), so this module names what
// it calls here and container.ts passes the PlanDeliveries instance.
import type { Tx } from "../../db/transaction.js";
import type { PlanType } from "../plans/index.js";

/** A plan service of a subscription, as staff pages, the API and the CLI show it. */
export interface PlanDeliverySchedule {
  scheduleId: number;
  /** 'window-cleaning', 'hvac-maintenance/furnace' (plans.catalog.ts PLAN_SERVICES keys). */
  service: string;
  title: string;
  rrule: string | null;
  /** The next visit on or after today; null when ended or on request. */
  nextDate: string | null;
  held: boolean;
  endedAt: string | null;
  onRequest: boolean;
}

export interface PlanDeliveryListener {
  /** The subscription changed (plan, status, property): its plan services follow, in the caller's transaction. */
  sync(
    tx: Tx,
    sub: { id: number; propertyId: number; planType: PlanType; status: string; anchor: string },
    today: string,
  ): Promise<unknown>;
  forSubscription(subscriptionId: number): Promise<PlanDeliverySchedule[]>;
  /** A dated task for one of the plan's on-request services, asked for by staff or the homeowner. */
  requestService(
    input: { subscriptionId: number; service: string; date: string; notes?: string | null; source: "staff" | "portal" },
    now?: Date,
  ): Promise<unknown>;
}
