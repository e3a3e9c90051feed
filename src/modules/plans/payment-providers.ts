import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import type { Env } from "../../config/env.js";
import { HttpError } from "../../http/errors.js";
import { DEMO_CUSTOMER } from "./checkout.schemas.js";
import type { NewPayment, PaymentProviderName, PaymentsRepository } from "./payments.repository.js";
import { type Plan, type PlanType, planTypeSchema } from "./plans.schemas.js";

export const CURRENCY = "cad";

export interface Verification {
  paid: boolean;
  plan: PlanType | null;
  /** Who paid, for the intake form: what the provider knows, or demo defaults. */
  customer: { email: string | null; name: string | null };
  /**
   * The e-mail the provider itself holds for the payer (Stripe's customer_details or receipt_email, the
   * demo card form's), null when it holds none. Defaults never count: intake compares against this.
   */
  payerEmail: string | null;
  /** What to record when the provider says it is paid (Stripe); the demo provider records as it goes. */
  payment: NewPayment | null;
}

/** What Haven needs from a payment provider: Stripe, or the offline demo provider in its place. */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** A hosted checkout for the plan; its url is where the browser goes next. */
  createCheckoutSession(plan: Plan, baseUrl: string): Promise<{ url: string }>;
  /** A payment for the /checkout card form; the client secret lets the browser confirm it. */
  createPaymentIntent(plan: Plan): Promise<{ id: string; clientSecret: string }>;
  /** Whether a Checkout Session or PaymentIntent id is paid, and by whom. */
  verify(id: string): Promise<Verification>;
}

const NOT_PAID: Verification = { paid: false, plan: null, customer: { email: null, name: null }, payerEmail: null, payment: null };

const planOf = (metadata: Record<string, string> | null | undefined): PlanType | null => {
  const parsed = planTypeSchema.safeParse(metadata?.plan);
  return parsed.success ? parsed.data : null;
};

export class ProviderUnavailableError extends HttpError {
  constructor() {
    super(502, "The payment provider could not be reached. Please try again.");
  }
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
 * The payment a succeeded PaymentIntent stands for. An intent that a Checkout Session created is
 * left out: checkout.session.completed records that money, and counting both would double it.
 */
export function intentPayment(intent: Stripe.PaymentIntent): NewPayment | null {
  if (intent.status !== "succeeded" || intent.metadata?.source === "checkout_session") return null;
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
  constructor(private readonly stripe: Stripe) {}

  async createCheckoutSession(plan: Plan, baseUrl: string) {
    const session = await this.call(() =>
      this.stripe.checkout.sessions.create({
        mode: "payment",
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: CURRENCY,
              // Decision 23: the hosted checkout bills the price /pricing showed.
              unit_amount: plan.price * 100,
              product_data: { name: `Haven ${plan.name} Plan`, description: plan.description },
            },
          },
        ],
        // Stripe fills in {CHECKOUT_SESSION_ID}; it must stay unencoded.
        success_url: `${baseUrl}/property-intake?session_id={CHECKOUT_SESSION_ID}&plan=${plan.type}`,
        cancel_url: `${baseUrl}/pricing`,
        metadata: { plan: plan.type },
        payment_intent_data: { metadata: { plan: plan.type, source: "checkout_session" } },
      }),
    );
    if (!session.url) throw new ProviderUnavailableError();
    return { url: session.url };
  }

  async createPaymentIntent(plan: Plan) {
    const intent = await this.call(() =>
      this.stripe.paymentIntents.create({
        amount: plan.checkoutPrice * 100,
        currency: CURRENCY,
        automatic_payment_methods: { enabled: true },
        metadata: { plan: plan.type, source: "payment_page" },
      }),
    );
    if (!intent.client_secret) throw new ProviderUnavailableError();
    return { id: intent.id, clientSecret: intent.client_secret };
  }

  async verify(id: string): Promise<Verification> {
    try {
      if (id.startsWith("cs_")) {
        const session = await this.stripe.checkout.sessions.retrieve(id);
        const payment = sessionPayment(session);
        const email = session.customer_details?.email ?? null;
        return { paid: payment !== null, plan: planOf(session.metadata), customer: { email, name: session.customer_details?.name ?? null }, payerEmail: email, payment };
      }
      if (id.startsWith("pi_")) {
        const intent = await this.stripe.paymentIntents.retrieve(id);
        const paid = intent.status === "succeeded";
        const email = intent.receipt_email ?? null;
        return { paid, plan: planOf(intent.metadata), customer: { email, name: intent.metadata?.name ?? null }, payerEmail: email, payment: intentPayment(intent) };
      }
      return NOT_PAID;
    } catch (error) {
      // An id Stripe does not know is simply not a paid session.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return NOT_PAID;
      throw new ProviderUnavailableError();
    }
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch {
      throw new ProviderUnavailableError();
    }
  }
}

const token = () => randomBytes(12).toString("hex");

/**
 * Demo mode (PAYMENTS_MODE=demo; outside production also the default without STRIPE_SECRET_KEY): works
 * offline and records its payments like Stripe's, so the demo journey ends with a real payment row (the
 * confirmed card payment). No money moves.
 */
export class DemoProvider implements PaymentProvider {
  readonly name = "demo" as const;
  constructor(private readonly payments: PaymentsRepository) {}

  /**
   * Offline, Haven's own hosted checkout page (/demo-checkout/:id) plays Stripe Checkout's part: a pending
   * session at the pricing page's price (decision 23), paid by its card form, then on to the intake page.
   */
  async createCheckoutSession(plan: Plan) {
    const id = `demo_cs_${token()}`;
    await this.payments.insertOnce({
      provider: "demo",
      providerId: id,
      kind: "checkout_session",
      planType: plan.type,
      amountCents: plan.price * 100,
      currency: CURRENCY,
      customerEmail: null,
      customerName: null,
      status: "pending",
      clientSecret: `${id}_secret_${token()}`,
    });
    return { url: `/demo-checkout/${id}` };
  }

  /** A pending intent; the demo card form confirms it (PaymentsService.confirmDemoPayment). */
  async createPaymentIntent(plan: Plan) {
    const id = `demo_pi_${token()}`;
    const clientSecret = `${id}_secret_${token()}`;
    await this.payments.insertOnce({
      provider: "demo",
      providerId: id,
      kind: "payment_intent",
      planType: plan.type,
      amountCents: plan.checkoutPrice * 100,
      currency: CURRENCY,
      customerEmail: null,
      customerName: null,
      status: "pending",
      clientSecret,
    });
    return { id, clientSecret };
  }

  /**
   * A demo id this provider issued counts when it succeeded. A `demo_session_…` id is the spec's
   * fake identifier, made by the intake page when a visitor arrives with only demo and plan.
   */
  async verify(id: string): Promise<Verification> {
    const payment = await this.payments.find("demo", id);
    if (payment) {
      return {
        paid: payment.status === "succeeded",
        plan: payment.planType,
        customer: { email: payment.customerEmail ?? DEMO_CUSTOMER.email, name: payment.customerName ?? DEMO_CUSTOMER.name },
        payerEmail: payment.customerEmail ?? null,
        payment: null,
      };
    }
    // The fake id's e-mail is a default the intake page may replace (customer_email), not a payer's.
    if (/^demo_session_[A-Za-z0-9]{6,64}$/.test(id)) return { paid: true, plan: null, customer: { ...DEMO_CUSTOMER }, payerEmail: null, payment: null };
    return NOT_PAID;
  }
}

/**
 * The provider PAYMENTS_MODE names (DESIGN.md decision 4). loadEnv has already refused `stripe`
 * without keys, so demo is never a silent fallback in production.
 */
export function createPaymentProvider(
  env: Pick<Env, "PAYMENTS_MODE" | "STRIPE_SECRET_KEY" | "STRIPE_API_BASE">,
  payments: PaymentsRepository,
): PaymentProvider {
  if (env.PAYMENTS_MODE === "demo") return new DemoProvider(payments);
  if (!env.STRIPE_SECRET_KEY) throw new Error("PAYMENTS_MODE=stripe needs STRIPE_SECRET_KEY");
  return new StripeProvider(createStripeClient(env.STRIPE_SECRET_KEY, env.STRIPE_API_BASE));
}
