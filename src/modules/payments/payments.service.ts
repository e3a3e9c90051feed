import type { Knex } from "knex";
import { DEFAULT_LOCALE, type Locale } from "../../i18n/index.js";
import Stripe from "stripe";
import type { BusinessSettings } from "../../config/env.js";
import { ConflictError, HttpError, NotFoundError, ValidationError } from "../../http/errors.js";
import { todayIn } from "../../shared/business-time.js";
import { sameEmail } from "../../shared/email.js";
import type { LoginAttemptCounter } from "../auth/index.js";
import type { Plan, PlanType, PlansService } from "../plans/index.js";
import { type TaxedAmount, provinceOfPostalCode, taxFor } from "../tax/index.js";
import {
  DEMO_DECLINES,
  type PriceList,
  type TaxQuote,
  type VerifyPaymentResponse,
  digitsOnly,
} from "./checkout.constants.js";
import { intentPayment, sessionPayment } from "./payment-providers.js";
import type { PaymentProvider, Purchase } from "./provider-types.js";
import type { PaymentsRepository } from "./payments.repository.js";
import {
  CHECKOUT_LIMIT,
  CardDeclinedError,
  type DemoSubscriptionStart,
  PAYER_EMAIL_MESSAGE,
  type PaymentIntentEvents,
  type PaymentsDeps,
  type PaymentsSettings,
  type StripeSubscriptionEvents,
  type SubscriptionCheckouts,
  TooManyCheckoutsError,
} from "./payments.ports.js";

/** One subscription per checkout (migrations/20261103000100_subscriptions.ts). */
const CHECKOUT_REF_UNIQUE = "subscriptions_checkout_ref_unique";
const isUniqueViolation = (error: unknown, constraint: string) => {
  const pgError = error as { code?: string; constraint?: string } | null;
  return pgError?.code === "23505" && pgError.constraint === constraint;
};

export class PaymentsService {
  private readonly payments: PaymentsRepository;
  private readonly plans: Pick<PlansService, "get" | "list">;
  private readonly provider: PaymentProvider;
  private readonly subscriptions: SubscriptionCheckouts;
  private readonly options: PaymentsSettings & { stripeWebhooks: StripeSubscriptionEvents | null };
  private readonly business: Pick<BusinessSettings, "province" | "taxRegistered">;
  private readonly attempts: LoginAttemptCounter;
  private readonly clock: () => Date;
  private readonly intents: PaymentIntentEvents | null;

  constructor(deps: PaymentsDeps) {
    this.payments = deps.repo;
    this.plans = deps.plans;
    this.provider = deps.provider;
    this.subscriptions = deps.subscriptions;
    this.options = { ...deps.settings, stripeWebhooks: deps.stripeSubscriptions };
    this.business = deps.business;
    this.attempts = deps.attempts;
    this.clock = deps.clock ?? (() => new Date());
    this.intents = deps.intents ?? null;
  }

  /**
   * A plan's price on a price list, its tax for the home of `postalCode` and the total, on `now`'s day
   * (docs/decisions.md#32). The postal code has passed homePostalCodeSchema; without one, the business's province.
   */
  private taxed(plan: Plan, priceList: PriceList, postalCode: string | null, now: Date): TaxedAmount {
    const price = priceList === "pricing" ? plan.price : plan.checkoutPrice;
    const province = (postalCode ? provinceOfPostalCode(postalCode) : null) ?? this.business.province;
    const subtotalCents = Math.round(price * 100);
    // A business not registered for GST/HST (BUSINESS_TAX_REGISTERED=false) must not charge it (docs/tax.md).
    if (!this.business.taxRegistered)
      return { province, subtotalCents, lines: [], taxCents: 0, totalCents: subtotalCents };
    return taxFor(subtotalCents, province, todayIn(this.options.timeZone, now));
  }

  private purchase(
    plan: Plan,
    priceList: PriceList,
    details: { postalCode?: string; email?: string; name?: string; locale?: Locale },
    now: Date,
  ): Purchase {
    const postalCode = details.postalCode ?? null;
    return {
      priceList,
      postalCode,
      taxed: this.taxed(plan, priceList, postalCode, now),
      day: todayIn(this.options.timeZone, now),
      payer: { email: details.email ?? null, name: details.name ?? null },
      locale: details.locale ?? DEFAULT_LOCALE,
    };
  }

  /** What a pay button will charge, before anything is made: the subtotal, each tax and the total. */
  async quote(
    planType: PlanType,
    priceList: PriceList,
    postalCode: string | undefined,
    now: Date = this.clock(),
  ): Promise<TaxQuote> {
    const plan = await this.plans.get(planType);
    const taxed = this.taxed(plan, priceList, postalCode ?? null, now);
    return {
      plan: plan.type,
      priceList,
      postalCode: postalCode ?? null,
      province: taxed.province,
      subtotalCents: taxed.subtotalCents,
      lines: taxed.lines.map((line) => ({ label: line.label, amountCents: line.amountCents })),
      taxCents: taxed.taxCents,
      totalCents: taxed.totalCents,
    };
  }

  /** 'stripe' with keys, 'demo' without (docs/decisions.md#4). */
  get mode() {
    return this.provider.name;
  }

  /** What the payment page needs to mount Stripe's Payment Element; null in demo mode. */
  get stripePublishableKey(): string | null {
    return this.provider.name === "stripe" ? (this.options.publishableKey ?? null) : null;
  }

  /** Where the browser goes to pay: Stripe's hosted checkout with keys, Haven's demo hosted checkout in demo mode. */
  async createCheckoutSession(
    planType: PlanType,
    baseUrl: string,
    postalCode?: string,
    now: Date = this.clock(),
    locale: Locale = DEFAULT_LOCALE,
  ): Promise<{ url: string }> {
    const plan = await this.plans.get(planType);
    const purchase = this.purchase(plan, "pricing", { postalCode, locale }, now);
    const { url } = await this.provider.createCheckoutSession(plan, baseUrl, purchase);
    return { url };
  }

  /**
   * The demo hosted checkout's session (docs/decisions.md#23): its plan, the amount fixed when it was made, and
   * the secret its card form confirms with. Unknown ids, and any id outside demo mode, are not found.
   */
  async demoCheckoutSession(sessionId: string): Promise<{
    planType: PlanType;
    amount: number;
    clientSecret: string;
    paid: boolean;
    quote: TaxQuote;
  }> {
    const payment = this.provider.name === "demo" ? await this.payments.find("demo", sessionId) : null;
    if (payment?.kind !== "checkout_session" || !payment.planType || !payment.clientSecret)
      throw new NotFoundError("Checkout session not found");
    // The tax as it was when the session was made (its total is what the card pays).
    const quote = await this.quote(
      payment.planType,
      "pricing",
      payment.postalCode ?? undefined,
      new Date(payment.createdAt),
    );
    const subtotalCents = payment.subtotalCents ?? payment.amountCents;
    return {
      planType: payment.planType,
      amount: subtotalCents / 100,
      clientSecret: payment.clientSecret,
      paid: payment.status === "succeeded",
      // A session made before tax has no subtotal: its amount had no tax, and it shows none.
      quote: {
        ...quote,
        lines: payment.subtotalCents == null ? [] : quote.lines,
        subtotalCents,
        totalCents: payment.amountCents,
        taxCents: payment.amountCents - subtotalCents,
      },
    };
  }

  /**
   * /checkout's submit: the first moment anything is made, at Stripe or here (docs/decisions.md#32). The server
   * alone decides the amount: a client amount that differs from the plan's price before tax is refused; the charge
   * is that price plus the home's tax. Limited per client address (429 past CHECKOUT_LIMIT).
   */
  async createPaymentIntent(
    planType: PlanType,
    amount: number,
    details: { postalCode?: string; email?: string; name?: string } = {},
    client: { address?: string } = {},
    now: Date = this.clock(),
  ): Promise<{ clientSecret: string }> {
    const plan = await this.plans.get(planType);
    if (amount !== plan.checkoutPrice) {
      throw new ValidationError("Amount does not match the plan's price", {
        amount: `Amount must be ${plan.checkoutPrice} for the ${plan.type} plan`,
      });
    }
    if (client.address) {
      const limit = this.options.checkoutLimit ?? CHECKOUT_LIMIT;
      const counted = await this.attempts.count(`checkout:address:${client.address}`, limit.windowMs, {
        address: client.address,
      });
      if (counted.attempts > limit.perAddress)
        throw new TooManyCheckoutsError(Math.ceil(counted.windowEndsInMs / 1000));
    }
    const purchase = this.purchase(plan, "checkout", details, now);
    const { clientSecret, subscription } = await this.provider.createPaymentIntent(plan, purchase);
    // Stripe: the subscription exists (incomplete) from now on, found again by its first PaymentIntent.
    if (subscription) await this.stripeWebhooks().store(subscription);
    return { clientSecret };
  }

  /** Asks the provider; a paid Stripe session is recorded here too, in case its webhook is late or not set up. */
  async verify(id: string): Promise<VerifyPaymentResponse & { plan: PlanType | null; payerEmail: string | null }> {
    const result = await this.provider.verify(id);
    if (result.payment) await this.payments.insertOnce(result.payment);
    // A subscription purchase is no payments row: revenue counts its invoices.
    if (result.subscription) await this.stripeWebhooks().store(result.subscription);
    return {
      success: result.paid,
      customer: result.customer,
      postalCode: result.paid ? (result.postalCode ?? null) : null,
      plan: result.plan,
      payerEmail: result.payerEmail,
    };
  }

  /**
   * Property intake needs a paid session: a paid Stripe Checkout Session or PaymentIntent with keys,
   * a paid demo session (or the spec's fake demo identifier) in demo mode. When the provider knows the
   * payer's e-mail, the intake's e-mail must be that one (the form shows it read-only), so a session id
   * alone does not let another browser take the payment over. Returns the plan paid for.
   */
  async requirePaid(id: string, email: string): Promise<{ plan: PlanType | null }> {
    const result = await this.verify(id);
    if (!result.success) {
      throw new ValidationError("Payment could not be verified", {
        stripeSessionId: "This checkout session is not paid",
      });
    }
    if (result.payerEmail && !sameEmail(result.payerEmail, email)) {
      throw new ValidationError(PAYER_EMAIL_MESSAGE, { email: PAYER_EMAIL_MESSAGE });
    }
    return { plan: result.plan };
  }

  /** The demo card form's confirmation: the same checks as the browser, then the test-card declines. */
  async confirmDemoPayment(input: {
    clientSecret: string;
    name: string;
    email: string;
    cardNumber: string;
  }): Promise<{ paymentIntentId: string; status: "succeeded" }> {
    if (this.provider.name !== "demo") throw new NotFoundError("Demo payments are off: PAYMENTS_MODE is stripe");
    const id = input.clientSecret.split("_secret_")[0]!;
    const payment = await this.payments.find("demo", id);
    if (!payment || payment.clientSecret !== input.clientSecret) throw new NotFoundError("Payment not found");
    const customer = { email: input.email, name: input.name };
    const decline = DEMO_DECLINES[digitsOnly(input.cardNumber)];
    if (decline) {
      // A declined attempt leaves the intent pending, as Stripe does: the visitor may try another card.
      throw new CardDeclinedError(decline);
    }
    if (payment.status !== "succeeded") {
      const settled = await this.payments.settle("demo", id, "succeeded", customer);
      // A double-click: the other confirmation settled it first, and this one answers as that one does.
      if (!settled && (await this.payments.find("demo", id))?.status !== "succeeded")
        throw new ConflictError("This payment can no longer be confirmed");
    }
    // docs/decisions.md#24: the purchase starts a monthly demo subscription whose first invoice is this payment. It is
    // idempotent per checkout, so a repeat (or a retry after a crash between the two steps) starts one.
    if (payment.planType) {
      const start: DemoSubscriptionStart = {
        checkoutRef: id,
        planType: payment.planType,
        // The monthly price before tax; the payment's amount is the total the card paid (docs/decisions.md#32).
        amountCents: payment.subtotalCents ?? payment.amountCents,
        postalCode: payment.postalCode ?? null,
        priceList: payment.kind === "checkout_session" ? "pricing" : "checkout",
        payerEmail: input.email,
        payerName: input.name,
        cardNumber: input.cardNumber,
      };
      try {
        await this.subscriptions.startDemo(start);
      } catch (error) {
        // A confirmation of the same checkout running at the same time committed its subscription first (one per
        // checkout_ref): this one rolled back, and finds that subscription now.
        if (!isUniqueViolation(error, CHECKOUT_REF_UNIQUE)) throw error;
        await this.subscriptions.startDemo(start);
      }
    }
    return { paymentIntentId: id, status: "succeeded" };
  }

  /**
   * A Stripe webhook: the signature is checked against the raw body first. Subscription events
   * (subscriptions/webhooks.ts) are processed once per event id; one-time payments from before
   * subscriptions (a payment-mode session, a succeeded one-time intent) are recorded once per provider id.
   * A replay records nothing.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ received: true; recorded: boolean }> {
    const secret = this.options.webhookSecret;
    if (!secret) throw new HttpError(400, "Webhook signing secret is not configured");
    if (!signature) throw new HttpError(400, "Missing Stripe-Signature header");
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      throw new HttpError(400, "Webhook signature verification failed");
    }
    if (event.type === "checkout.session.completed" && event.data.object.mode !== "subscription") {
      const payment = sessionPayment(event.data.object);
      return { received: true, recorded: payment ? await this.payments.insertOnce(payment) : false };
    }
    if (event.type === "payment_intent.succeeded") {
      const payment = intentPayment(event.data.object);
      if (payment) return { received: true, recorded: await this.payments.insertOnce(payment) };
      return { received: true, recorded: (await this.intents?.succeeded(event.data.object)) ?? false };
    }
    const webhooks = this.options.stripeWebhooks;
    const recorded = webhooks?.handles(event) ? await webhooks.handle(event) : false;
    return { received: true, recorded };
  }

  private stripeWebhooks(): StripeSubscriptionEvents {
    if (!this.options.stripeWebhooks) throw new HttpError(503, "Stripe billing is not set up");
    return this.options.stripeWebhooks;
  }

  /**
   * Records demo payments that already happened (the demo seed), with the plan's checkout price, in the
   * caller's transaction. A provider id already recorded is skipped, so a re-run never counts twice.
   */
  async importDemoPayments(
    payments: {
      providerId: string;
      planType: PlanType;
      customerEmail: string;
      customerName: string;
      createdAt: Date;
    }[],
    tx: Knex,
  ): Promise<number> {
    const prices = new Map((await this.plans.list()).map((p) => [p.type, p.checkoutPrice]));
    return this.payments.insertManyOnce(
      payments.map((p) => {
        const price = prices.get(p.planType);
        if (price === undefined) throw new ValidationError(`No plan ${p.planType}: seed the plans first`);
        return {
          provider: "demo",
          providerId: p.providerId,
          kind: "payment_intent",
          planType: p.planType,
          amountCents: Math.round(price * 100),
          currency: "cad",
          customerEmail: p.customerEmail,
          customerName: p.customerName,
          status: "succeeded",
          createdAt: p.createdAt,
        };
      }),
      tx,
    );
  }

  /** Total Revenue in dollars: paid invoices and the one-time payments, nothing counted twice. */
  async totalRevenue(): Promise<number> {
    // Paid invoices plus one-time payments; a demo checkout that started a subscription is counted by its invoice.
    const [payments, invoices] = await Promise.all([
      this.payments.totalRevenueCents(),
      this.subscriptions.paidInvoicesCents(),
    ]);
    return (payments + invoices) / 100;
  }
}
