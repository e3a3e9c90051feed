import type { Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { HttpError, ValidationError } from "../../http/errors.js";
import { idParams } from "../../http/fields.js";
import { maySeeRevenue } from "../../http/roles.js";
import { params, parse } from "../../http/validate.js";
import { todayIn } from "../../shared/business-time.js";
import { PLAN_TYPES, type Plan, type PlansService } from "../plans/index.js";
import { cancellationTakesEffect } from "./billing-dates.js";
import { BillingUncertainError } from "./billing-provider.js";
import type { PlanDeliveryListener } from "./plan-delivery-listener.js";
import { staffActor } from "./subscriptions.routes.js";
import {
  ENDED_STATUSES,
  SUBSCRIPTION_STATUSES,
  cancelFormSchema,
  changePlanSchema,
  serviceRequestSchema,
} from "./subscriptions.schemas.js";
import type { SubscriptionsService } from "./subscriptions.service.js";
import {
  ACTIONS,
  type Action,
  type Notice,
  formatters,
  nextCharge,
  noticeFor,
  statusLabel,
} from "./subscriptions-admin.format.js";
import { refundFormSchema } from "../invoices/invoices.schemas.js";
import type { InvoicesService } from "../invoices/index.js";
import { clickKey, invoicesAdminPages } from "../invoices/index.js";
import { purchaseFacts } from "./subscriptions-admin.billing.js";
import { paymentRecoveryPages } from "./payment-recovery.routes.js";
import { createRouter } from "../../http/router.js";
import { pageCount } from "../../http/capped-count.js";

// The properties page's badge and dialog section (subscriptions-admin.format.ts), for src/app.ts through index.ts.
export { pastDueProperties, propertySubscription } from "./subscriptions-admin.format.js";

export interface SubscriptionsAdminDeps {
  subscriptions: SubscriptionsService;
  plans: Pick<PlansService, "list">;
  /** Staff names for the events log (auth's UsersService). */
  users: { findById(id: number): Promise<{ firstName: string; lastName: string } | null | undefined> };
  /** Maintenance's PlanDeliveries: staff ask for an on-request plan service. */
  planDeliveries: Pick<PlanDeliveryListener, "requestService">;
  /** http/admin.ts's staffPage: a staff session, and the admin shell's locals. */
  staffPage: RequestHandler[];
  timeZone: string;
  /** Refunds and disputes (invoices.service.ts, docs/decisions.md#34). */
  invoices: Pick<InvoicesService, "refund" | "disputes" | "get" | "payer" | "list" | "resendReceipt" | "lastResends">;
}

/** Rows per page of /admin/subscriptions. */
export const SUBSCRIPTIONS_PAGE_SIZE = 25;

// The page never refuses its own links: a filter value it does not know is no filter (the API answers 400).
const pageQuery = z.object({
  q: z.string().trim().max(200).catch("").default(""),
  status: z.enum(SUBSCRIPTION_STATUSES).or(z.literal("")).catch("").default(""),
  plan: z.enum(PLAN_TYPES).or(z.literal("")).catch("").default(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

const doneQuery = z.object({
  done: z.enum(ACTIONS).optional().catch(undefined),
  // A receipt resent without script (invoices-admin.routes.ts) comes back here.
  resent: z.coerce.number().int().min(1).optional().catch(undefined),
});

/**
 * /admin/subscriptions: the figures, filters, search and a paged list; htmx swaps only the
 * results. /admin/subscriptions/{id}: one subscription with its invoices, events and plan services, and the
 * staff actions as plain forms (htmx swaps the details in place; without script they post and redirect).
 */
export function subscriptionsAdminPages({
  subscriptions,
  plans: planCatalogue,
  users,
  planDeliveries,
  staffPage,
  timeZone,
  invoices: invoiceSide,
}: SubscriptionsAdminDeps): Router {
  const router = createRouter();

  const plansByType = async () => new Map((await planCatalogue.list()).map((p: Plan) => [p.type, p]));

  // /admin/invoices and its resend button (invoices-admin.routes.ts).
  invoicesAdminPages(router, {
    invoices: invoiceSide,
    planNames: async () => {
      const plans = await plansByType();
      return (type: string) => plans.get(type as Plan["type"])?.name ?? type;
    },
    staffPage,
    timeZone,
  });

  router.get("/admin/subscriptions", ...staffPage, async (req, res) => {
    const { q, status, plan, page } = pageQuery.parse(req.query);
    const offset = (page - 1) * SUBSCRIPTIONS_PAGE_SIZE;
    const fragment = req.get("hx-target") === "subscription-results";
    const [{ rows, total, capped }, metrics, plans] = await Promise.all([
      subscriptions.list({
        limit: SUBSCRIPTIONS_PAGE_SIZE,
        offset,
        q: q || undefined,
        status: status || undefined,
        plan: plan || undefined,
      }),
      fragment ? null : subscriptions.metrics(),
      plansByType(),
    ]);
    // MRR is a revenue figure: the office sees the counts only (docs/decisions.md#36).
    const figures = metrics && !maySeeRevenue(req.staffUser?.role ?? "") ? { ...metrics, mrr: null } : metrics;
    const locals = {
      title: "Subscriptions",
      admin: "subscriptions",
      noindex: true,
      q,
      status,
      plan,
      page,
      pages: pageCount({ total, capped }, { page, size: SUBSCRIPTIONS_PAGE_SIZE, shown: rows.length }),
      total,
      capped,
      pageSize: SUBSCRIPTIONS_PAGE_SIZE,
      rows: rows.map((sub) => ({ sub, nextCharge: nextCharge(sub) })),
      metrics: figures,
      statuses: SUBSCRIPTION_STATUSES.map((value) => ({ value, label: statusLabel(value) })),
      plans: PLAN_TYPES.map((value) => ({ value, label: plans.get(value)?.name ?? value })),
      planName: (type: string) => plans.get(type as Plan["type"])?.name ?? type,
      fmt: formatters(timeZone),
    };
    if (fragment) return res.page("subscriptions/_results", locals);
    res.page("subscriptions/index", locals);
  });

  /** The details' locals: the subscription, what each action would do, and the forms' values and errors. */
  const detailLocals = async (
    id: number,
    form: { notice?: Notice; action?: Action; values?: Record<string, unknown>; errors?: Record<string, string> } = {},
  ) => {
    const [{ subscription: detail, priceList, invoices, events, services: schedules }, disputes] = await Promise.all([
      subscriptions.detail(id),
      invoiceSide.disputes(id),
    ]);
    const plans = await plansByType();
    const now = new Date();
    const current = plans.get(detail.planType);
    // Each refunded charge's refunds, and when each receipt was last sent again (docs/decisions.md#34).
    const [refunds, resends] = await Promise.all([
      Promise.all(invoices.filter((inv) => inv.status === "paid").map((inv) => invoiceSide.get(inv.id))).then(
        (found) => new Map(found.map((f) => [f.invoice.id, f.refunds])),
      ),
      invoiceSide.lastResends(invoices.map((inv) => inv.id)),
    ]);
    const cancelAt = cancellationTakesEffect({
      now,
      minimumTermEndsAt: new Date(detail.minimumTermEndsAt),
      currentPeriodEnd: new Date(detail.currentPeriodEnd),
    });
    const choices = [...plans.values()]
      // The current plan only to take a waiting downgrade back; never the plan already scheduled.
      .filter((p) => (p.type !== detail.planType || detail.scheduledPlanType) && p.type !== detail.scheduledPlanType)
      .map((p) => ({
        type: p.type,
        name: p.name,
        amount: current ? subscriptions.demo.amountFor(p, current, { priceList }) / 100 : p.price,
        kind:
          p.type === detail.planType
            ? ("keep" as const)
            : current && p.price > current.price
              ? ("upgrade" as const)
              : ("downgrade" as const),
      }));
    const staffIds = [
      ...new Set(
        events
          .map((e) => /^staff:(\d+)$/.exec(e.actor)?.[1])
          .filter(Boolean)
          .map(Number),
      ),
    ];
    const staffNames = new Map(
      await Promise.all(staffIds.map(async (sid) => [sid, await users.findById(sid)] as const)),
    );
    const actorLabel = (actor: string) => {
      const staff = /^staff:(\d+)$/.exec(actor);
      if (staff) {
        const user = staffNames.get(Number(staff[1]));
        return user ? `${user.firstName} ${user.lastName} (staff)` : `Staff #${staff[1]}`;
      }
      return (
        (
          { customer: "Customer", stripe: "Stripe", system: "Haven billing", cli: "Operator (CLI)" } as Record<
            string,
            string
          >
        )[actor] ?? actor
      );
    };
    const services = schedules;
    return {
      title: `${detail.customerName ?? detail.customerEmail ?? `Subscription #${id}`} | Subscriptions`,
      admin: "subscriptions",
      noindex: true,
      s: detail,
      invoices,
      disputes,
      events,
      services,
      refunds,
      resends,
      clickKey,
      back: `/admin/subscriptions/${id}`,
      purchase: purchaseFacts({ subscription: detail, priceList, invoices, events, plans }),
      planName: (type: string | null) => (type ? (plans.get(type as Plan["type"])?.name ?? type) : "—"),
      ended: ENDED_STATUSES.includes(detail.status),
      nextCharge: nextCharge(detail),
      cancelTakesEffect: cancelAt.toISOString(),
      beforeMinimum: now < new Date(detail.minimumTermEndsAt),
      today: todayIn(timeZone, now),
      choices,
      requestable: services.filter((svc) => svc.onRequest && !svc.endedAt),
      actorLabel,
      fmt: formatters(timeZone),
      notice: form.notice,
      action: form.action,
      values: form.values ?? {},
      errors: form.errors ?? {},
    };
  };

  const render = async (
    req: Request,
    res: Response,
    id: number,
    form: Parameters<typeof detailLocals>[1] = {},
    status = 200,
  ) => {
    const locals = await detailLocals(id, form);
    res
      .status(status)
      .page(req.get("hx-request") === "true" ? "subscriptions/_detail" : "subscriptions/detail", locals);
  };

  router.get("/admin/subscriptions/:id", ...staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const { done, resent } = doneQuery.parse(req.query);
    let notice: Notice | undefined = resent
      ? { variant: "success", title: "Receipt sent", description: "The customer is e-mailed the receipt again." }
      : undefined;
    if (done) {
      const s = await subscriptions.get(id);
      const plans = await plansByType();
      notice = noticeFor(done, s, (t) => (t ? (plans.get(t as Plan["type"])?.name ?? t) : "—"), formatters(timeZone));
    }
    await render(req, res, id, { notice });
  });

  /**
   * One staff action: success redirects to the details (htmx: the details swapped in with the notice); a refused
   * field shows under its field with what was typed; a refusal of the whole action (409, 503) shows as a notice.
   */
  const action = (name: Action, work: (req: Request, id: number) => Promise<unknown>) =>
    router.post(`/admin/subscriptions/:id/${name}`, ...staffPage, async (req, res) => {
      const { id } = params(req, idParams);
      const fragment = req.get("hx-request") === "true";
      const typed = typeof req.body === "object" && req.body ? (req.body as Record<string, unknown>) : {};
      let done: Action = name;
      try {
        if ((await work(req, id)) === "refund-pending") done = "refund-pending";
      } catch (error) {
        if (error instanceof ValidationError) {
          if (fragment) res.set("HX-Reswap", "outerHTML");
          return render(
            req,
            res,
            id,
            { action: name, values: typed, errors: error.fields ?? { _: error.message } },
            fragment ? 200 : 400,
          );
        }
        if (error instanceof HttpError && (error.status === 409 || error.status === 503 || error.status === 202)) {
          return render(
            req,
            res,
            id,
            {
              action: name,
              values: typed,
              // A change Stripe may have applied is being checked, not "nothing changed" (docs/decisions.md#35).
              notice: {
                variant: "error",
                title:
                  error instanceof BillingUncertainError || error.status === 202
                    ? "Being checked"
                    : "Nothing was changed",
                description: error.message,
              },
            },
            fragment ? 200 : error.status,
          );
        }
        throw error;
      }
      if (!fragment) return res.redirect(303, `/admin/subscriptions/${id}?done=${done}`);
      const s = await subscriptions.get(id);
      const plans = await plansByType();
      await render(req, res, id, {
        notice: noticeFor(done, s, (t) => (t ? (plans.get(t as Plan["type"])?.name ?? t) : "—"), formatters(timeZone)),
      });
    });

  action("cancel", async (req, id) => {
    const { when, reason } = parse(cancelFormSchema, req.body ?? {});
    await subscriptions.cancel(id, { when, reason, actor: staffActor(req) });
  });
  action("resume", (req, id) => subscriptions.resume(id, { actor: staffActor(req) }));
  action("change-plan", async (req, id) => {
    const { planType } = parse(changePlanSchema, req.body ?? {});
    await subscriptions.changePlan(id, { planType, actor: staffActor(req) });
  });
  // docs/decisions.md#34: the amount in dollars (blank: all that is left), tax in proportion; the form's figure of
  // what was refunded so far makes a double click one refund.
  action("refund", async (req, id) => {
    const input = parse(refundFormSchema, req.body ?? {});
    try {
      const { refund } = await invoiceSide.refund(input.invoiceId, {
        amountCents: input.amount,
        reason: input.reason,
        expectedRefundedCents: input.expectedRefundedCents,
        subscriptionId: id,
        actor: staffActor(req),
      });
      return refund.status === "pending" ? "refund-pending" : undefined;
    } catch (error) {
      // The call names the amount in cents; the form asks for dollars.
      if (error instanceof ValidationError && error.fields?.amountCents)
        throw new ValidationError(error.message, { amount: error.fields.amountCents });
      throw error;
    }
  });
  action("service-request", async (req, id) => {
    const input = parse(serviceRequestSchema, req.body ?? {});
    await planDeliveries.requestService({
      subscriptionId: id,
      service: input.service,
      date: input.date,
      notes: input.notes ?? null,
      source: "staff",
    });
  });

  // A past-due plan's "Retry the payment now" and "Send a card-update link" (docs/decisions.md#62).
  paymentRecoveryPages(router, { subscriptions, staffPage, render });
  return router;
}
