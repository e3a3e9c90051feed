// Stripe's hosted invoice page shows Haven's number (docs/decisions.md#54). The 3-D Secure e-mail links an open
// invoice's hosted page, which shows Stripe's own number, so Haven adds a custom field `Invoice: HAV-…` once it has
// numbered the invoice. Stripe takes custom fields on draft and open invoices only, at most 4, a name of at most 40
// and a value of at most 140 characters, and a list given replaces the invoice's whole list: the other fields Stripe
// has are sent back with Haven's. A paid invoice is never updated. Called after the transaction that stored the
// invoice has committed, never under a lock; a failure is logged, and the next webhook or reconciliation tries again.
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { Invoice, ProviderInvoiceState } from "./invoices.constants.js";

/** The custom field's name on Stripe's page. */
export const NUMBER_FIELD = "Invoice";
/** Stripe's limit on an invoice's custom fields. */
const MAX_FIELDS = 4;

export interface StripeInvoiceNumbersDeps {
  stripe: Pick<Stripe, "invoices">;
  /** The stored invoice of a provider id (its number). */
  invoices: { findByProviderId(provider: string, providerInvoiceId: string): Promise<Invoice | null> };
  log?: Logger;
}

export class StripeInvoiceNumbers {
  constructor(private readonly deps: StripeInvoiceNumbersDeps) {}

  /** Each open Stripe invoice Haven has numbered gets its number on Stripe's page, once. Never throws. */
  async show(invoices: (ProviderInvoiceState | null | undefined)[]): Promise<void> {
    const seen = new Set<string>();
    for (const invoice of invoices) {
      if (invoice?.provider !== "stripe" || invoice.status !== "open") continue;
      if (seen.has(invoice.providerInvoiceId)) continue;
      seen.add(invoice.providerInvoiceId);
      try {
        await this.showOne(invoice);
      } catch (error) {
        // A refusal (4xx) is expected when the invoice was paid or closed meanwhile: Stripe no longer takes the field.
        const refused = ((error as { statusCode?: number }).statusCode ?? 500) < 500;
        this.deps.log?.[refused ? "info" : "warn"](
          { err: error, invoice: invoice.providerInvoiceId },
          "Haven's invoice number was not set on Stripe's invoice",
        );
      }
    }
  }

  private async showOne(invoice: ProviderInvoiceState): Promise<void> {
    const stored = await this.deps.invoices.findByProviderId("stripe", invoice.providerInvoiceId);
    const number = stored?.number;
    if (!number || stored.status === "paid") return;
    const fields = invoice.customFields ?? [];
    if (fields.some((f) => f.name === NUMBER_FIELD && f.value === number)) return;
    const others = fields.filter((f) => f.name !== NUMBER_FIELD);
    if (others.length >= MAX_FIELDS) {
      this.deps.log?.warn(
        { invoice: invoice.providerInvoiceId, number },
        "Stripe's invoice already has 4 custom fields: Haven's number is not added",
      );
      return;
    }
    await this.deps.stripe.invoices.update(invoice.providerInvoiceId, {
      custom_fields: [...others, { name: NUMBER_FIELD, value: number }],
    });
  }
}
