// The demo payment provider (docs/decisions.md#4): offline, Haven's own rows; no money moves.
import { randomBytes } from "node:crypto";
import type { Plan } from "../plans/index.js";
import { DEMO_CUSTOMER } from "./checkout.constants.js";
import type { PaymentsRepository } from "./payments.repository.js";
import { CURRENCY, NOT_PAID, type PaymentProvider, type Purchase, type Verification } from "./provider-types.js";

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
   * session at the pricing page's price (docs/decisions.md#23), paid by its card form, then on to the intake page.
   */
  async createCheckoutSession(plan: Plan, _baseUrl: string, purchase: Purchase) {
    const id = `demo_cs_${token()}`;
    // The total with the home's tax is charged; the subscription starts at the subtotal (docs/decisions.md#32).
    await this.payments.insertOnce({
      provider: "demo",
      providerId: id,
      kind: "checkout_session",
      planType: plan.type,
      amountCents: purchase.taxed.totalCents,
      subtotalCents: purchase.taxed.subtotalCents,
      postalCode: purchase.postalCode,
      currency: CURRENCY,
      customerEmail: null,
      customerName: null,
      status: "pending",
      clientSecret: `${id}_secret_${token()}`,
    });
    return { url: `/demo-checkout/${id}` };
  }

  /** A pending intent at the total with tax, made on submit; the demo card form confirms it (confirmDemoPayment). */
  async createPaymentIntent(plan: Plan, purchase: Purchase) {
    const id = `demo_pi_${token()}`;
    const clientSecret = `${id}_secret_${token()}`;
    await this.payments.insertOnce({
      provider: "demo",
      providerId: id,
      kind: "payment_intent",
      planType: plan.type,
      amountCents: purchase.taxed.totalCents,
      subtotalCents: purchase.taxed.subtotalCents,
      postalCode: purchase.postalCode,
      currency: CURRENCY,
      customerEmail: purchase.payer.email,
      customerName: purchase.payer.name,
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
        customer: {
          email: payment.customerEmail ?? DEMO_CUSTOMER.email,
          name: payment.customerName ?? DEMO_CUSTOMER.name,
        },
        payerEmail: payment.customerEmail ?? null,
        payment: null,
        postalCode: payment.postalCode ?? null,
      };
    }
    // The fake id's e-mail is a default the intake page may replace (customer_email), not a payer's.
    if (/^demo_session_[A-Za-z0-9]{6,64}$/.test(id))
      return { paid: true, plan: null, customer: { ...DEMO_CUSTOMER }, payerEmail: null, payment: null };
    return NOT_PAID;
  }
}
