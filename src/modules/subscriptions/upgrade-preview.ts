// What an upgrade charges today, shown before the homeowner confirms it (docs/decisions.md#63), computed the way the
// provider will charge it: the demo provider's own proration (demo-billing.ts) taxed as its invoice is, or Stripe's
// invoice preview (`invoices.createPreview`). Both are computed at one instant, `prorationDate`, that the confirmation
// sends back, so the invoice then charged is the figure shown.
import type { PlanType, PlansService } from "../plans/index.js";
import type { BillingPortal } from "./billing-provider.js";
import type { ChargeWithTax } from "./charge-with-tax.js";
import { type DemoBilling, prorate } from "./demo-billing.js";
import { loadSubscription } from "./provider-state.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";

export interface UpgradePreview extends ChargeWithTax {
  /** The instant it is prorated at (whole seconds, as Stripe's `proration_date`): the confirmation sends it back. */
  prorationDate: string;
}

export interface UpgradePreviewDeps {
  repo: Pick<SubscriptionsRepository, "find">;
  plans: Pick<PlansService, "list">;
  demo: Pick<DemoBilling, "amountFor">;
  stripe: Pick<BillingPortal, "previewUpgrade"> | null;
  /** The subscription's tax on a charge (SubscriptionsService.chargeWithTax: the home's province). */
  withTax(id: number, subtotalCents: number, at: Date): Promise<ChargeWithTax>;
}

/** The prorated charge of an upgrade to `planType` at `at`; null when it is not an upgrade or bills nothing. */
export async function previewUpgrade(
  deps: UpgradePreviewDeps,
  id: number,
  planType: PlanType,
  at: Date,
): Promise<UpgradePreview | null> {
  const sub = await loadSubscription(deps.repo, id);
  const plans = await deps.plans.list();
  const current = plans.find((p) => p.type === sub.planType);
  const target = plans.find((p) => p.type === planType);
  if (!current || !target || target.price <= current.price) return null;
  const when = new Date(Math.floor(at.getTime() / 1000) * 1000);
  const amountCents = deps.demo.amountFor(target, current, sub);
  let charge: ChargeWithTax;
  if (sub.provider === "demo") {
    const cents = prorate(
      amountCents - Math.round(sub.monthlyAmount * 100),
      new Date(sub.currentPeriodStart),
      new Date(sub.currentPeriodEnd),
      when,
    );
    charge = await deps.withTax(id, cents, when);
  } else {
    if (!deps.stripe) return null;
    charge = await deps.stripe.previewUpgrade(sub, { ...target, amountCents }, when);
  }
  return charge.totalCents > 0 ? { ...charge, prorationDate: when.toISOString() } : null;
}
