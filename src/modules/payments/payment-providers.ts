// Stripe's payment provider (the real SDK; docs/decisions.md#4, #32), the SDK client factory and the provider
// PAYMENTS_MODE names. The shared shapes are provider-types.ts; the demo provider is demo-provider.ts.
import Stripe from "stripe";
import type { Env } from "../../config/env.js";
import { localePath } from "../../i18n/index.js";
import type { Plan } from "../plans/index.js";
import type { NewPayment, PaymentsRepository } from "./payments.repository.js";
import { DemoProvider } from "./demo-provider.js";
import {
  CURRENCY,
  NOT_PAID,
  type PaymentProvider,
  ProviderUnavailableError,
  type Purchase,
  type StripeSubscriptionSide,
  type Verification,
  invoiceSubscriptionId,
  planOf,
} from "./provider-types.js";
import { type StripeTaxRates, stripeTaxRates } from "./stripe-tax-rates.js";

/** Stripe metadata: a purchase's home and price list, which subscriptions reads back (docs/decisions.md#32). */
function purchaseMetadata(plan: Pick<Plan, "type">, purchase: Purchase): Record<string, string> {
  return {
    plan: plan.type,
    price_list: purchase.priceList,
    ...(purchase.postalCode ? { postal_code: purchase.postalCode } : {}),
  };
}

/** The payment a completed Checkout Session stands for, or null while it is unpaid. */
export function sessionPayment(session: Stripe.Checkout.Session): NewPayment | null {
  if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required") return null;
  return {
    provider: "stripe",
    providerId: session.id,
    kind: "checkout_session",
    planType: planOf(session.metadata),
    amountCents: session.amount_total ?? 0,
    currency: session.currency ?? CURRENCY,
    customerEmail: session.customer_details?.email ?? null,
    customerName: session.customer_details?.name ?? null,
    status: "succeeded",
  };
}

/**
 * The one-time payment a succeeded PaymentIntent stands for: only Haven's own one-time intents from before
 * subscriptions (they carry metadata.plan). An intent that a Checkout Session created is left out
 * (checkout.session.completed records that money), and so is an invoice's (revenue counts the invoice).
 */
export function intentPayment(intent: Stripe.PaymentIntent): NewPayment | null {
  if (intent.status !== "succeeded" || intent.metadata?.source === "checkout_session" || !planOf(intent.metadata))
    return null;
  return {
    provider: "stripe",
    providerId: intent.id,
    kind: "payment_intent",
    planType: planOf(intent.metadata),
    amountCents: intent.amount_received || intent.amount,
    currency: intent.currency ?? CURRENCY,
    customerEmail: intent.receipt_email ?? null,
    customerName: intent.metadata?.name ?? null,
    status: "succeeded",
  };
}

/** The real Stripe SDK; STRIPE_API_BASE points it elsewhere (the tests' local stand-in). */
export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  const target = apiBase ? new URL(apiBase) : null;
  return new Stripe(secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    appInfo: { name: "Haven" },
    ...(target && {
      host: target.hostname,
      port: target.port || (target.protocol === "http:" ? 80 : 443),
      protocol: target.protocol === "http:" ? "http" : "https",
    }),
  });
}

export class StripeProvider implements PaymentProvider {
  readonly name = "stripe" as const;
  private readonly taxRates: StripeTaxRates;
  constructor(
    private readonly stripe: Stripe,
    private readonly billing: StripeSubscriptionSide,
    /** STRIPE_AUTOMATIC_TAX: Stripe Tax computes the tax instead of Haven's Tax Rate objects (docs/tax.md). */
    private readonly automaticTax = false,
  ) {
    this.taxRates = stripeTaxRates(stripe);
  }

  /** The exclusive Tax Rate objects of the home's province today; none when Stripe Tax computes the tax. */
  private async taxRateIds(purchase: Purchase): Promise<string[]> {
    // No lines: the business charges no tax (not registered, docs/tax.md).
    if (this.automaticTax || !purchase.taxed.lines.length) return [];
    return this.taxRates.idsFor(purchase.taxed.province, purchase.day);
  }

  /**
   * docs/decisions.md#23: a subscription-mode Checkout Session at the pricing page's monthly price (a recurring
   * Price), its line taxed with the home's rates (#32) so Stripe's page shows the tax and total before Pay.
   */
  async createCheckoutSession(plan: Plan, baseUrl: string, purchase: Purchase) {
    const metadata = purchaseMetadata(plan, purchase);
    const session = await this.call(async () => {
      const price = await this.billing.priceFor(plan, plan.price * 100);
      const taxRates = await this.taxRateIds(purchase);
      return this.stripe.checkout.sessions.create({
        mode: "subscription",
        // Stripe's page in the language of the pricing page the plan was chosen on (docs/decisions.md#65).
        locale: purchase.locale,
        line_items: [{ price, quantity: 1, ...(taxRates.length ? { tax_rates: taxRates } : {}) }],
        // Stripe Tax needs the customer's address; Checkout asks for it.
        ...(this.automaticTax
          ? { automatic_tax: { enabled: true }, billing_address_collection: "required" as const }
          : {}),
        // Stripe fills in {CHECKOUT_SESSION_ID}; it must stay unencoded.
        // Back to the pages in the language the plan was chosen in (docs/decisions.md#65).
        success_url: `${baseUrl}${localePath("/property-intake", purchase.locale)}?session_id={CHECKOUT_SESSION_ID}&plan=${plan.type}`,
        cancel_url: `${baseUrl}${localePath("/pricing", purchase.locale)}`,
        metadata,
        subscription_data: { metadata: { ...metadata, source: "checkout_session" } },
      });
    });
    if (!session.url) throw new ProviderUnavailableError();
    return { url: session.url };
  }

  /**
   * /checkout's submit (the Payment Element's deferred-intent flow, docs/decisions.md#32): a customer with the
   * payer's e-mail, then a subscription at the payment page's monthly price with `default_incomplete`, taxed with
   * the home's rates, whose first invoice the Payment Element confirms. The confirmation secret is the invoice
   * PaymentIntent's (`pi_…_secret_…`); the subscription is returned so it is recorded at once, found again by that
   * PaymentIntent id.
   */
  async createPaymentIntent(plan: Plan, purchase: Purchase) {
    const metadata = purchaseMetadata(plan, purchase);
    const subscription = await this.call(async () => {
      const price = await this.billing.priceFor(plan, plan.checkoutPrice * 100);
      const taxRates = await this.taxRateIds(purchase);
      const customer = await this.stripe.customers.create({
        ...(purchase.payer.email ? { email: purchase.payer.email } : {}),
        ...(purchase.payer.name ? { name: purchase.payer.name } : {}),
        // Stripe Tax finds the place of supply from the customer's address: the home's.
        ...(this.automaticTax && purchase.postalCode
          ? { address: { country: "CA", postal_code: purchase.postalCode } }
          : {}),
        // Stripe's e-mails and pages to this customer in the language they paid in (docs/decisions.md#65).
        preferred_locales: [purchase.locale],
        metadata: { ...metadata, source: "payment_page" },
      });
      return this.stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price }],
        ...(this.automaticTax ? { automatic_tax: { enabled: true } } : { default_tax_rates: taxRates }),
        payment_behavior: "default_incomplete",
        payment_settings: { save_default_payment_method: "on_subscription" },
        expand: ["latest_invoice.confirmation_secret", "customer"],
        metadata: { ...metadata, source: "payment_page" },
      });
    });
    const invoice = typeof subscription.latest_invoice === "object" ? subscription.latest_invoice : null;
    const clientSecret = invoice?.confirmation_secret?.client_secret;
    if (!invoice || !clientSecret) throw new ProviderUnavailableError();
    const id = clientSecret.split("_secret_")[0]!;
    return { id, clientSecret, subscription: this.billing.readCreated(subscription, id) };
  }

  async verify(id: string): Promise<Verification> {
    try {
      if (id.startsWith("cs_")) return await this.verifySession(id);
      if (id.startsWith("pi_")) return await this.verifyIntent(id);
      return NOT_PAID;
    } catch (error) {
      // An id Stripe does not know is simply not a paid session.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return NOT_PAID;
      throw new ProviderUnavailableError();
    }
  }

  /** A hosted checkout: paid once complete and paid; a subscription-mode one brings its subscription (no payments row). */
  private async verifySession(id: string): Promise<Verification> {
    const session = await this.stripe.checkout.sessions.retrieve(id);
    const email = session.customer_details?.email ?? null;
    const customer = { email, name: session.customer_details?.name ?? null };
    if (session.mode !== "subscription") {
      // A one-time session from before subscriptions.
      const payment = sessionPayment(session);
      return { paid: payment !== null, plan: planOf(session.metadata), customer, payerEmail: email, payment };
    }
    const paid = session.status === "complete" && session.payment_status === "paid";
    const postalCode = session.metadata?.postal_code ?? null;
    const subscriptionId =
      typeof session.subscription === "string" ? session.subscription : (session.subscription?.id ?? null);
    const subscription = subscriptionId ? await this.billing.readBack(subscriptionId, session.id) : null;
    if (subscription && !subscription.state.payerEmail)
      subscription.state = { ...subscription.state, payerEmail: email, payerName: customer.name };
    return {
      paid,
      plan: planOf(session.metadata) ?? subscription?.state.planType ?? null,
      customer,
      payerEmail: email,
      payment: null,
      postalCode,
      subscription,
    };
  }

  /**
   * A /checkout payment: the PaymentIntent of a subscription's first invoice (paid when Stripe says the
   * subscription is active), or a one-time PaymentIntent from before subscriptions.
   */
  private async verifyIntent(id: string): Promise<Verification> {
    const intent = await this.stripe.paymentIntents.retrieve(id);
    const email = intent.receipt_email ?? null;
    const [invoicePayment] = (
      await this.stripe.invoicePayments.list({ payment: { type: "payment_intent", payment_intent: id }, limit: 1 })
    ).data;
    if (!invoicePayment) {
      return {
        paid: intent.status === "succeeded",
        plan: planOf(intent.metadata),
        customer: { email, name: intent.metadata?.name ?? null },
        payerEmail: email,
        payment: intentPayment(intent),
      };
    }
    const invoiceId = typeof invoicePayment.invoice === "string" ? invoicePayment.invoice : invoicePayment.invoice.id!;
    const invoice = await this.stripe.invoices.retrieve(invoiceId);
    const subscriptionId = invoiceSubscriptionId(invoice);
    const postalCode = invoice.parent?.subscription_details?.metadata?.postal_code ?? null;
    if (!subscriptionId) return NOT_PAID;
    const subscription = await this.billing.readBack(subscriptionId, id);
    // The customer made by /checkout has no e-mail; the Payment Element's receipt e-mail is the payer's.
    if (!subscription.state.payerEmail) subscription.state = { ...subscription.state, payerEmail: email };
    const paid = ["active", "trialing"].includes(subscription.state.status);
    return {
      paid,
      plan: subscription.state.planType,
      customer: { email: subscription.state.payerEmail, name: subscription.state.payerName },
      payerEmail: subscription.state.payerEmail,
      payment: null,
      postalCode,
      subscription,
    };
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch {
      throw new ProviderUnavailableError();
    }
  }
}

/**
 * The provider PAYMENTS_MODE names (docs/decisions.md#4). loadEnv has already refused `stripe`
 * without keys, so demo is never a silent fallback in production.
 */
export function createPaymentProvider(
  env: Pick<Env, "PAYMENTS_MODE" | "STRIPE_SECRET_KEY" | "STRIPE_API_BASE"> & { STRIPE_AUTOMATIC_TAX?: boolean },
  payments: PaymentsRepository,
  stripeBilling: StripeSubscriptionSide | null = null,
): PaymentProvider {
  if (env.PAYMENTS_MODE === "demo") return new DemoProvider(payments);
  if (!env.STRIPE_SECRET_KEY) throw new Error("PAYMENTS_MODE=stripe needs STRIPE_SECRET_KEY");
  // The purchase paths and the billing side share one client (createStripeBilling in the container).
  if (!stripeBilling) throw new Error("PAYMENTS_MODE=stripe needs Stripe billing (createStripeBilling)");
  return new StripeProvider(stripeBilling.stripe, stripeBilling, env.STRIPE_AUTOMATIC_TAX ?? false);
}
