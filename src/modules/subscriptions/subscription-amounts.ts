// What a subscription's charges come to, tax included (docs/decisions.md#57, #63): the province its tax follows, a
// charge with that tax on its day, and an upgrade's prorated charge before it is confirmed. My Home's plan pages and
// the billing link page say these whole.
import type { PlanType, PlansService } from "../plans/index.js";
import type { Province } from "../tax/index.js";
import type { BillingPortal, BillingProvider } from "./billing-provider.js";
import { type ChargeWithTax, chargeWithTax } from "./charge-with-tax.js";
import type { DemoBilling } from "./demo-billing.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import { type UpgradePreview, previewUpgrade } from "./upgrade-preview.js";

export interface SubscriptionAmountsDeps {
  repo: SubscriptionsRepository;
  plans: PlansService;
  demo: DemoBilling;
  stripe: (BillingProvider & BillingPortal) | null;
  timeZone: string;
  clock: () => Date;
}

export class SubscriptionAmounts {
  constructor(private readonly deps: SubscriptionAmountsDeps) {}

  /** The province whose tax its charges carry: its home's (docs/decisions.md#57), as the invoice write path finds it. */
  async taxProvince(id: number): Promise<Province> {
    return (await this.deps.repo.invoiceRows.provinces([id])).get(id)!;
  }

  /** A charge of this subscription's with its home's tax on the day it is made (docs/decisions.md#63). */
  async chargeWithTax(id: number, subtotalCents: number, at: Date | string): Promise<ChargeWithTax> {
    return chargeWithTax(subtotalCents, await this.taxProvince(id), at, this.deps.timeZone);
  }

  /** An upgrade's prorated charge, tax included, before it is confirmed (upgrade-preview.ts). */
  previewUpgrade(id: number, planType: PlanType, at: Date = this.deps.clock()): Promise<UpgradePreview | null> {
    const { repo, plans, demo, stripe } = this.deps;
    const withTax = (sid: number, cents: number, when: Date) => this.chargeWithTax(sid, cents, when);
    return previewUpgrade({ repo, plans, demo, stripe, withTax }, id, planType, at);
  }
}
