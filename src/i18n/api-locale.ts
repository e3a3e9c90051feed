// The language of an /api answer (docs/decisions.md#65): /api has no French address, so an island names its page's
// language in `Accept-Language` (en-CA or fr-CA, exactly); anything else is English. One helper for every API route.
import type { Request } from "express";
import { DEFAULT_LOCALE, type Locale, isLocale } from "./locales.js";

/** The language an island asked its answer in: `Accept-Language: fr-CA` → fr-CA; absent or other → en-CA. */
export function apiLocale(req: Request): Locale {
  const asked = req.get("accept-language")?.trim();
  return isLocale(asked) ? asked : DEFAULT_LOCALE;
}
