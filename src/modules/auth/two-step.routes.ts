import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import { HttpError, UnauthorizedError, ValidationError } from "../../http/errors.js";
import { idParams } from "../../http/fields.js";
import { requireStaffApi } from "../../http/guards.js";
import { body, params } from "../../http/validate.js";
import type { RegistrationResponseJSON } from "../../shared/webauthn.js";
import { staffPasskeySchema } from "./auth.schemas.js";
import type { StaffPasskeys } from "./staff-passkeys.service.js";
import { SET_UP_FIRST_MESSAGE, type TwoStepService } from "./two-step.service.js";
import { createRouter } from "../../http/router.js";

/** What the two-step routes use; src/app.ts passes them (docs/decisions.md#38). */
export interface TwoStepRoutesDeps {
  twoStep: TwoStepService;
  /** The staff page guard and admin shell (src/http/admin.ts staffPage), built once by src/app.ts. */
  staffPage: RequestHandler[];
}

export const TWO_STEP_PAGE = "/admin/account/two-step";
/** The owner's switch (staff-accounts.routes.ts): the role table keeps it the owner's (docs/decisions.md#38). */
export const REQUIRE_SWITCH = "/admin/staff/two-step";

/**
 * After the staff-session check: while an owner requires two-step sign-in, a staff user without an app reaches
 * only the page that adds one (pages redirect there, staff calls get 403), and can still log out.
 */
export function twoStepGate(twoStep: Pick<TwoStepService, "mustSetUp">): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!req.staffUser) return next();
    const path = req.path;
    const staffArea = path === "/admin" || path.startsWith("/admin/") || path.startsWith("/api/");
    if (!staffArea || path.startsWith(TWO_STEP_PAGE) || path.startsWith("/api/auth/")) return next();
    // An owner held here can still turn the requirement off from this page; turning it on needs their own step.
    if (req.method === "POST" && path === REQUIRE_SWITCH) return next();
    if (!(await twoStep.mustSetUp(req.staffUser.id))) return next();
    if (path.startsWith("/api/") || req.get("hx-request") === "true")
      return void res.status(403).json({ message: SET_UP_FIRST_MESSAGE });
    res.redirect(303, TWO_STEP_PAGE);
  };
}

/** The signed-in user's own authenticator app (add, confirm, remove); an owner held here sees the switch's off. */
export function twoStepPages(deps: TwoStepRoutesDeps): Router {
  const router = createRouter();
  const userOf = (req: Request) => {
    if (!req.staffUser) throw new UnauthorizedError();
    return req.staffUser;
  };
  const render = async (req: Request, res: Response, status = 200, error: string | null = null) => {
    const state = await deps.twoStep.status(userOf(req));
    res.status(status).page("admin/two-step", {
      title: "Two-step sign-in",
      admin: "two-step",
      noindex: true,
      ...state,
      error,
      done: typeof req.query.done === "string" ? req.query.done : null,
    });
  };

  router.get(TWO_STEP_PAGE, ...deps.staffPage, (req, res) => render(req, res));

  const action = (name: string, work: (req: Request) => Promise<unknown>) =>
    router.post(`${TWO_STEP_PAGE}/${name}`, ...deps.staffPage, async (req, res) => {
      try {
        await work(req);
      } catch (error) {
        if (error instanceof ValidationError || (error instanceof HttpError && error.status === 409))
          return render(req, res, error.status, error.message);
        throw error;
      }
      res.redirect(303, `${TWO_STEP_PAGE}?done=${name}`);
    });
  const codeOf = (req: Request) => (req.body as { code?: unknown } | undefined)?.code;
  action("start", (req) => deps.twoStep.start(userOf(req)));
  action("confirm", (req) => deps.twoStep.confirm(userOf(req), codeOf(req)));
  action("remove", (req) => deps.twoStep.remove(userOf(req), codeOf(req)));
  return router;
}

/**
 * The signed-in person's own passkeys, the other second step (docs/decisions.md#38): the page's script asks for
 * options, has the browser make the passkey, and sends it back. Under /api/auth/, so a person an owner's
 * requirement holds back can still add one.
 */
export function staffPasskeysApi(deps: { passkeys: StaffPasskeys }): Router {
  const router = createRouter();
  router.use("/auth/passkeys", requireStaffApi);
  const userOf = (req: Request) => {
    if (!req.staffUser) throw new UnauthorizedError();
    return req.staffUser;
  };
  router.get("/auth/passkeys", async (req, res) => {
    res.json(await deps.passkeys.list(userOf(req)));
  });
  router.post("/auth/passkeys/options", async (req, res) => {
    res.json(await deps.passkeys.registrationOptions(userOf(req)));
  });
  router.post("/auth/passkeys", async (req, res) => {
    const input = body(req, staffPasskeySchema);
    const response = input.response as unknown as RegistrationResponseJSON;
    res.status(201).json(await deps.passkeys.register(userOf(req), response, input.name));
  });
  router.delete("/auth/passkeys/:id", async (req, res) => {
    const { id } = params(req, idParams);
    await deps.passkeys.remove(userOf(req), id);
    res.status(204).end();
  });
  return router;
}
