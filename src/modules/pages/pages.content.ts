// Static copy of the marketing pages (customer-side §2.2–2.5, §2.8, §2.12, §9). Plans are NOT here:
// the pricing page reads them from the plans table.
import { barColour, marketingBand } from "../inspections/index.js";
import { weightedAverage } from "../inspections/index.js";

// The home page's lists, by id: the catalogue's home.<list>.<id> messages hold their words.
export const HOW_IT_WORKS = ["schedule", "inspect", "report", "help", "concierge"];
/** The booking demo cycles through these five steps (customer-side §4). */
export const BOOKING_DEMO_STEPS = ["date", "time", "access", "inspector", "booked"];
/** The quote-request demo flips these four items from 'Get Quote' to 'Sent!' (customer-side §4). */
export const QUOTE_DEMO_ITEMS = ["filter", "gutters", "windows", "co"];
export const WITH_WITHOUT = {
  without: ["pdf", "search", "chase", "forgotten"],
  with: ["score", "ranked", "quotes", "calendar"],
};
export const SEARCH_RESULTS = [
  { id: "ads", site: "ads.example-listings.com" },
  { id: "forum", site: "forum.example-diy.net" },
  { id: "directory", site: "directory.example.com" },
];

/** /pricing's service cards: the catalogue's pricing.service.<id>.title/.details, and which plans have each. */
export const SERVICE_CARDS = [
  { id: "health-report", plans: "all" },
  { id: "concierge-line", plans: "all" },
  { id: "repairs-coordination", plans: "all" },
  { id: "window-cleaning", plans: "standard" },
  { id: "hvac-maintenance", plans: "standard" },
  { id: "gutter-cleaning", plans: "standard" },
  { id: "lawn-maintenance", plans: "premium" },
  { id: "snow-removal", plans: "premium" },
  { id: "vacation-prep", plans: "premium" },
];

/** /pricing's questions: the catalogue's pricing.faq.<id>.question/.answer. */
export const FAQ = ["minimum", "fees", "quotes", "inspection", "area"];

/** 'What We Inspect' (customer-side §9): the catalogue's marketing.inspect.<id>.* and each subcategory count. */
export const INSPECT_CATEGORIES = [
  { id: "roof", count: 12 },
  { id: "exterior", count: 8 },
  { id: "site", count: 6 },
  { id: "basement", count: 10 },
  { id: "foundation", count: 7 },
  { id: "hvac", count: 15 },
  { id: "electrical", count: 11 },
  { id: "plumbing", count: 9 },
  { id: "laundry-room", count: 5 },
  { id: "windows-doors", count: 8 },
  { id: "general-interior", count: 14 },
  { id: "bathrooms", count: 12 },
  { id: "kitchens", count: 16 },
  { id: "wet-bar", count: 4 },
  { id: "attic", count: 6 },
  { id: "miscellaneous", count: 3 },
];

/** Three sample findings: the catalogue's marketing.recommendation.<id>.* messages. */
export const SAMPLE_RECOMMENDATIONS = [
  { id: "waterHeater", condition: "critical", priority: "high" },
  { id: "gutters", condition: "maintenance", priority: "medium" },
  { id: "co", condition: "safety", priority: "high" },
];

const HVAC_PARTS = [
  { id: "furnace", score: 90, weight: 40 },
  { id: "filter", score: 60, weight: 20 },
  { id: "ventilation", score: 80, weight: 25 },
  { id: "condensate", score: 70, weight: 15 },
];

/** The HVAC breakdown example: the category score is the weighted average of its subcategories. */
export const HVAC_EXAMPLE = {
  parts: HVAC_PARTS.map((p) => ({ ...p, colour: barColour(p.score) })),
  score: Math.round(weightedAverage(HVAC_PARTS) ?? 0),
};

/** The flagged issue up close: the catalogue's marketing.flagged.* messages. */
export const FLAGGED_ISSUE = { path: ["clear", "reattach", "recheck"], photos: ["overflow", "elbow", "staining"] };

export const TRADITIONAL_VS_HAVEN = {
  traditional: ["jargon", "noSense", "noStep", "chase"],
  haven: ["score", "ranked", "costs", "quotes"],
};

/** The explainer's features and differentiators: the catalogue's marketing.explainer.* messages. */
export const EXPLAINER_FEATURES = ["score", "priorities", "categories", "plan", "timeline", "quotes"];
export const DIFFERENTIATORS = ["plain", "action", "care"];

/** The free score preview (customer-side §2.8): a fixed sample; its words are the catalogue's marketing.free.*. */
export const FREE_REPORT = {
  score: 85,
  systems: [
    { id: "structure", score: 80 },
    { id: "roof", score: 74 },
    { id: "hvac", score: 92 },
    { id: "electrical", score: 100 },
    { id: "plumbing", score: 77 },
  ].map((s) => ({ ...s, colour: barColour(s.score) })),
  items: [
    { id: "filter", days: 30, priority: "medium" },
    { id: "gutters", days: 60, priority: "low" },
  ],
};

/** The hub's recent activity: dates, and the catalogue's marketing.hub.activity.<id> messages. */
export const HUB = {
  activity: [
    { when: "2024-05-14", id: "inspection" },
    { when: "2024-05-15", id: "report" },
    { when: "2024-05-16", id: "quote" },
    { when: "2024-05-20", id: "filter" },
  ],
};

export const bandOf = (score: number) => ({ label: marketingBand(score), colour: barColour(score) });
