// What the staff's subscription pages show, formatted (docs/decisions.md#23–27): labels, dates and amounts in the
// business zone, the next charge, and the properties page's badge and dialog section.
import { ENDED_STATUSES, STATUS_LABELS, type Subscription } from "./subscriptions.schemas.js";
import type { SubscriptionsService } from "./subscriptions.service.js";
import { staffFormatters } from "../../shared/staff-format.js";

/** The subscription page's actions, each named in `?done=` once made. */
export const ACTIONS = ["cancel", "resume", "change-plan", "service-request", "refund", "refund-pending"] as const;
export type Action = (typeof ACTIONS)[number];
export type Notice = { variant: "success" | "error" | "info"; title: string; description?: string };

export const statusLabel = (status: string) => STATUS_LABELS[status as keyof typeof STATUS_LABELS] ?? status;

const EVENT_LABELS: Record<string, string> = {
  created: "Started",
  activated: "Activated",
  plan_changed: "Plan changed",
  plan_change_scheduled: "Plan change scheduled",
  plan_change_undone: "Scheduled plan change taken back",
  plan_change_declined: "Upgrade declined: the card was refused",
  cancel_scheduled: "Cancellation scheduled",
  cancel_undone: "Cancellation undone",
  canceled: "Canceled",
  payment_failed: "Payment failed",
  payment_recovered: "Payment recovered",
  status_changed: "Status changed",
  card_updated: "Card updated",
  refunded: "Refunded",
  disputed: "Payment disputed",
  dispute_lost: "Dispute lost",
  dispute_won: "Dispute won",
};

/** Dates and amounts as staff read them, in the business zone, with the subscriptions' labels. */
export function formatters(timeZone: string) {
  return {
    ...staffFormatters(timeZone),
    statusLabel,
    eventLabel: (kind: string) => EVENT_LABELS[kind] ?? kind.replace(/_/g, " "),
  };
}

/** When the subscription is charged next, or null when it will not be (ended, or canceled by then). */
export function nextCharge(sub: Subscription): string | null {
  if (ENDED_STATUSES.includes(sub.status)) return null;
  if (sub.cancelAt && new Date(sub.cancelAt) <= new Date(sub.currentPeriodEnd)) return null;
  return sub.currentPeriodEnd;
}

/**
 * Which of these properties have a past-due subscription (the properties page's red badge). One small indexed
 * read per card (20 a page) through the service's forProperty.
 */
export async function pastDueProperties(
  source: { subscriptions: Pick<SubscriptionsService, "pastDuePropertyIds"> },
  propertyIds: number[],
): Promise<Set<number>> {
  return new Set(await source.subscriptions.pastDuePropertyIds(propertyIds));
}

/** The property dialog's subscription section. */
export async function propertySubscription(
  source: { subscriptions: Pick<SubscriptionsService, "forProperty">; env: { BUSINESS_TZ: string } },
  propertyId: number,
) {
  const found = await source.subscriptions.forProperty(propertyId);
  if (!found) return null;
  return { ...found, nextCharge: nextCharge(found.subscription), fmt: formatters(source.env.BUSINESS_TZ) };
}

/** What the page says once an action is made. */
export const noticeFor = (
  action: Action,
  s: Subscription,
  planName: (t: string | null) => string,
  fmt: ReturnType<typeof formatters>,
): Notice => {
  switch (action) {
    case "cancel":
      return ENDED_STATUSES.includes(s.status)
        ? {
            variant: "success",
            title: "Subscription canceled",
            description: `It ended on ${fmt.day(s.canceledAt)}. Nothing more will be charged.`,
          }
        : {
            variant: "success",
            title: "Cancellation scheduled",
            description: `It takes effect on ${fmt.day(s.cancelAt)}. Nothing is charged after that date.`,
          };
    case "resume":
      return {
        variant: "success",
        title: "Cancellation undone",
        description: `The ${planName(s.planType)} plan continues.`,
      };
    case "change-plan":
      return s.scheduledPlanType
        ? {
            variant: "success",
            title: "Plan change scheduled",
            description: `${planName(s.scheduledPlanType)} applies on ${fmt.day(s.scheduledPlanAt)}, at the end of the period.`,
          }
        : {
            variant: "success",
            title: "Plan changed",
            description: `Now on ${planName(s.planType)}, with a prorated charge for the rest of this period.`,
          };
    case "refund":
      return { variant: "success", title: "Refund made", description: "The customer is e-mailed its credit note." };
    case "refund-pending": // docs/decisions.md#52: sent to Stripe, not confirmed; a repeat does not refund twice.
      return { variant: "info", title: "Refund sent, waiting for Stripe", description: "Checked again shortly." };
    case "service-request":
      return {
        variant: "success",
        title: "Service requested",
        description: "It is on the maintenance calendar as a dated task.",
      };
  }
};
