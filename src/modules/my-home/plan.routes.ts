// My Home's Plan: the page, the confirm pages that state the dates before anything changes,
// the demo card form or Stripe's billing portal, a receipt page per invoice, and the JSON calls under
// /api/my-home/subscription. Every action is SubscriptionsService's own (actor 'customer'); HomePlanPage
// checks the subscription is the homeowner's (404 otherwise).
import type { Request, Response, Router } from "express";
import { z } from "zod";
import { HttpError, ValidationError } from "../../http/errors.js";
import { body, params, parse } from "../../http/validate.js";
import { homeViewer, requireHomeApi, requireHomePage } from "./home-session.js";
import type { HomePlanPage } from "./plan.service.js";
import {
  homeCancelSchema,
  homeCardFormSchema,
  homeCardSchema,
  homeChangePlanSchema,
  homeResumeSchema,
  invoiceParams,
  subscriptionParams,
  subscriptionQuery,
} from "./visits.schemas.js";
import { createRouter } from "../../http/router.js";
import { billingWords, planFlash } from "../subscriptions/index.js";
import type { Translator } from "../../i18n/index.js";
import { serverFields, serverMessage } from "../../i18n/server-messages.js";

const noStore = (res: Response) => res.setHeader("Cache-Control", "no-store");
const planPath = "/my-home/plan";
/** Where Stripe's card flow comes back to: the card's return page, which adopts the new card. */
const returnUrl = (publicUrl: string, id: number) => `${publicUrl.replace(/\/+$/, "")}${planPath}/${id}/card/return`;

/** What the Plan page and calls use: HomePlanPage, and settings. */
export interface PlanRoutesDeps {
  planPage: HomePlanPage;
  settings: {
    /** The site's public URL: where Stripe's card flow comes back to. */
    publicUrl: string;
    timeZone: string;
    supportEmail: string;
    supportPhone: string;
  };
}

/** The confirmation's hidden instant (upgrade-preview.ts); absent on a downgrade. */
const prorationForm = z.object({
  prorationDate: z.iso
    .datetime()
    .transform((v) => new Date(v))
    .optional(),
});

export function planApi(
  deps: Pick<PlanRoutesDeps, "planPage"> & { settings: Pick<PlanRoutesDeps["settings"], "publicUrl"> },
): Router {
  const router = createRouter();
  const plans = deps.planPage;

  router.get("/my-home/subscription", requireHomeApi, async (_req, res) => {
    noStore(res);
    res.json({ subscriptions: await plans.plans(homeViewer(res).email) });
  });

  // A customer cancels at the end of the period only (docs/decisions.md#25): the answer states when it takes effect.
  router.post("/my-home/subscription/cancel", requireHomeApi, async (req, res) => {
    noStore(res);
    const { subscriptionId, reason } = body(req, homeCancelSchema);
    res.json(await plans.cancel(homeViewer(res).email, subscriptionId, reason ?? null));
  });

  router.post("/my-home/subscription/resume", requireHomeApi, async (req, res) => {
    noStore(res);
    const { subscriptionId } = body(req, homeResumeSchema);
    res.json(await plans.resume(homeViewer(res).email, subscriptionId));
  });

  router.post("/my-home/subscription/change-plan", requireHomeApi, async (req, res) => {
    noStore(res);
    const { subscriptionId, planType } = body(req, homeChangePlanSchema);
    res.json(await plans.changePlan(homeViewer(res).email, subscriptionId, planType));
  });

  // Demo mode: the card number (the plan comes back). Stripe: no card here; the answer is the billing portal's URL.
  router.post("/my-home/subscription/card", requireHomeApi, async (req, res) => {
    noStore(res);
    const input = body(req, homeCardSchema);
    const email = homeViewer(res).email;
    const sub = await plans.own(email, input.subscriptionId);
    if (sub.provider === "stripe")
      return void res.json({
        url: await plans.cardPortalUrl(email, sub.id, returnUrl(deps.settings.publicUrl, sub.id)),
      });
    if (!input.cardNumber)
      throw new ValidationError("Card number is required", { cardNumber: "Card number is required" });
    res.json(await plans.updateDemoCard(email, sub.id, input.cardNumber));
  });

  return router;
}

/** What a page form did, by code: the catalogue's my-home-plan.flash.<code>. */
const FLASHES = ["canceled", "resumed", "card", "changed"];
const tOf = (res: Response) => res.locals.t as Translator;

export function planPages(deps: PlanRoutesDeps): Router {
  const router = createRouter();
  const plans = deps.planPage;
  const tz = deps.settings.timeZone;
  const support = { email: deps.settings.supportEmail, phone: deps.settings.supportPhone };
  /** A page's title, helpers and support line in the page's language. */
  const common = (res: Response, page: string, values?: Record<string, string | number>) => {
    const words = billingWords(res, tz);
    return {
      title: tOf(res)("my-home-plan.title", { page: tOf(res)(`my-home-plan.page.${page}`, values) }),
      noindex: true,
      footer: true,
      tab: "plan",
      format: { date: words.date, amount: words.amount },
      words,
      support,
    };
  };

  const renderPlan = async (req: Request, res: Response, extra: { status?: number; problem?: string | null } = {}) => {
    noStore(res);
    const done = planFlash(res, req.query.done, FLASHES);
    res.status(extra.status ?? 200).page("my-home/plan", {
      ...common(res, "plan"),
      plans: await plans.plans(homeViewer(res).email),
      flash: done,
      problem: extra.problem ? serverMessage(tOf(res), extra.problem) : null,
    });
  };

  /** Runs a form action; a refusal the customer can act on (400, 409, 503) shows on the page that asked. */
  const act =
    (
      work: (req: Request, res: Response, id: number) => Promise<string | undefined>,
      again: (req: Request, res: Response, id: number, error: HttpError) => Promise<void>,
    ) =>
    async (req: Request, res: Response) => {
      noStore(res);
      const { id } = params(req, subscriptionParams);
      try {
        const to = await work(req, res, id);
        if (to) res.redirect(303, to);
      } catch (error) {
        if (error instanceof HttpError && error.status !== 404 && (error.status < 500 || error.status === 503))
          return again(req, res, id, error);
        throw error;
      }
    };
  const backToPlan = async (req: Request, res: Response, _id: number, error: HttpError) =>
    renderPlan(req, res, { status: error.status, problem: error.message });

  router.get("/my-home/plan", requireHomePage, (req, res) => renderPlan(req, res));

  // Cancel: the page states when it would take effect, and the minimum term, before the customer confirms.
  const renderCancel = async (
    res: Response,
    id: number,
    extra: { status?: number; errors?: Record<string, string>; reason?: string } = {},
  ) => {
    const plan = await plans.plan(homeViewer(res).email, id);
    if (plan.ended || plan.subscription.cancelAt) return res.redirect(303, planPath);
    res.status(extra.status ?? 200).page("my-home/plan-cancel", {
      ...common(res, "cancel"),
      plan,
      errors: serverFields(tOf(res), extra.errors),
      reason: extra.reason ?? "",
    });
  };
  router.get("/my-home/plan/:id/cancel", requireHomePage, async (req, res) => {
    noStore(res);
    await renderCancel(res, params(req, subscriptionParams).id);
  });
  router.post(
    "/my-home/plan/:id/cancel",
    requireHomePage,
    act(
      async (req, res, id) => {
        const { reason } = parse(homeCancelSchema.omit({ subscriptionId: true }), req.body ?? {});
        await plans.cancel(homeViewer(res).email, id, reason ?? null);
        return `${planPath}?done=canceled`;
      },
      async (req, res, id, error) =>
        error instanceof ValidationError
          ? renderCancel(res, id, { status: 400, errors: error.fields ?? {}, reason: String(req.body?.reason ?? "") })
          : backToPlan(req, res, id, error),
    ),
  );

  router.post(
    "/my-home/plan/:id/resume",
    requireHomePage,
    act(async (_req, res, id) => {
      await plans.resume(homeViewer(res).email, id);
      return `${planPath}?done=resumed`;
    }, backToPlan),
  );

  // Change plan: the page says when the change applies (an upgrade now, with a prorated charge; a downgrade at the period's end).
  router.get("/my-home/plan/:id/change", requireHomePage, async (req, res) => {
    noStore(res);
    const { id } = params(req, subscriptionParams);
    const { plan: target } = subscriptionQuery.parse(req.query);
    const plan = await plans.plan(homeViewer(res).email, id);
    if (plan.ended) return res.redirect(303, planPath);
    const change = plan.changes.find((c) => c.planType === target) ?? null;
    // docs/decisions.md#63: what it asks for, tax included, an upgrade's as the provider will charge it.
    const charges = change ? await plans.changeCharges(homeViewer(res).email, id, change) : null;
    res.page("my-home/plan-change", { ...common(res, "change"), plan, change, charges });
  });
  router.post(
    "/my-home/plan/:id/change",
    requireHomePage,
    act(async (req, res, id) => {
      const { planType } = parse(homeChangePlanSchema.pick({ planType: true }), req.body ?? {});
      // The instant the page prorated the charge at: the charge made is the one shown (upgrade-preview.ts).
      const { prorationDate } = parse(prorationForm, req.body ?? {});
      await plans.changePlan(homeViewer(res).email, id, planType, new Date(), prorationDate ?? null);
      return `${planPath}?done=changed`;
    }, backToPlan),
  );

  // Update card: Stripe's billing portal (its card flow) for a Stripe plan; Haven's demo card form otherwise.
  const renderCard = async (
    res: Response,
    id: number,
    extra: { status?: number; errors?: Record<string, string>; values?: Record<string, string> } = {},
  ) => {
    const plan = await plans.plan(homeViewer(res).email, id);
    res.status(extra.status ?? 200).page("my-home/plan-card", {
      ...common(res, "card"),
      plan,
      errors: serverFields(tOf(res), extra.errors),
      values: extra.values ?? { cardNumber: "", expiry: "", cvc: "" },
    });
  };
  router.get(
    "/my-home/plan/:id/card",
    requireHomePage,
    act(async (_req, res, id) => {
      const email = homeViewer(res).email;
      const plan = await plans.plan(email, id);
      if (plan.ended) return planPath;
      if (plan.subscription.provider === "stripe")
        return plans.cardPortalUrl(email, id, returnUrl(deps.settings.publicUrl, id));
      await renderCard(res, id);
    }, backToPlan),
  );
  router.post(
    "/my-home/plan/:id/card",
    requireHomePage,
    act(
      async (req, res, id) => {
        const card = parse(homeCardFormSchema, req.body ?? {});
        await plans.updateDemoCard(homeViewer(res).email, id, card.cardNumber);
        return `${planPath}?done=card`;
      },
      async (req, res, id, error) =>
        error.status === 400 || error.status === 409
          ? renderCard(res, id, {
              status: error.status,
              errors: error.fields ?? { _: error.message },
              values: {
                cardNumber: String(req.body?.cardNumber ?? ""),
                expiry: String(req.body?.expiry ?? ""),
                cvc: "",
              },
            })
          : backToPlan(req, res, id, error),
    ),
  );

  // Back from Stripe's card flow: adopt the card the customer chose there.
  router.get(
    "/my-home/plan/:id/card/return",
    requireHomePage,
    act(async (_req, res, id) => {
      await plans.afterCardUpdate(homeViewer(res).email, id);
      return `${planPath}?done=card`;
    }, backToPlan),
  );

  // A receipt per invoice: a page to keep or print.
  router.get("/my-home/plan/invoices/:id", requireHomePage, async (req, res) => {
    noStore(res);
    const { id } = params(req, invoiceParams);
    const { plan, invoice, billedTo } = await plans.receipt(homeViewer(res).email, id);
    res.page("my-home/receipt", {
      ...common(res, "receipt", { number: invoice.number ?? invoice.id }),
      plan,
      invoice,
      business: plans.business,
      email: homeViewer(res).email,
      billedTo,
    });
  });

  return router;
}
