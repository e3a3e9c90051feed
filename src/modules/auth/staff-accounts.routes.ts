import type { Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { HttpError, UnauthorizedError, ValidationError } from "../../http/errors.js";
import { requireStaffApi } from "../../http/guards.js";
import { params } from "../../http/validate.js";
import type { StaffUser } from "./auth.schemas.js";
import { accountIdParams } from "./staff-accounts.schemas.js";
import { STAFF_LINK_HOURS, type StaffAccountsService, TooManyResetsError } from "./staff-accounts.service.js";
import { REQUIRE_SWITCH } from "./two-step.routes.js";
import type { TwoStepService } from "./two-step.service.js";
import { STAFF_ROLES } from "./users.service.js";
import { createRouter } from "../../http/router.js";
import { clockFormat } from "../../shared/business-time.js";

/** What the staff-account routes use; src/app.ts passes them (docs/decisions.md#38). */
export interface StaffAccountsRoutesDeps {
  accounts: StaffAccountsService;
  /** The staff page guard and admin shell (src/http/admin.ts staffPage), built once by src/app.ts. */
  staffPage: RequestHandler[];
  timeZone: string;
  /** The owner's two-step requirement and its switch (docs/decisions.md#38); none, the page shows no switch. */
  twoStep?: Pick<TwoStepService, "required" | "setRequired" | "hasSecondStep">;
}

const actorOf = (req: Request): StaffUser => {
  if (!req.staffUser) throw new UnauthorizedError();
  return req.staffUser;
};
const addressOf = (req: Request) => req.ip ?? "unknown";
const retryAfter = (res: Response, error: unknown) => {
  if (error instanceof TooManyResetsError) res.setHeader("Retry-After", String(error.retryAfterSeconds));
};

/** GET/POST /api/staff-users, PATCH /api/staff-users/{id}, POST /api/staff-users/{id}/reset-link: owners only. */
export function staffAccountsApi(deps: StaffAccountsRoutesDeps): Router {
  const router = createRouter();
  router.get("/staff-users", requireStaffApi, async (req, res) => {
    res.json(await deps.accounts.list(actorOf(req)));
  });
  router.post("/staff-users", requireStaffApi, async (req, res) => {
    res.status(201).json(await deps.accounts.invite(actorOf(req), req.body ?? {}));
  });
  router.patch("/staff-users/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, accountIdParams);
    res.json(await deps.accounts.change(actorOf(req), id, req.body ?? {}));
  });
  router.post("/staff-users/:id/reset-link", requireStaffApi, async (req, res) => {
    const { id } = params(req, accountIdParams);
    const account = await deps.accounts.sendReset(actorOf(req), id, addressOf(req)).catch((error: unknown) => {
      retryAfter(res, error);
      throw error;
    });
    res.status(202).json(account);
  });
  return router;
}

type Notice = { variant: "success" | "error"; title: string; description: string };
const DONE: Record<string, string> = {
  invited: "The invitation was sent.",
  role: "The role was changed.",
  deactivated: "The account was deactivated and its sessions ended.",
  reactivated: "The account was reactivated.",
  "reset-link": "A reset link was sent.",
  "two-step": "The two-step sign-in setting was saved.",
};

/** /admin/staff (owners), and /staff/set-password, the page of the invitation and reset links. */
export function staffAccountsPages(deps: StaffAccountsRoutesDeps): Router {
  const router = createRouter();
  const when = clockFormat({
    timeZone: deps.timeZone,
    dateStyle: "medium",
    timeStyle: "short",
  });

  const render = async (
    req: Request,
    res: Response,
    locals: { notice?: Notice | null; errors?: Record<string, string>; values?: Record<string, unknown> },
    status = 200,
  ) => {
    const accounts = await deps.accounts.list(actorOf(req));
    const fragment = req.get("hx-request") === "true";
    res.status(fragment ? 200 : status).page(fragment ? "admin/_staff-panel" : "admin/staff", {
      title: "Staff",
      admin: "staff",
      noindex: true,
      accounts,
      roles: STAFF_ROLES,
      me: actorOf(req).id,
      formatWhen: (iso: string | null) => (iso ? when.format(new Date(iso)) : "Never"),
      notice: locals.notice ?? null,
      errors: locals.errors ?? {},
      values: locals.values ?? {},
      linkHours: STAFF_LINK_HOURS,
      twoStepRequired: deps.twoStep ? await deps.twoStep.required() : null,
      // The switch turns the requirement on only for an owner with a second step of their own.
      ownSecondStep: deps.twoStep ? await deps.twoStep.hasSecondStep(actorOf(req).id) : true,
    });
  };

  router.get("/admin/staff", ...deps.staffPage, async (req, res) => {
    const done = typeof req.query.done === "string" ? DONE[req.query.done] : undefined;
    await render(req, res, { notice: done ? { variant: "success", title: "Done", description: done } : null });
  });

  /** One owner action: plain form → 303 back; htmx → the panel with a notice. A refusal shows on the panel. */
  const action = (path: string, name: string, work: (req: Request) => Promise<unknown>) =>
    router.post(path, ...deps.staffPage, async (req, res) => {
      const fragment = req.get("hx-request") === "true";
      const typed = typeof req.body === "object" && req.body ? (req.body as Record<string, unknown>) : {};
      try {
        await work(req);
      } catch (error) {
        retryAfter(res, error);
        if (error instanceof ValidationError && name === "invited")
          return render(req, res, { errors: error.fields ?? { _: error.message }, values: typed }, 400);
        if (error instanceof HttpError && error.status !== 403 && error.status < 500)
          return render(
            req,
            res,
            { notice: { variant: "error", title: "Nothing was changed", description: error.message }, values: typed },
            error.status,
          );
        throw error;
      }
      if (!fragment) return res.redirect(303, `/admin/staff?done=${name}`);
      await render(req, res, { notice: { variant: "success", title: "Done", description: DONE[name]! } });
    });

  const id = (req: Request) => params(req, accountIdParams).id;
  action("/admin/staff/invite", "invited", (req) => deps.accounts.invite(actorOf(req), req.body ?? {}));
  action("/admin/staff/:id/role", "role", (req) =>
    deps.accounts.change(actorOf(req), id(req), { role: (req.body as { role?: unknown })?.role }),
  );
  action("/admin/staff/:id/deactivate", "deactivated", (req) =>
    deps.accounts.change(actorOf(req), id(req), { active: false }),
  );
  action("/admin/staff/:id/reactivate", "reactivated", (req) =>
    deps.accounts.change(actorOf(req), id(req), { active: true }),
  );
  action("/admin/staff/:id/reset-link", "reset-link", (req) =>
    deps.accounts.sendReset(actorOf(req), id(req), addressOf(req)),
  );
  // The owner's requirement (TwoStepService.setRequired refuses turning it on without the owner's own second step).
  const twoStep = deps.twoStep;
  if (twoStep)
    action(REQUIRE_SWITCH, "two-step", (req) =>
      twoStep.setRequired(actorOf(req), (req.body as { required?: unknown } | undefined)?.required === "true"),
    );

  const page = (res: Response, status: number, locals: Record<string, unknown>) =>
    res.status(status).page("auth/set-password", {
      title: "Choose a password",
      noindex: true,
      token: "",
      purpose: "reset",
      email: "",
      errors: {},
      gone: false,
      ...locals,
    });
  const tokenQuery = z.object({ token: z.string().optional() });

  // A dead link says so plainly (410); opening a live one spends nothing, the form does.
  router.get("/staff/set-password", async (req, res) => {
    const { token } = tokenQuery.parse(req.query);
    const link = await deps.accounts.openLink(token);
    if (!link) return page(res, 410, { gone: true });
    page(res, 200, { token, purpose: link.purpose, email: link.email });
  });

  router.post("/staff/set-password", async (req, res) => {
    const typed = (req.body ?? {}) as Record<string, unknown>;
    const token = typeof typed.token === "string" ? typed.token : "";
    try {
      await deps.accounts.setPassword(typed);
      res.redirect(303, "/login?next=%2Fadmin");
    } catch (error) {
      if (error instanceof ValidationError && !error.fields?.token) {
        const link = await deps.accounts.openLink(token);
        if (link)
          return page(res, 400, { token, purpose: link.purpose, email: link.email, errors: error.fields ?? {} });
      }
      if (error instanceof ValidationError || (error instanceof HttpError && error.status === 410))
        return page(res, 410, { gone: true });
      throw error;
    }
  });
  return router;
}
