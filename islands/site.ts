// The only script on marketing pages: plain DOM, no framework (budget: 3 KB gzip for the whole site).
// Each behaviour lives in a small module under ./site/.
import { carousels } from "./site/carousel";
import { suggestFrench } from "./site/language";
import { dials, demos } from "./site/motion";
import { exclusiveDetails, popupLinks, translucentNav } from "./site/nav";

const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
translucentNav();
popupLinks();
exclusiveDetails();
carousels();
dials(still);
demos(still);
suggestFrench();

// /pricing's plan buttons are a script of their own (islands/checkout/plan-buttons.ts), on that page only.
