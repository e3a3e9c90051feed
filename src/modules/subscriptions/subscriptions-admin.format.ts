// What the staff's subscription pages show, formatted (docs/decisions.md#23–27): labels, dates and amounts in the
// business zone, the next charge, and the properties page's badge and dialog section.
import { ENDED_STATUSES, STATUS_LABELS, type Subscription } from "./subscriptions.schemas.js";
import type { SubscriptionsService } from "./subscriptions.service.js";
import { staffFormatters } from "../../shared/staff-format.js";

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
