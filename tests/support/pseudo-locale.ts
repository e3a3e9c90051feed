// The pseudo-locale check (docs/decisions.md#64): an app built with `pseudoLocale: true` renders English pages with every
// catalogue message wrapped in ⟦…⟧, so any visible text left outside the markers did not come from the catalogue and
// would stay English on the French page. Reusable: give it a page's HTML and the words that are data, not copy.
import { createApp } from "../../src/app.js";
import type { TestContext } from "./context.js";

/** A second app on the context's container whose English pages render in the pseudo locale. */
export const pseudoApp = (ctx: TestContext) => createApp(ctx.container, { pseudoLocale: true });

// The HTML check, apart so an island's markup is checked without loading the app (pseudo-html.ts).
export { expectAllTranslated, untranslatedText } from "./pseudo-html.js";
