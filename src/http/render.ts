import type { NextFunction, Request, Response } from "express";
import { isNavVisible } from "./layout.js";

export interface PageMeta {
  title: string;
  description?: string;
  /** Show the footer (the spec marks which pages have it). */
  footer?: boolean;
  /** Load the React island loader: only pages with islands do. */
  islands?: boolean;
  [key: string]: unknown;
}

declare global {
  namespace Express {
    interface Response {
      page(view: string, locals: PageMeta): void;
    }
  }
}

/**
 * `res.page(view, locals)`: renders the view into the main layout; for an htmx request
 * (HX-Request header) the view alone is sent as a fragment.
 */
export function pageRenderer(req: Request, res: Response, next: NextFunction) {
  res.page = (view, locals) => {
    const all = {
      ...locals,
      path: req.path,
      navVisible: isNavVisible(req.path),
      signedIn: Boolean(req.session?.staffUserId),
    };
    res.render(view, all, (error: Error | null, body: string) => {
      if (error) return next(error);
      if (req.get("hx-request") === "true") return res.send(body);
      res.render("layouts/main", { ...all, body });
    });
  };
  next();
}
