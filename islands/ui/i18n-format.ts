// Money, numbers, dates and times in an island's language (src/i18n/format.ts), apart from islands/ui/i18n.ts so an
// island that only translates does not load the date and time code (the JS budget, docs/architecture.md).
import type { IslandMessages } from "../../src/i18n/catalogue";
import { formatters } from "../../src/i18n/format";

export const islandFormatters = (bundle: IslandMessages, timeZone?: string) => formatters(bundle.locale, timeZone);
