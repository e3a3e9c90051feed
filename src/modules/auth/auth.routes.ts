import type { Request, Response, Router } from "express";
import { z } from "zod";
import { HttpError, UnauthorizedError, fieldsFromZod } from "../../http/errors.js";
import { body } from "../../http/validate.js";
import type { AuthenticationResponseJSON } from "../../shared/webauthn.js";
import { webauthnCredentialSchema } from "../../shared/webauthn.schemas.js";
import { type StaffUser, loginSchema } from "./auth.schemas.js";
import { type AuthService, TooManyLoginsError } from "./auth.service.js";
import { TwoStepRequiredError } from "./two-step.service.js";
import { createRouter } from "../../http/router.js";

/** Only same-site paths may be a `next` target, so login never redirects elsewhere. */
export const safeNext = (next: unknown) =>
  typeof next === "string" && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\")
    ? next
    : "/admin";

/** What the sign-in routes use; src/app.ts passes them (docs/architecture.md "Modules and layers"). */
export interface AuthRoutesDeps {
  auth: AuthService;
}

/** Both login routes sign in through here, so they share the limits and the session rules. */
function signIn(deps: AuthRoutesDeps) {
  return async (
    req: Request,
    res: Response,
    email: string,
    password: string,
    code?: string,
    passkey?: AuthenticationResponseJSON,
  ): Promise<StaffUser> => {
    const { user, sessionToken } = await deps.auth
      .login(email, password, req.ip ?? "unknown", code || undefined, passkey)
      .catch((error: unknown) => {
        if (error instanceof TooManyLoginsError) res.setHeader("Retry-After", String(error.retryAfterSeconds));
        throw error;
      });
    req.session.staffUserId = user.id;
    req.session.staffSessionToken = sessionToken;
    await req.session.save();
    return user;
  };
}

/**
 * Revokes the staff session row, then ends the whole cookie session. The browser also drops its HTTP cache
 * (staff photos are cached for a year), so the next person on a shared tablet finds nothing; "cache" leaves
 * IndexedDB alone, where the inspection form keeps unsent work until its owner says otherwise.
 */
async function signOut(deps: AuthRoutesDeps, req: Request, res: Response): Promise<void> {
  const token = req.session.staffSessionToken;
  if (token) await deps.auth.logout(token);
  req.session.destroy();
  res.setHeader("Clear-Site-Data", '"cache"');
}

export function authApi(deps: AuthRoutesDeps): Router {
  const router = createRouter();
  const login = signIn(deps);

  router.get("/auth/user", async (req, res) => {
    if (!req.staffUser) throw new UnauthorizedError("Not signed in");
    res.json(req.staffUser);
  });

  router.post("/auth/login", async (req, res) => {
    const { email, password, code, passkey } = body(req, loginSchema);
    try {
      res.json(await login(req, res, email, password, code, passkey as AuthenticationResponseJSON | undefined));
    } catch (error) {
      // The password was right: the client asks for the app's code, or has a passkey answer the options, and
      // sends both again.
      if (error instanceof TwoStepRequiredError)
        return void res.status(401).json({
          message: error.message,
          twoStepRequired: true,
          ...(error.passkeyOptions && { passkeyOptions: error.passkeyOptions }),
        });
      throw error;
    }
  });

  router.post("/auth/logout", async (req, res) => {
    await signOut(deps, req, res);
    res.json({ success: true });
  });

  // The spec's session-expiry target.
  router.get("/login", (_req, res) => res.redirect("/login"));
  return router;
}

/** What the login page asks for after a right password: the app's code, the passkey, or either. */
function askText(ask: TwoStepRequiredError): string {
  if (!ask.passkeyOptions) return `${ask.message}, with your password again.`;
  return ask.app
    ? "Enter your password again, then the 6-digit code from your authenticator app, or use your passkey."
    : "Enter your password again, then use your passkey.";
}

export function authPages(deps: AuthRoutesDeps): Router {
  const router = createRouter();
  const login = signIn(deps);
  const form = z.object({
    email: z.string().default(""),
    password: z.string().default(""),
    code: z.string().optional(),
    /** The passkey's answer (islands/auth/passkeys.ts puts it here as JSON), to the options the 401 page carried. */
    passkey: z.string().max(20_000).optional(),
    next: z.string().optional(),
  });
  // A field that is not a passkey's answer is no answer: the page asks for the second step again.
  const passkeyOf = (text: string | undefined): unknown => {
    if (!text) return undefined;
    try {
      const answer = webauthnCredentialSchema.safeParse(JSON.parse(text));
      return answer.success ? answer.data : undefined;
    } catch {
      return undefined;
    }
  };

  router.get("/login", (req, res) => {
    if (req.session.staffUserId) return res.redirect(safeNext(req.query.next));
    res.page("auth/login", {
      title: "Admin Portal",
      islands: true,
      noindex: true,
      email: "",
      next: safeNext(req.query.next),
      errors: {},
      message: null,
      twoStep: false,
      app: true,
      passkeyOptions: null,
    });
  });

  router.post("/login", async (req, res) => {
    const input = form.parse(req.body ?? {});
    const next = safeNext(input.next);
    const checked = loginSchema.safeParse({ ...input, passkey: passkeyOf(input.passkey) });
    const show = (
      status: number,
      title: string,
      message: string,
      errors: Record<string, string> = {},
      twoStep = Boolean(input.code),
      ask: TwoStepRequiredError | null = null,
    ) =>
      res.status(status).page("auth/login", {
        twoStep,
        // The second step offered: the app's code field, and "Use your passkey" with its options.
        app: ask ? ask.app : true,
        passkeyOptions: ask?.passkeyOptions ?? null,
        title: "Admin Portal",
        islands: true,
        noindex: true,
        email: input.email,
        next,
        errors,
        toastTitle: title,
        message,
        toasts: [{ title, description: message, variant: "destructive" }],
      });
    if (!checked.success)
      return show(400, "Missing Information", "Please enter both email and password", fieldsFromZod(checked.error));
    try {
      const { email, password, code, passkey } = checked.data;
      await login(req, res, email, password, code, passkey as AuthenticationResponseJSON | undefined);
      res.redirect(303, next);
    } catch (error) {
      if (error instanceof TwoStepRequiredError) return show(401, "Two-step sign-in", askText(error), {}, true, error);
      if (error instanceof HttpError) return show(error.status, "Login Failed", error.message);
      throw error;
    }
  });

  router.post("/logout", async (req, res) => {
    await signOut(deps, req, res);
    res.redirect(303, "/");
  });

  return router;
}
