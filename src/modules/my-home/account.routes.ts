// My Home's Account: e-mail preferences (the day-before reminders on or off; the maintenance
// reminders honour it), the homeowner's passkeys (views/my-home/_passkeys.ejs and the sign-in module's calls)
// and 'Sign out everywhere' (POST /my-home/sign-out-everywhere, home-sign-in.routes.ts).
import type { Request, Response, Router } from "express";
import { HttpError } from "../../http/errors.js";
import { body, parse } from "../../http/validate.js";
import { billingDate } from "../subscriptions/index.js";
import { homeViewer, requireHomeApi, requireHomePage } from "./home-session.js";
import type { HomeAuthService } from "./home-auth.service.js";
import type { VisitsService } from "./visits.service.js";
import { preferencesSchema } from "./visits.schemas.js";
import { createRouter } from "../../http/router.js";

/** What the Account page and calls use: the preferences (VisitsService), the passkeys (HomeAuthService). */
export interface AccountRoutesDeps {
  visits: Pick<VisitsService, "preferences" | "setPreferences">;
  homeAuth: Pick<HomeAuthService, "passkeys">;
  settings: { timeZone: string };
}

export function accountApi(deps: Pick<AccountRoutesDeps, "visits">): Router {
  const router = createRouter();
  const { visits } = deps;

  router.get("/my-home/preferences", requireHomeApi, async (_req, res) => {
    res.json(await visits.preferences(homeViewer(res).email));
  });

  router.patch("/my-home/preferences", requireHomeApi, async (req, res) => {
    res.json(await visits.setPreferences(homeViewer(res).email, body(req, preferencesSchema)));
  });

  return router;
}

type Flash = "saved";
const FLASHES: Record<Flash, string> = { saved: "Your e-mail preferences are saved." };

export function accountPages(deps: AccountRoutesDeps): Router {
  const router = createRouter();
  const { visits, homeAuth } = deps;
  const tz = deps.settings.timeZone;

  const renderAccount = async (
    req: Request,
    res: Response,
    extra: { status?: number; problem?: string | null } = {},
  ) => {
    const email = homeViewer(res).email;
    const [preferences, passkeys] = await Promise.all([visits.preferences(email), homeAuth.passkeys(email)]);
    const done =
      typeof req.query.done === "string" && req.query.done in FLASHES ? FLASHES[req.query.done as Flash] : null;
    res.status(extra.status ?? 200).page("my-home/account", {
      title: "Account | My Home | Haven",
      noindex: true,
      footer: true,
      tab: "account",
      email,
      preferences,
      passkeys,
      flash: done,
      problem: extra.problem ?? null,
      formatDate: (iso: string) => billingDate(iso, tz),
    });
  };

  router.get("/my-home/account", requireHomePage, (req, res) => renderAccount(req, res));

  // The form sends 'reminders' only when its box is ticked.
  router.post("/my-home/account/preferences", requireHomePage, async (req, res) => {
    try {
      await visits.setPreferences(
        homeViewer(res).email,
        parse(preferencesSchema, { reminders: req.body?.reminders ?? "false" }),
      );
    } catch (error) {
      if (error instanceof HttpError && error.status === 400)
        return renderAccount(req, res, { status: 400, problem: error.message });
      throw error;
    }
    res.redirect(303, "/my-home/account?done=saved");
  });

  return router;
}
