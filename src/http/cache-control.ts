import type { RequestHandler } from "express";

/**
 * Responses that may hold personal data are never stored by a browser or a shared cache: every staff
 * page and every API answer, and any page rendered for a browser with a session (staff or customer).
 * Anonymous marketing pages keep their own caching; built assets are served before this runs.
 */
export const noStoreForPersonalData: RequestHandler = (req, res, next) => {
  const session = req.session;
  const personal =
    req.path === "/api" ||
    req.path.startsWith("/api/") ||
    req.path.startsWith("/admin") ||
    Boolean(session?.staffUserId) ||
    Boolean(session?.customerIds?.length) ||
    // My Home: the portal and its sign-in pages, and any page a signed-in homeowner gets.
    req.path.startsWith("/my-home") ||
    Boolean(res.locals.home);
  if (personal) res.setHeader("Cache-Control", "no-store");
  next();
};
