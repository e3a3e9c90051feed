import { type Request, Router } from "express";
import { z } from "zod";
import type { Container } from "../../container.js";
import { HttpError, UnauthorizedError, fieldsFromZod } from "../../http/errors.js";
import { body } from "../../http/validate.js";
import { type StaffUser, loginSchema } from "./auth.schemas.js";
import { LoginRateLimiter } from "./rate-limit.js";

const INVALID = "Invalid email or password";
const TOO_MANY = "Too many failed attempts. Please wait a few minutes and try again.";

/** Only same-site paths may be a `next` target, so login never redirects elsewhere. */
export const safeNext = (next: unknown) =>
  typeof next === "string" && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/admin";

function loginService(container: Container) {
  const limiter = new LoginRateLimiter();
  return async (req: Request, email: string, password: string): Promise<StaffUser> => {
    const key = `${req.ip}|${email.toLowerCase()}`;
    if (limiter.isBlocked(key)) throw new HttpError(429, TOO_MANY);
    const user = await container.users.verify(email, password);
    if (!user) {
      limiter.recordFailure(key);
      throw new UnauthorizedError(INVALID);
    }
    limiter.reset(key);
    req.session.staffUserId = user.id;
    await req.session.save();
    return user;
  };
}

export function authApi(container: Container): Router {
  const router = Router();
  const login = loginService(container);

  router.get("/auth/user", async (req, res) => {
    const id = req.session.staffUserId;
    const user = id ? await container.users.findById(id) : null;
    if (!user) throw new UnauthorizedError("Not signed in");
    res.json(user);
  });

  router.post("/auth/login", async (req, res) => {
    const { email, password } = body(req, loginSchema);
    res.json(await login(req, email, password));
  });

  router.post("/auth/logout", async (req, res) => {
    req.session.destroy();
    res.json({ success: true });
  });

  // The spec's session-expiry target.
  router.get("/login", (_req, res) => res.redirect("/login"));
  return router;
}

export function authPages(container: Container): Router {
  const router = Router();
  const login = loginService(container);
  const form = z.object({ email: z.string().default(""), password: z.string().default(""), next: z.string().optional() });

  router.get("/login", (req, res) => {
    if (req.session.staffUserId) return res.redirect(safeNext(req.query.next));
    res.page("auth/login", { title: "Admin Portal", islands: true, noindex: true, email: "", next: safeNext(req.query.next), errors: {}, message: null });
  });

  router.post("/login", async (req, res) => {
    const input = form.parse(req.body ?? {});
    const next = safeNext(input.next);
    const checked = loginSchema.safeParse(input);
    const show = (status: number, title: string, message: string, errors: Record<string, string> = {}) =>
      res.status(status).page("auth/login", {
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
    if (!checked.success) return show(400, "Missing Information", "Please enter both email and password", fieldsFromZod(checked.error));
    try {
      await login(req, checked.data.email, checked.data.password);
      res.redirect(303, next);
    } catch (error) {
      if (error instanceof HttpError) return show(error.status, "Login Failed", error.message);
      throw error;
    }
  });

  router.post("/logout", async (req, res) => {
    req.session.destroy();
    res.redirect(303, "/");
  });

  return router;
}
