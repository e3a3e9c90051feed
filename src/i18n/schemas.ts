// The `locale` field of a request body (docs/decisions.md#65): zod only, apart from the pure locales.ts that islands load.
import { z } from "zod";
import { LOCALES } from "./locales.js";

export const localeField = z.enum(LOCALES, { message: "Locale must be en-CA or fr-CA" });
