// My Home's Account: e-mail preferences (the day-before reminders on or off; the maintenance
// reminders honour it), the language of their pages and e-mails (customers.locale), the homeowner's passkeys (views/my-home/_passkeys.ejs and the sign-in module's calls)
// and 'Sign out everywhere' (POST /my-home/sign-out-everywhere, home-sign-in.routes.ts).
import type { Request, Response, Router } from "express";
import { HttpError } from "../../http/errors.js";
import { body, parse } from "../../http/validate.js";
import { type Translator, localePath } from "../../i18n/index.js";
import { billingDate } from "../subscriptions/index.js";
import type { HomeAccess } from "./home-access.js";
import { homeViewer, requireHomeApi, requireHomePage } from "./home-session.js";
import type { HomeAuthService } from "./home-auth.service.js";
import type { VisitsService } from "./visits.service.js";
import { languageSchema, preferencesSchema } from "./visits.schemas.js";
import { createRouter } from "../../http/router.js";

/** What the Account page and calls use: the preferences (VisitsService), the passkeys (HomeAuthService). */
export interface AccountRoutesDeps {
  visits: Pick<VisitsService, "preferences" | "setPreferences">;
  homeAuth: Pick<HomeAuthService, "passkeys">;
  language: Pick<HomeAccess, "localeOf" | "setLocale">;
  settings: { timeZone: string };
}

export function accountApi(deps: Pick<AccountRoutesDeps, "visits" | "language">): Router {
  const router = createRouter();
  const { visits, language } = deps;

  router.get("/my-home/preferences", requireHomeApi, async (_req, res) => {
    res.json(await visits.preferences(homeViewer(res).email));
  });

  router.patch("/my-home/preferences", requireHomeApi, async (req, res) => {
    res.json(await visits.setPreferences(homeViewer(res).email, body(req, preferencesSchema)));
  });

  // The language of My Home and of the e-mails Haven sends (docs/decisions.md#65).
  router.put("/my-home/language", requireHomeApi, async (req, res) => {
    const { locale } = body(req, languageSchema);
    const email = homeViewer(res).email;
    if (!(await language.setLocale(email, locale))) throw new HttpError(409, NO_CUSTOMER_MESSAGE);
    res.json({ locale });
  });

  return router;
}

/** What a form did, by code: the catalogue's myhome.account.flash.<code>, in the page's language. */
const FLASHES = new Set(["saved", "language"]);
const NO_CUSTOMER_MESSAGE = "Only a Haven customer's language can be saved: no customer has this e-mail";

export function accountPages(deps: AccountRoutesDeps): Router {
  const router = createRouter();
  const { visits, homeAuth, language } = deps;
  const tz = deps.settings.timeZone;

  const renderAccount = async (
    req: Request,
    res: Response,
    extra: { status?: number; problem?: string | null } = {},
  ) => {
    const email = homeViewer(res).email;
    const [preferences, passkeys, locale] = await Promise.all([
      visits.preferences(email),
      homeAuth.passkeys(email),
      language.localeOf(email),
    ]);
    const t = res.locals.t as Translator;
    const done = typeof req.query.done === "string" && FLASHES.has(req.query.done) ? req.query.done : null;
    res.status(extra.status ?? 200).page("my-home/account", {
      title: t("myhome.account.title"),
      noindex: true,
      footer: true,
      tab: "account",
      email,
      preferences,
      passkeys,
      customerLocale: locale,
      flash: done && t(`myhome.account.flash.${done}`),
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
        return renderAccount(req, res, {
          status: 400,
          problem: (res.locals.t as Translator)("myhome.account.badPreferences"),
        });
      throw error;
    }
    res.redirect(303, "/my-home/account?done=saved");
  });

  // The language form: saved, then the page in that language (its address says it, docs/decisions.md#65).
  router.post("/my-home/account/language", requireHomePage, async (req, res) => {
    const checked = languageSchema.safeParse({ locale: req.body?.locale });
    if (!checked.success)
      return renderAccount(req, res, {
        status: 400,
        problem: (res.locals.t as Translator)("myhome.account.badLanguage"),
      });
    if (!(await language.setLocale(homeViewer(res).email, checked.data.locale)))
      return renderAccount(req, res, {
        status: 409,
        problem: (res.locals.t as Translator)("myhome.account.noCustomer"),
      });
    // Not res.redirect: on a French page it would keep French (src/i18n/middleware.ts), whatever was chosen.
    res.status(303).location(localePath("/my-home/account?done=language", checked.data.locale)).end();
  });

  return router;
}
