import type Stripe from "stripe";
import { type Province, type TaxRate, ratesOn } from "../tax/index.js";

/**
 * The metadata that finds one of Haven's rates again among the account's Tax Rate objects: province, kind,
 * percent and the day it applies from ("ON-HST-13-2010-07-01"). A new rate (a new row in the tax module) is a new
 * object; an old one is never edited, so past invoices keep theirs (docs/tax.md).
 */
export const taxRateKey = (rate: Pick<TaxRate, "province" | "kind" | "percent" | "from">) =>
  `${rate.province}-${rate.kind}-${rate.percent}-${rate.from}`;

/**
 * Haven's tax rates as Stripe Tax Rate objects (docs/decisions.md#32): exclusive (prices are before tax), found by
 * `metadata.haven_tax` or created once, and cached for the life of the process. Subscriptions set them on each
 * subscription; with STRIPE_AUTOMATIC_TAX=true, Stripe Tax computes the tax instead and these are not used.
 */
export class StripeTaxRates {
  private readonly ids = new Map<string, Promise<string>>();

  constructor(private readonly stripe: Stripe) {}

  /** The Tax Rate ids of a province's rates on a day (YYYY-MM-DD in the business's time zone). */
  async idsFor(province: Province, day: string): Promise<string[]> {
    return Promise.all(ratesOn(province, day).map((rate) => this.idFor(rate)));
  }

  private idFor(rate: TaxRate): Promise<string> {
    const key = taxRateKey(rate);
    let id = this.ids.get(key);
    if (!id) {
      id = this.findOrCreate(rate, key);
      // A failed call is not remembered: the next purchase asks again.
      id.catch(() => this.ids.delete(key));
      this.ids.set(key, id);
    }
    return id;
  }

  private async findOrCreate(rate: TaxRate, key: string): Promise<string> {
    for await (const found of this.stripe.taxRates.list({ active: true, limit: 100 })) {
      if (found.metadata?.haven_tax === key) return found.id;
    }
    const created = await this.stripe.taxRates.create(
      {
        display_name: rate.kind,
        description: `${rate.kind} ${rate.percent}% (${rate.province}), from ${rate.from}`,
        percentage: rate.percent,
        inclusive: false,
        country: "CA",
        state: rate.province,
        jurisdiction: rate.province,
        tax_type: rate.kind === "GST" ? "gst" : rate.kind === "HST" ? "hst" : "qst",
        metadata: { haven_tax: key },
      },
      // Two processes creating the same rate at once get one object.
      { idempotencyKey: `haven-tax-rate-${key}` },
    );
    return created.id;
  }
}

const shared = new WeakMap<Stripe, StripeTaxRates>();

/** One StripeTaxRates per Stripe client, so payments and subscriptions share its cache. */
export function stripeTaxRates(stripe: Stripe): StripeTaxRates {
  let rates = shared.get(stripe);
  if (!rates) {
    rates = new StripeTaxRates(stripe);
    shared.set(stripe, rates);
  }
  return rates;
}
