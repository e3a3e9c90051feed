import { Router } from "express";

/**
 * Every router of the app: routes by exact letter case and trailing slash, so a path has one spelling that the
 * guards and the router agree on (docs/decisions.md#45, src/http/canonical-path.ts).
 */
export const createRouter = (): Router => Router({ caseSensitive: true, strict: true });
