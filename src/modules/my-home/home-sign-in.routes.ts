// My Home sign-in (docs/decisions.md#28): pages that work without script, the passkey calls,
// and staff's 'Send sign-in link'. The rules live in HomeAuthService; here only forms, cookies and redirects.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import { HttpError, fieldsFromZod } from "../../http/errors.js";
import { requireStaffApi } from "../../http/guards.js";
import { body, params } from "../../http/validate.js";
import { isToken } from "../../shared/one-time-links.js";
import { type HomeAuthService, TOO_MANY_SIGN_INS_MESSAGE, TooManySignInsError } from "./home-auth.service.js";
import { clearHomeCookie, homeViewer, requireHomeApi, setHomeCookie } from "./home-session.js";
import {
  CODE_MESSAGE,
  EMAIL_MESSAGE,
  passkeyIdSchema,
  passkeyRegisterSchema,
  passkeySignInSchema,
  propertyIdSchema,
  signInCodeSchema,
  signInRequestSchema,
} from "./home-sign-in.schemas.js";
import { escapeHtml } from "../../shared/html.js";
import type { Translator } from "../../i18n/index.js";
import { createRouter } from "../../http/router.js";

/** Only same-site paths may follow a sign-in, so a link never sends anyone elsewhere. */
export const safeHomeNext = (next: unknown) =>
  typeof next === "string" && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\")
    ? next
    : "/my-home";

export const sentMessage = (email: string) =>
  `If ${email} is a Haven customer, we have sent a sign-in link and code. The link works once, within 15 minutes.`;
export const EXPIRED_LINK_MESSAGE = "This sign-in link has expired or has already been used. Ask for a new one below.";
export const WRONG_CODE_MESSAGE =
  "That code is not right, or it has expired. Check the newest e-mail, or ask for a new code.";

const form = z.object({
  email: z.string().max(1000).default(""),
  code: z.string().max(100).default(""),
  next: z.string().max(2000).optional(),
});

/** The catalogue keys of the sign-in page's messages, by their English text (the field errors come from zod). */
const SIGN_IN_TEXTS: Record<string, string> = {
  [EMAIL_MESSAGE]: "myhome.signIn.error.email",
  [CODE_MESSAGE]: "myhome.signIn.error.code",
  [WRONG_CODE_MESSAGE]: "myhome.signIn.wrongCode",
  [EXPIRED_LINK_MESSAGE]: "myhome.signIn.expiredLink",
  [TOO_MANY_SIGN_INS_MESSAGE]: "myhome.signIn.tooMany",
  "Check the e-mail address.": "myhome.signIn.checkEmail",
  "Check the e-mail address and the code.": "myhome.signIn.checkEmailAndCode",
};

interface SignInPage {
  email?: string;
  next?: string;
  errors?: Record<string, string>;
  /** English text (SIGN_IN_TEXTS), or 'sent' for the answer to a request. */
  message?: string | null;
  /** After a request: the answer, and the code form. */
  sent?: boolean;
  /** 'error' or 'info' */
  tone?: "error" | "info";
}

function renderSignIn(res: Response, status: number, page: SignInPage) {
  // In the page's language (docs/decisions.md#65): res.locals.t is the address's translator.
  const t = res.locals.t as Translator;
  const say = (text: string) => (SIGN_IN_TEXTS[text] ? t(SIGN_IN_TEXTS[text]) : text);
  const message =
    page.message === "sent" ? t("myhome.signIn.sent", { email: page.email ?? "" }) : page.message && say(page.message);
  res.status(status).page("my-home/sign-in", {
    title: t("myhome.signIn.title"),
    noindex: true,
    footer: true,
    email: page.email ?? "",
    next: safeHomeNext(page.next),
    errors: Object.fromEntries(Object.entries(page.errors ?? {}).map(([field, text]) => [field, say(text)])),
    message: message || null,
    tone: page.tone ?? "info",
    sent: page.sent ?? false,
  });
}

const addressOf = (req: Request) => req.ip ?? "unknown";

/** What the sign-in pages and calls use: HomeAuthService, the staff page guard app.ts builds, and a setting. */
export interface HomeSignInRoutesDeps {
  homeAuth: HomeAuthService;
  /** http/admin.ts staffPage(): staff's 'Send sign-in link' form. */
  staffPage: RequestHandler[];
  settings: {
    /** The `haven_home` cookie is Secure in production. */
    secure: boolean;
  };
}

export function homeSignInPages(deps: HomeSignInRoutesDeps): Router {
  const router = createRouter();
  const { homeAuth, staffPage } = deps;
  const secure = deps.settings.secure;
  const signedIn = async (res: Response, token: string, next: unknown) => {
    // A browser holds one homeowner session: the one it had (perhaps another e-mail's) ends.
    const previous = res.locals.home as { sessionId: number } | null;
    if (previous) await homeAuth.revokeSession(previous.sessionId);
    setHomeCookie(res, token, secure);
    res.redirect(303, safeHomeNext(next));
  };

  router.get("/my-home/sign-in", (req, res) => {
    if (res.locals.home) return res.redirect(303, safeHomeNext(req.query.next));
    renderSignIn(res, 200, { next: typeof req.query.next === "string" ? req.query.next : undefined });
  });

  router.post("/my-home/sign-in", async (req, res) => {
    const input = form.parse(req.body ?? {});
    const checked = signInRequestSchema.safeParse(input);
    if (!checked.success)
      return renderSignIn(res, 400, {
        email: input.email,
        next: input.next,
        errors: fieldsFromZod(checked.error),
        message: "Check the e-mail address.",
        tone: "error",
      });
    try {
      await homeAuth.requestSignIn(checked.data.email, addressOf(req));
    } catch (error) {
      if (!(error instanceof TooManySignInsError)) throw error;
      res.setHeader("Retry-After", String(error.retryAfterSeconds));
      return renderSignIn(res, 429, {
        email: checked.data.email,
        next: input.next,
        message: error.message,
        tone: "error",
      });
    }
    renderSignIn(res, 200, {
      email: checked.data.email,
      next: input.next,
      sent: true,
      message: "sent",
    });
  });

  router.post("/my-home/sign-in/code", async (req, res) => {
    const input = form.parse(req.body ?? {});
    const checked = signInCodeSchema.safeParse(input);
    const again = (status: number, message: string, errors: Record<string, string> = {}) =>
      renderSignIn(res, status, { email: input.email, next: input.next, sent: true, errors, message, tone: "error" });
    if (!checked.success) return again(400, "Check the e-mail address and the code.", fieldsFromZod(checked.error));
    try {
      const session = await homeAuth.spendCode(checked.data.email, checked.data.code, addressOf(req));
      if (!session) return again(400, WRONG_CODE_MESSAGE, { code: WRONG_CODE_MESSAGE });
      await signedIn(res, session.token, input.next);
    } catch (error) {
      if (!(error instanceof TooManySignInsError)) throw error;
      res.setHeader("Retry-After", String(error.retryAfterSeconds));
      again(429, error.message);
    }
  });

  // Opening the link changes nothing (mail scanners fetch links): only the button's POST spends it.
  router.get("/my-home/sign-in/:token", async (req, res) => {
    const { token } = req.params;
    const next = typeof req.query.next === "string" ? req.query.next : undefined;
    if (!isToken(token) || !(await homeAuth.isLiveLink(token)))
      return renderSignIn(res, 410, { next, message: EXPIRED_LINK_MESSAGE, tone: "error" });
    res.page("my-home/sign-in-link", {
      title: (res.locals.t as Translator)("myhome.signInLink.continue"),
      noindex: true,
      footer: true,
      action: `/my-home/sign-in/${token}`,
      next: safeHomeNext(next),
    });
  });

  router.post("/my-home/sign-in/:token", async (req, res) => {
    const { token } = req.params;
    const input = form.parse(req.body ?? {});
    const session = isToken(token) ? await homeAuth.spendLink(token) : null;
    if (!session) return renderSignIn(res, 410, { next: input.next, message: EXPIRED_LINK_MESSAGE, tone: "error" });
    await signedIn(res, session.token, input.next);
  });

  router.post("/my-home/sign-out", async (_req, res) => {
    const viewer = res.locals.home as { sessionId: number } | null;
    if (viewer) await homeAuth.revokeSession(viewer.sessionId);
    clearHomeCookie(res, secure);
    res.redirect(303, "/my-home/sign-in");
  });

  router.post("/my-home/sign-out-everywhere", async (_req, res) => {
    const viewer = res.locals.home as { email: string } | null;
    if (viewer) await homeAuth.revokeAll(viewer.email);
    clearHomeCookie(res, secure);
    res.redirect(303, "/my-home/sign-in");
  });

  // Staff, from the property dialog: the API call's twin for a form (htmx swaps in the answer; without script, back to the details).
  router.post("/admin/properties/:id/send-sign-in-link", ...staffPage, async (req, res) => {
    const { id } = params(req, propertyIdSchema);
    const { email } = await homeAuth.sendSignInLink(id);
    if (req.get("hx-request") !== "true") return res.redirect(303, `/admin/properties/${id}`);
    res
      .type("html")
      .send(
        `<p class="mt-2 text-sm text-green-900" role="status" data-testid="sign-in-link-sent">Sign-in link sent to ${escapeHtml(email)}.</p>`,
      );
  });

  return router;
}

/** Mounted under /api. */
export function homeSignInApi(deps: Pick<HomeSignInRoutesDeps, "homeAuth" | "settings">): Router {
  const router = createRouter();
  const { homeAuth } = deps;
  const secure = deps.settings.secure;

  router.post("/my-home/sign-in", async (req, res) => {
    const { email } = body(req, signInRequestSchema);
    try {
      await homeAuth.requestSignIn(email, addressOf(req));
    } catch (error) {
      if (error instanceof TooManySignInsError) res.setHeader("Retry-After", String(error.retryAfterSeconds));
      throw error;
    }
    res.status(202).json({ message: sentMessage(email) });
  });

  router.post("/my-home/sign-out-everywhere", requireHomeApi, async (_req, res) => {
    await homeAuth.revokeAll(homeViewer(res).email);
    clearHomeCookie(res, secure);
    res.json({ success: true });
  });

  // Passkeys of the signed-in homeowner (the Account page).
  router.get("/my-home/passkeys", requireHomeApi, async (_req, res) => {
    res.json(await homeAuth.passkeys(homeViewer(res).email));
  });

  router.post("/my-home/passkeys/options", requireHomeApi, async (_req, res) => {
    res.json(await homeAuth.registrationOptions(homeViewer(res).email));
  });

  router.post("/my-home/passkeys", requireHomeApi, async (req, res) => {
    const input = body(req, passkeyRegisterSchema);
    const created = await homeAuth.registerPasskey(
      homeViewer(res).email,
      input.response as unknown as RegistrationResponseJSON,
      input.name,
    );
    res.status(201).json(created);
  });

  router.delete("/my-home/passkeys/:id", requireHomeApi, async (req, res) => {
    const { id } = params(req, passkeyIdSchema);
    await homeAuth.deletePasskey(homeViewer(res).email, id);
    res.status(204).end();
  });

  // Signing in with a passkey: no e-mail asked (discoverable credentials).
  router.post("/my-home/passkey-sign-in/options", async (_req, res) => {
    res.json(await homeAuth.signInOptions());
  });

  router.post("/my-home/passkey-sign-in", async (req, res) => {
    const input = body(req, passkeySignInSchema);
    const session = await homeAuth.signInWithPasskey(input.response as unknown as AuthenticationResponseJSON);
    if (!session) throw new HttpError(401, "This passkey could not sign you in. Use the e-mail link instead.");
    const previous = res.locals.home as { sessionId: number } | null;
    if (previous) await homeAuth.revokeSession(previous.sessionId);
    setHomeCookie(res, session.token, secure);
    res.json({ redirect: safeHomeNext(input.next) });
  });

  // Staff: e-mail the property's customer a sign-in link (the staff member never sees it).
  router.post("/properties/:id/send-sign-in-link", requireStaffApi, async (req, res) => {
    const { id } = params(req, propertyIdSchema);
    const { email } = await homeAuth.sendSignInLink(id);
    res.json({ success: true, email });
  });

  return router;
}
