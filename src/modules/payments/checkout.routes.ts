import type { Response, Router } from "express";
import { z } from "zod";
import { HttpError, NotFoundError } from "../../http/errors.js";
import { islandMessages, localePath, translator } from "../../i18n/index.js";
import { body, query } from "../../http/validate.js";
import { type PlanType, type PlansService, planTypeSchema } from "../plans/index.js";
import { provinceOfPostalCode } from "../tax/index.js";
import {
  checkoutSessionSchema,
  demoConfirmSchema,
  demoSessionParams,
  paymentIntentSchema,
  providerIdSchema,
  taxQuoteQuery,
  verifyPaymentQuery,
} from "./checkout.schemas.js";
import { taxLineParts } from "./checkout.constants.js";
import { TooManyCheckoutsError } from "./payments.ports.js";
import type { PaymentsService } from "./payments.service.js";
import { createRouter } from "../../http/router.js";
import { apiLocale } from "../../i18n/api-locale.js";

export interface CheckoutRoutesDeps {
  payments: PaymentsService;
  plans: Pick<PlansService, "get">;
  /** The site's public origin (publicOrigin(env)): Stripe's success and cancel URLs start with it. */
  publicOrigin: string;
  /**
   * The postal code of the latest home these customers entered (the browser's onboarding or an earlier intake), which
   * /checkout prefills: the home decides the tax (docs/decisions.md#57). src/app.ts asks the customers module.
   */
  homePostalCode?: (customerIds: number[]) => Promise<string | null>;
}

/** The payment page's plan: default standard; an unknown plan is null (the page sends the visitor to /pricing). */
export function planParam(value: unknown): PlanType | null {
  if (value === undefined || value === "") return "standard";
  const parsed = planTypeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Stripe.js and its Payment Element need these origins; only the Stripe-mode pay pages get them. */
export function allowStripeJs(res: Response) {
  const extra: Record<string, string> = {
    "script-src": "https://js.stripe.com",
    "frame-src": "https://js.stripe.com https://hooks.stripe.com",
    "connect-src": "https://api.stripe.com",
  };
  const csp = String(res.getHeader("Content-Security-Policy") ?? "");
  const directives = csp.split(";").map((d) => {
    const name = d.trim().split(/\s+/)[0] ?? "";
    return extra[name] ? `${d.trim()} ${extra[name]}` : d.trim();
  });
  res.setHeader("Content-Security-Policy", directives.filter(Boolean).join(";"));
}

export function checkoutApi({ payments, publicOrigin }: Pick<CheckoutRoutesDeps, "payments" | "publicOrigin">): Router {
  const router = createRouter();

  router.post("/create-checkout-session", async (req, res) => {
    const { planType, postalCode } = body(req, checkoutSessionSchema);
    // The pricing page names its language (src/i18n/api-locale.ts): the session's pages open in it, as the form post's do.
    const locale = apiLocale(req);
    const { url } = await payments.createCheckoutSession(planType, publicOrigin, postalCode, undefined, locale);
    res.json({ url: url.startsWith("/") ? localePath(url, locale) : url });
  });

  // What a pay button will charge for this plan and home: subtotal, each tax, total (docs/decisions.md#32). It
  // creates nothing.
  router.get("/checkout/quote", async (req, res) => {
    const { plan, priceList, postalCode } = query(req, taxQuoteQuery);
    res.json(await payments.quote(plan, priceList, postalCode));
  });

  router.get("/verify-payment", async (req, res) => {
    const { session_id } = query(req, verifyPaymentQuery);
    const { success, customer, postalCode } = await payments.verify(session_id);
    // The spec's {success, customer}; the home's postal code too once paid, when the purchase named one.
    res.json({ success, customer, ...(postalCode ? { postalCode, province: provinceOfPostalCode(postalCode) } : {}) });
  });

  // /checkout's submit: the customer and the subscription are made now, not when the page opens (docs/decisions.md#32).
  router.post("/create-payment-intent", async (req, res) => {
    const { amount, plan, ...details } = body(req, paymentIntentSchema);
    try {
      res.json(await payments.createPaymentIntent(plan, amount, details, { address: req.ip }));
    } catch (error) {
      if (error instanceof TooManyCheckoutsError) res.setHeader("Retry-After", String(error.retryAfterSeconds));
      throw error;
    }
  });

  // Demo mode's stand-in for Stripe.js confirming a card: the same checks as the form, on the server.
  router.post("/demo/confirm-payment", async (req, res) => {
    res.json(await payments.confirmDemoPayment(body(req, demoConfirmSchema)));
  });

  // express.raw() ran for this path in app.ts (before express.json), so req.body is the raw Buffer.
  router.post("/stripe/webhook", async (req, res) => {
    if (!Buffer.isBuffer(req.body)) throw new HttpError(400, "Webhook body must be the raw request body");
    res.json(await payments.handleWebhook(req.body, req.get("stripe-signature")));
  });
  return router;
}

export function checkoutPages({ payments, plans, publicOrigin, homePostalCode }: CheckoutRoutesDeps): Router {
  const router = createRouter();

  // /pricing's form without script: create the session here and send the browser on.
  router.post("/checkout/start", async (req, res) => {
    const form = (req.body ?? {}) as Record<string, unknown>;
    // A blank postal code field (the form without script) names no home: the business's province is used.
    const parsed = checkoutSessionSchema.safeParse({ ...form, postalCode: form.postalCode || undefined });
    if (!parsed.success) return res.redirect(303, "/pricing?checkout_error=1");
    try {
      const { url } = await payments.createCheckoutSession(
        parsed.data.planType,
        publicOrigin,
        parsed.data.postalCode,
        undefined,
        req.locale,
      );
      res.redirect(303, url);
    } catch (error) {
      req.log?.warn({ err: error }, "checkout session failed");
      res.redirect(303, "/pricing?checkout_error=1");
    }
  });

  router.get("/checkout", async (req, res) => {
    const type = planParam(req.query.plan);
    if (!type) return res.redirect("/pricing");
    const plan = await plans.get(type);
    const publishableKey = payments.stripePublishableKey;
    if (publishableKey) allowStripeJs(res);
    const customerIds = req.session.customerIds ?? [];
    const known = customerIds.length && homePostalCode ? await homePostalCode(customerIds) : null;
    res.page("checkout/checkout", {
      title: translator(req.locale)("checkout.title"),
      noindex: true,
      islands: true,
      plan,
      formProps: {
        plan: {
          type: plan.type,
          name: translator(req.locale)(`plans.${plan.type}.name`),
          checkoutPrice: plan.checkoutPrice,
        },
        mode: payments.mode,
        publishableKey,
        // A Canadian postal code only: a US ZIP code names no province to tax.
        postalCode: known && provinceOfPostalCode(known) ? known : null,
        i18n: islandMessages(req.locale, "checkout", "forms"),
        paths: { success: localePath("/payment-success", req.locale), pricing: localePath("/pricing", req.locale) },
      },
    });
  });

  // Demo mode's stand-in for Stripe's hosted checkout (docs/decisions.md#23): the pricing page's price, a card form,
  // then on to the intake page as Stripe's success_url would.
  router.get("/demo-checkout/:sessionId", async (req, res) => {
    const parsed = demoSessionParams.safeParse(req.params);
    if (!parsed.success) throw new NotFoundError("Checkout session not found");
    const { sessionId } = parsed.data;
    const session = await payments.demoCheckoutSession(sessionId);
    const successUrl = `/property-intake?${new URLSearchParams({ session_id: sessionId, plan: session.planType })}`;
    if (session.paid) return res.redirect(303, successUrl);
    // The page carries the session's client secret: never stored.
    res.setHeader("Cache-Control", "no-store");
    const plan = await plans.get(session.planType);
    res.page("checkout/demo-checkout", {
      title: translator(req.locale)("checkout.demo.title", { plan: translator(req.locale)(`plans.${plan.type}.name`) }),
      noindex: true,
      islands: true,
      plan,
      amount: session.amount,
      quote: session.quote,
      taxLineParts,
      formProps: {
        // The form's amount is the session's, fixed when /pricing's button made it (the monthly price).
        plan: {
          type: plan.type,
          name: translator(req.locale)(`plans.${plan.type}.name`),
          checkoutPrice: session.amount,
        },
        mode: "demo",
        publishableKey: null,
        hosted: {
          clientSecret: session.clientSecret,
          successUrl: localePath(successUrl, req.locale),
          quote: session.quote,
        },
        i18n: islandMessages(req.locale, "checkout", "forms"),
        paths: { success: localePath("/payment-success", req.locale), pricing: localePath("/pricing", req.locale) },
      },
    });
  });

  router.get("/payment-success", async (req, res) => {
    const q = z
      .object({
        plan: z.unknown(),
        payment_intent: providerIdSchema.optional().catch(undefined),
        redirect_status: z.string().optional().catch(undefined),
      })
      .parse(req.query);
    const type = planParam(q.plan);
    if (!type) return res.redirect("/pricing");
    // Stripe returns here after redirect-based methods too; a failed one goes back to the card form.
    if (q.redirect_status && q.redirect_status !== "succeeded") return res.redirect(`/checkout?plan=${type}`);
    const plan = await plans.get(type);
    const intake = new URLSearchParams({ plan: type });
    if (q.payment_intent) intake.set("session_id", q.payment_intent);
    if (payments.mode === "demo") intake.set("demo", "1");
    res.page("checkout/payment-success", {
      title: translator(req.locale)("checkout.success.title"),
      noindex: true,
      islands: true,
      plan,
      intakeUrl: localePath(`/property-intake?${intake}`, req.locale),
    });
  });
  return router;
}

/**
 * Where /checkout/start may redirect a form post: CSP form-action covers redirects, so in Stripe mode
 * Stripe's hosted checkout (or the STRIPE_API_BASE stand-in that serves it in tests) must be allowed.
 */
export function checkoutFormActions(env: { PAYMENTS_MODE: "stripe" | "demo"; STRIPE_API_BASE?: string }): string[] {
  if (env.PAYMENTS_MODE !== "stripe") return [];
  return ["https://checkout.stripe.com", ...(env.STRIPE_API_BASE ? [new URL(env.STRIPE_API_BASE).origin] : [])];
}
