// A failed payment the office can act on (docs/decisions.md#62): "Retry the payment now" and "Send a card-update
// link", as staff JSON calls and as the subscription page's two buttons. The rules are payment-recovery.ts's.
import type { Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { ConflictError, HttpError } from "../../http/errors.js";
import { idParams } from "../../http/fields.js";
import { requireStaffApi } from "../../http/guards.js";
import { createRouter } from "../../http/router.js";
import { params, parse } from "../../http/validate.js";
import { BillingUncertainError } from "./billing-provider.js";
import { staffActor } from "./subscriptions.routes.js";
import { idempotencyKeyHeader } from "./subscriptions.schemas.js";
import type { SubscriptionsService } from "./subscriptions.service.js";

type Notice = { variant: "success" | "error" | "info"; title: string; description?: string };

/** The subscription page's details, rendered with a notice (subscriptions-admin.routes.ts). */
export type RenderDetail = (
  req: Request,
  res: Response,
  id: number,
  form: { notice?: Notice },
  status?: number,
) => Promise<void>;

/** The buttons' forms carry a fresh key per render: a double click is one charge, one e-mail. */
export const clickForm = z.object({
  key: z
    .string()
    .trim()
    .regex(/^[\w.:-]{1,100}$/)
    .optional()
    .catch(undefined),
});

const requestKey = (req: Request) =>
  parse(idempotencyKeyHeader, { "idempotency-key": req.get("Idempotency-Key") })["idempotency-key"] ?? null;

/** POST /api/subscriptions/{id}/retry-payment and /card-update-link; mounted beside subscriptionsApi. */
export function paymentRecoveryApi({ subscriptions }: { subscriptions: SubscriptionsService }): Router {
  const router = createRouter();
  // 402 is the card's message (as a declined upgrade, docs/decisions.md#49); a 409 carries the subscription as it is.
  const refusedWithState = async (res: Response, id: number, work: () => Promise<unknown>) => {
    try {
      res.json(await work());
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      res.status(409).json({ message: error.message, subscription: await subscriptions.get(id) });
    }
  };
  router.post("/subscriptions/:id/retry-payment", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const key = requestKey(req);
    await refusedWithState(res, id, () =>
      subscriptions.recovery.retry(id, { actor: staffActor(req), requestKey: key }, new Date()),
    );
  });
  router.post("/subscriptions/:id/card-update-link", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const key = requestKey(req);
    await refusedWithState(res, id, () =>
      subscriptions.recovery.sendCardLink(id, { actor: staffActor(req), requestKey: key }),
    );
  });
  return router;
}

/** The page's buttons: the details come back with what happened (htmx swaps them; without script, the page). */
export function paymentRecoveryPages(
  router: Router,
  {
    subscriptions,
    staffPage,
    render,
  }: { subscriptions: SubscriptionsService; staffPage: RequestHandler[]; render: RenderDetail },
): void {
  const button = (path: string, work: (req: Request, id: number, key: string | null) => Promise<Notice>) =>
    router.post(`/admin/subscriptions/:id/${path}`, ...staffPage, async (req, res) => {
      const { id } = params(req, idParams);
      const fragment = req.get("hx-request") === "true";
      const { key } = clickForm.parse(req.body ?? {});
      try {
        await render(req, res, id, { notice: await work(req, id, key ?? null) });
      } catch (error) {
        if (!(error instanceof HttpError) || ![402, 409, 503].includes(error.status)) throw error;
        const title =
          error.status === 402
            ? "Declined"
            : error instanceof BillingUncertainError
              ? "Being checked"
              : "Nothing was changed";
        await render(
          req,
          res,
          id,
          { notice: { variant: "error", title, description: error.message } },
          fragment ? 200 : error.status,
        );
      }
    });
  button("retry-payment", async (req, id, key) => {
    const s = await subscriptions.recovery.retry(id, { actor: staffActor(req), requestKey: key }, new Date());
    return {
      variant: "success",
      title: "Paid",
      description: `The open invoice is paid; the plan is ${s.status} again.`,
    };
  });
  button("card-update-link", async (req, id, key) => {
    const { message } = await subscriptions.recovery.sendCardLink(id, { actor: staffActor(req), requestKey: key });
    return { variant: "success", title: "Card-update link sent", description: `${message}.` };
  });
}
