import type { Request } from "express";
import type { Env } from "../config/env.js";

/** The site's own origin for links that leave the page (payment returns, sitemap): PUBLIC_URL when set, else this request's. */
export const originOf = (env: Pick<Env, "PUBLIC_URL">, req: Request): string =>
  (env.PUBLIC_URL ?? `${req.protocol}://${req.get("host")}`).replace(/\/+$/, "");
