// The customer's side of a subscription: the page every billing e-mail links to,
// /billing/<signed token>, with cancel, undo and card update as plain forms (POST, then a redirect), demo
// mode's card page, and the same actions as JSON calls under /api/billing/<token>. The token is the only
// credential: it names one subscription, so nobody reaches another's. Request logs redact it (sharing/links.ts).
import type { Request, Response, Router } from "express";
import { ConflictError, GoneError, HttpError, NotFoundError, ValidationError } from "../../http/errors.js";
import { body, params, parse } from "../../http/validate.js";
import { verifyBillingToken } from "./billing-links.js";
import {
  type BillingView,
  billingTokenParams,
  customerCancelSchema,
  demoCardFormSchema,
  demoCardUpdateSchema,
  portalSchema,
} from "./billing.schemas.js";
import { BillingUnavailableError } from "./billing-provider.js";
import { ChangePendingError } from "./change-runner.js";
import type { SubscriptionsService } from "./subscriptions.service.js";
import { billingAmount, billingDate } from "./subscriptions.mail.js";
import { chargesLeft, scheduledPrice } from "./charges-left.js";
import { chargeWords } from "./charge-with-tax.js";
import type { PlansService } from "../plans/index.js";
import { createRouter } from "../../http/router.js";
import { serverFields, serverMessage } from "../../i18n/server-messages.js";
import { billingWordsLocals, planFlash, pageT as tOf } from "./billing-words.js";

export const EXPIRED_LINK_MESSAGE =
  "This billing link has expired. Please use the link in your latest Haven e-mail, or contact us.";
export const INVALID_LINK_MESSAGE =
  "This billing link is not valid. Please use the link in your latest Haven e-mail, or contact us.";

export interface BillingRoutesDeps {
  subscriptions: SubscriptionsService;
  /** A downgrade waiting for the period's end prices the charges left at the lower plan (charges-left.ts). */
  plans?: Pick<PlansService, "get">;
  settings: {
    /** SESSION_SECRET, then SESSION_SECRETS_PREVIOUS: a billing link signed with any of them still opens. */
    sessionSecrets: readonly string[];
    /** PUBLIC_URL: Stripe's portal returns to the billing page there. */
    publicUrl: string;
    supportEmail: string;
    supportPhone: string;
    timeZone: string;
  };
}

/** The customer's actions are always their own. */
const ACTOR = "customer";

/** Nothing of a billing answer is kept by a cache. */
const privateAnswer = (res: Response) => res.setHeader("Cache-Control", "no-store");

/**
 * The subscription a token names. A well-signed token past its date is 410 (gone); a malformed or forged one,
 * or one naming no subscription, is 404.
 */
async function subscriptionOf(deps: BillingRoutesDeps, token: string, now = new Date()): Promise<number> {
  const secrets = deps.settings.sessionSecrets;
  const id = verifyBillingToken(token, secrets, now);
  if (id !== null) return id;
  // Signed by us but checked as of the epoch: its only fault is its age.
  if (verifyBillingToken(token, secrets, new Date(0)) !== null) throw new GoneError(EXPIRED_LINK_MESSAGE);
  throw new NotFoundError(INVALID_LINK_MESSAGE);
}

/** What the page and GET /api/billing/{token} show: nothing staff-only (reasons, ids of people). */
async function billingView(deps: BillingRoutesDeps, id: number, now = new Date()): Promise<BillingView> {
  try {
    return await deps.subscriptions.customerView(id, now);
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError(INVALID_LINK_MESSAGE);
    throw error;
  }
}

/** The billing page's address for a token (relative: the page and its forms stay on this site). */
const pagePath = (token: string, suffix = "") => `/billing/${encodeURIComponent(token)}${suffix}`;

/** Where the portal comes back to: the card flow to the page that adopts the new card, the portal's home to the billing page. */
function portalReturnUrl(deps: BillingRoutesDeps, token: string, flow: "card" | "manage"): string {
  return `${deps.settings.publicUrl.replace(/\/+$/, "")}${pagePath(token, flow === "card" ? "/card/return" : "")}`;
}

/** Stripe's billing portal: `card` opens the payment-method flow, `manage` the portal's home (its configuration hides cancelling before the minimum). */
function openPortal(deps: BillingRoutesDeps, id: number, flow: "card" | "manage", token: string): Promise<string> {
  return deps.subscriptions.portalUrl(id, { flow, returnUrl: portalReturnUrl(deps, token, flow) });
}

export function billingApi(deps: BillingRoutesDeps): Router {
  const router = createRouter();
  const { subscriptions } = deps;

  router.get("/billing/:token", async (req, res) => {
    privateAnswer(res);
    const { token } = params(req, billingTokenParams);
    res.json(await billingView(deps, await subscriptionOf(deps, token)));
  });

  router.post("/billing/:token/cancel", async (req, res) => {
    privateAnswer(res);
    const { token } = params(req, billingTokenParams);
    const id = await subscriptionOf(deps, token);
    const { reason } = body(req, customerCancelSchema);
    await subscriptions.cancel(id, { when: "period_end", reason: reason ?? null, actor: ACTOR });
    res.json(await billingView(deps, id));
  });

  router.post("/billing/:token/resume", async (req, res) => {
    privateAnswer(res);
    const { token } = params(req, billingTokenParams);
    const id = await subscriptionOf(deps, token);
    await subscriptions.resume(id, { actor: ACTOR });
    res.json(await billingView(deps, id));
  });

  router.post("/billing/:token/card", async (req, res) => {
    privateAnswer(res);
    const { token } = params(req, billingTokenParams);
    const id = await subscriptionOf(deps, token);
    const { cardNumber } = body(req, demoCardUpdateSchema);
    await subscriptions.updateDemoCard(id, { cardNumber, actor: ACTOR });
    res.json(await billingView(deps, id));
  });

  router.post("/billing/:token/portal", async (req, res) => {
    privateAnswer(res);
    const { token } = params(req, billingTokenParams);
    const id = await subscriptionOf(deps, token);
    const { flow } = body(req, portalSchema);
    res.json({ url: await openPortal(deps, id, flow, token) });
  });

  return router;
}

export function billingPages(deps: BillingRoutesDeps): Router {
  const router = createRouter();
  const { subscriptions, settings } = deps;
  const support = { email: settings.supportEmail, phone: settings.supportPhone };
  const tz = settings.timeZone;
  const format = { date: (iso: string) => billingDate(iso, tz), amount: billingAmount };
  // The pages' amounts, dates and names in the page's language (billing-words.ts); views/billing reads `words`.
  router.use("/billing", billingWordsLocals(tz));
  /** What a cancellation still charges, each renewal at the plan billed then. */
  const charges = async (view: BillingView) => {
    if (!view.cancellation) return null;
    const at = view.cancellation.takesEffectAt;
    const waiting = deps.plans ? await scheduledPrice(view, at, deps.plans) : null;
    return chargesLeft(
      view,
      at,
      tz,
      new Date(),
      waiting,
      await subscriptions.amounts.taxProvince(view.subscription.id),
    );
  };
  /** The next charge said whole, tax included (docs/decisions.md#63); null when the plan ends first. */
  const nextCharge = async (view: BillingView) => {
    const s = view.subscription;
    if (view.ended || (s.cancelAt && new Date(s.cancelAt) <= new Date(s.currentPeriodEnd))) return null;
    // A downgrade that waits for this period's end bills its lower price (charges-left.ts).
    const lower = s.scheduledPlanAt && new Date(s.scheduledPlanAt) <= new Date(s.currentPeriodEnd) && deps.plans;
    const waiting = lower ? await scheduledPrice(view, "9999-12-31", deps.plans!) : null;
    const monthly = waiting?.monthlyAmount ?? s.monthlyAmount;
    return chargeWords(await subscriptions.amounts.chargeWithTax(s.id, Math.round(monthly * 100), s.currentPeriodEnd));
  };

  /** A token that opens nothing gets a page that says what to do, with its 410 or 404. */
  const linkProblem = (res: Response, error: HttpError) =>
    res.status(error.status).page("billing/link-problem", {
      title: tOf(res)(error.status === 410 ? "billing-pages.link.expired" : "billing-pages.link.invalid"),
      noindex: true,
      message: serverMessage(tOf(res), error.message),
      support,
    });

  /** Runs a page handler with the token's subscription; token problems become the link page. */
  const withToken =
    (handler: (req: Request, res: Response, ctx: { token: string; id: number }) => Promise<void>) =>
    async (req: Request, res: Response) => {
      privateAnswer(res);
      const token = typeof req.params.token === "string" ? req.params.token : "";
      let id: number;
      try {
        if (token.length > 200) throw new NotFoundError(INVALID_LINK_MESSAGE);
        id = await subscriptionOf(deps, token);
      } catch (error) {
        if (error instanceof HttpError && (error.status === 404 || error.status === 410))
          return linkProblem(res, error);
        throw error;
      }
      try {
        await handler(req, res, { token, id });
      } catch (error) {
        if (error instanceof HttpError && error.status === 404 && error.message === INVALID_LINK_MESSAGE)
          return linkProblem(res, error);
        throw error;
      }
    };

  const renderPage = async (
    res: Response,
    token: string,
    id: number,
    extra: { flash?: string | null; problem?: string | null; status?: number } = {},
  ) => {
    const view = await billingView(deps, id);
    res.status(extra.status ?? 200).page("billing/billing", {
      title: tOf(res)("billing-pages.title"),
      noindex: true,
      view,
      nextCharge: await nextCharge(view),
      token,
      flash: extra.flash ?? null,
      problem: extra.problem ? serverMessage(tOf(res), extra.problem) : null,
      support,
      format,
    });
  };

  router.get(
    "/billing/:token",
    withToken(async (req, res, { token, id }) => {
      await renderPage(res, token, id, { flash: planFlash(res, req.query.done, ["canceled", "resumed", "card"]) });
    }),
  );

  // The cancel button's page: when it would take effect, said plainly before anything is done.
  router.get(
    "/billing/:token/cancel",
    withToken(async (_req, res, { token, id }) => {
      const view = await billingView(deps, id);
      if (view.ended || view.subscription.cancelAt) return res.redirect(303, pagePath(token));
      res.page("billing/cancel", {
        title: tOf(res)("billing-pages.title.cancel"),
        noindex: true,
        view,
        token,
        support,
        format,
        charges: await charges(view),
        errors: {},
        reason: "",
      });
    }),
  );

  router.post(
    "/billing/:token/cancel",
    withToken(async (req, res, { token, id }) => {
      const parsed = customerCancelSchema.safeParse(req.body ?? {});
      if (!parsed.success) {
        const view = await billingView(deps, id);
        const errors = Object.fromEntries(
          parsed.error.issues.map((issue) => [String(issue.path[0] ?? "_"), issue.message]),
        );
        return res.status(400).page("billing/cancel", {
          title: tOf(res)("billing-pages.title.cancel"),
          noindex: true,
          view,
          token,
          support,
          format,
          charges: await charges(view),
          errors: serverFields(tOf(res), errors),
          reason: String(req.body?.reason ?? ""),
        });
      }
      try {
        await subscriptions.cancel(id, { when: "period_end", reason: parsed.data.reason ?? null, actor: ACTOR });
      } catch (error) {
        if (
          error instanceof ConflictError ||
          error instanceof BillingUnavailableError ||
          error instanceof ChangePendingError
        )
          return renderPage(res, token, id, { problem: error.message, status: error.status });
        throw error;
      }
      res.redirect(303, `${pagePath(token)}?done=canceled`);
    }),
  );

  router.post(
    "/billing/:token/resume",
    withToken(async (_req, res, { token, id }) => {
      try {
        await subscriptions.resume(id, { actor: ACTOR });
      } catch (error) {
        if (
          error instanceof ConflictError ||
          error instanceof BillingUnavailableError ||
          error instanceof ChangePendingError
        )
          return renderPage(res, token, id, { problem: error.message, status: error.status });
        throw error;
      }
      res.redirect(303, `${pagePath(token)}?done=resumed`);
    }),
  );

  // Update card: Stripe's portal card flow for a Stripe subscription; Haven's demo card page otherwise.
  router.get(
    "/billing/:token/card",
    withToken(async (_req, res, { token, id }) => {
      const view = await billingView(deps, id);
      // An unpaid plan (Stripe's retries ran out) is recovered by paying its open invoice: the card flow stays open.
      if (view.ended && view.subscription.status !== "unpaid") return res.redirect(303, pagePath(token));
      if (view.subscription.provider === "stripe") {
        try {
          return res.redirect(303, await openPortal(deps, id, "card", token));
        } catch (error) {
          if (error instanceof HttpError && error.status >= 409)
            return renderPage(res, token, id, { problem: error.message, status: error.status });
          throw error;
        }
      }
      res.page("billing/card", {
        title: tOf(res)("my-home-plan.page.card"),
        noindex: true,
        view,
        token,
        support,
        format,
        errors: {},
        values: { cardNumber: "", expiry: "", cvc: "" },
      });
    }),
  );

  router.post(
    "/billing/:token/card",
    withToken(async (req, res, { token, id }) => {
      const input = req.body ?? {};
      const values = { cardNumber: String(input.cardNumber ?? ""), expiry: String(input.expiry ?? ""), cvc: "" };
      const again = async (errors: Record<string, string>, status = 400) =>
        res.status(status).page("billing/card", {
          title: tOf(res)("my-home-plan.page.card"),
          noindex: true,
          view: await billingView(deps, id),
          token,
          support,
          format,
          errors: serverFields(tOf(res), errors),
          values,
        });
      let card: { cardNumber: string };
      try {
        card = parse(demoCardFormSchema, input);
      } catch (error) {
        if (error instanceof ValidationError) return again(error.fields ?? { _: error.message });
        throw error;
      }
      try {
        await subscriptions.updateDemoCard(id, { cardNumber: card.cardNumber, actor: ACTOR });
      } catch (error) {
        // A declined test card names the card number field; a Stripe or ended subscription cannot take one here.
        if (error instanceof ValidationError) return again(error.fields ?? { cardNumber: error.message });
        if (error instanceof ConflictError) return again({ _: error.message }, 409);
        throw error;
      }
      res.redirect(303, `${pagePath(token)}?done=card`);
    }),
  );

  // Back from Stripe's card flow: the card chosen there becomes the subscription's and pays an open invoice.
  router.get(
    "/billing/:token/card/return",
    withToken(async (_req, res, { token, id }) => {
      try {
        await subscriptions.afterStripeCard(id, { actor: ACTOR });
      } catch (error) {
        if (error instanceof ConflictError || (error instanceof HttpError && error.status === 503))
          return renderPage(res, token, id, { problem: error.message, status: error.status });
        throw error;
      }
      res.redirect(303, `${pagePath(token)}?done=card`);
    }),
  );

  // Stripe's billing portal, for everything else the customer may manage there.
  router.get(
    "/billing/:token/portal",
    withToken(async (_req, res, { token, id }) => {
      try {
        res.redirect(303, await openPortal(deps, id, "manage", token));
      } catch (error) {
        if (error instanceof HttpError && error.status >= 409)
          return renderPage(res, token, id, { problem: error.message, status: error.status });
        throw error;
      }
    }),
  );

  return router;
}
