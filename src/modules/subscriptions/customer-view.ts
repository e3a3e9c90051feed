// What a customer sees of their subscription (the billing page, My Home's Plan): nothing staff-only. Pure.
import { cancellationTakesEffect } from "./billing-dates.js";
import {
  type CustomerSubscriptionView,
  ENDED_STATUSES,
  type Invoice,
  STATUS_LABELS,
  type Subscription,
  isKnownStatus,
} from "./subscriptions.constants.js";

export function toCustomerView(
  sub: Subscription & { priceList?: "pricing" | "checkout"; lastPaymentErrorCode?: string | null },
  invoices: Invoice[],
  planName: string,
  now: Date,
): CustomerSubscriptionView {
  const ended = ENDED_STATUSES.includes(sub.status);
  const takesEffect = cancellationTakesEffect({
    now,
    minimumTermEndsAt: new Date(sub.minimumTermEndsAt),
    currentPeriodEnd: new Date(sub.currentPeriodEnd),
  });
  return {
    subscription: {
      id: sub.id,
      propertyId: sub.propertyId,
      propertyAddress: sub.propertyAddress,
      planType: sub.planType,
      planName,
      status: sub.status,
      statusLabel: isKnownStatus(sub.status) ? STATUS_LABELS[sub.status] : sub.status,
      provider: sub.provider,
      startedAt: sub.startedAt,
      currentPeriodStart: sub.currentPeriodStart,
      currentPeriodEnd: sub.currentPeriodEnd,
      minimumTermEndsAt: sub.minimumTermEndsAt,
      cancelAt: sub.cancelAt,
      canceledAt: sub.canceledAt,
      monthlyAmount: sub.monthlyAmount,
      priceList: sub.priceList ?? "pricing",
      scheduledPlanType: sub.scheduledPlanType,
      scheduledPlanAt: sub.scheduledPlanAt,
      cardLast4: sub.cardLast4,
      // The reason a payment failed, only while it matters.
      lastPaymentError: sub.status === "past_due" ? sub.lastPaymentError : null,
      lastPaymentErrorCode: sub.status === "past_due" ? (sub.lastPaymentErrorCode ?? null) : null,
    },
    invoices: invoices.map(
      ({
        id,
        number,
        issuedAt,
        amount,
        subtotal,
        tax,
        taxLines,
        refunded,
        currency,
        periodStart,
        periodEnd,
        status,
        paidAt,
        failureReason,
      }) => ({
        id,
        number,
        issuedAt,
        amount,
        subtotal,
        tax,
        taxLines: taxLines.map((l) => ({ label: l.label, amountCents: l.amountCents })),
        refunded,
        currency,
        periodStart,
        periodEnd,
        status,
        paidAt,
        failureReason,
      }),
    ),
    ended,
    cancellation: ended
      ? null
      : {
          takesEffectAt: takesEffect.toISOString(),
          atMinimumTerm: takesEffect.getTime() === new Date(sub.minimumTermEndsAt).getTime(),
        },
  };
}
