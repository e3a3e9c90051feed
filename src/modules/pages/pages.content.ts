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

/** 'What We Inspect' (customer-side §9): title, description and subcategory count. */
export const INSPECT_CATEGORIES = [
  { title: "Roof", count: 12, description: "Shingles, flashings, vents and gutters." },
  { title: "Exterior", count: 8, description: "Cladding, sealants, decks and lighting." },
  { title: "Site", count: 6, description: "Grading, drainage, driveways and fences." },
  { title: "Basement", count: 10, description: "Moisture, mould and finishes below grade." },
  { title: "Foundation", count: 7, description: "Cracks, settlement and structure." },
  { title: "HVAC", count: 15, description: "Heating, cooling, airflow and filters." },
  { title: "Electrical", count: 11, description: "Panels, wiring, outlets and detectors." },
  { title: "Plumbing", count: 9, description: "Supply, drains, hot water and sump." },
  { title: "Laundry Room", count: 5, description: "Hook-ups, drains and dryer venting." },
  { title: "Windows & Doors", count: 8, description: "Seals, screens, egress and garage doors." },
  { title: "General Interior", count: 14, description: "Floors, walls, ceilings, stairs and rails." },
  { title: "Bathrooms", count: 12, description: "Fixtures, ventilation and waterproofing." },
  { title: "Kitchens", count: 16, description: "Appliances, cabinetry, sinks and lighting." },
  { title: "Wet Bar", count: 4, description: "Sink, supply lines and fridge." },
  { title: "Attic", count: 6, description: "Insulation, ventilation and moisture." },
  { title: "Miscellaneous", count: 3, description: "Fireplaces, stairs and safety." },
];

export const SAMPLE_RECOMMENDATIONS = [
  {
    title: "Replace the Water Heater",
    condition: "Critical",
    priority: "high",
    description: "The tank is 14 years old and rusting at the base. A failure would flood the basement.",
    cost: "$800-1,200",
    timeframe: "Within 1 week",
  },
  {
    title: "Clean and Repair the Gutters",
    condition: "Maintenance",
    priority: "medium",
    description: "Gutters overflow at the north-east corner and a downspout is disconnected.",
    cost: "$150-250",
    timeframe: "Within 2 weeks",
  },
  {
    title: "Install a CO Detector",
    condition: "Safety",
    priority: "high",
    description: "There is no carbon monoxide detector near the bedrooms.",
    cost: "$45-80",
    timeframe: "Within 1 month",
  },
];

const HVAC_PARTS = [
  { name: "Furnace Condition", score: 90, weight: 40 },
  { name: "Filter Status", score: 60, weight: 20 },
  { name: "Ventilation", score: 80, weight: 25 },
  { name: "Condensate Drain", score: 70, weight: 15 },
];

/** The HVAC breakdown example: the category score is the weighted average of its subcategories. */
export const HVAC_EXAMPLE = {
  parts: HVAC_PARTS.map((p) => ({ ...p, colour: barColour(p.score) })),
  score: Math.round(weightedAverage(HVAC_PARTS) ?? 0),
};

export const FLAGGED_ISSUE = {
  title: "Roof Gutter Overflow",
  priority: "High Priority",
  description: "Water overflows the north-east gutter and pools against the foundation.",
  overview:
    "The gutter is clogged with debris and the downspout has come loose from its elbow. During rain, water spills over the edge next to the basement wall.",
  commentary:
    "Left alone, this is the most common cause of basement leaks we see. Fixing it now costs a fraction of a wet-basement repair.",
  path: [
    "Clear the gutter and flush the downspout",
    "Reattach the downspout and add an extension",
    "Recheck after the next heavy rain",
  ],
  photos: [
    "Overflowing gutter at the north-east corner",
    "Disconnected downspout elbow",
    "Water staining on the foundation wall",
  ],
};

export const TRADITIONAL_VS_HAVEN = {
  traditional: [
    "60+ pages of technical jargon",
    "No sense of what matters most",
    "Findings with no next step",
    "You find and chase contractors",
  ],
  haven: [
    "One score from 0 to 100",
    "Priority repairs ranked by urgency",
    "Costs and timeframes for each item",
    "One-click quote requests",
  ],
};

export const EXPLAINER_FEATURES = [
  { title: "Property Health Score", text: "One number from 0 to 100 that tells you where your home stands." },
  { title: "Priority Repairs", text: "Findings ranked by urgency, so you know what to fix first." },
  { title: "Category Breakdown", text: "Every system scored, from the roof to the foundation." },
  { title: "Custom Maintenance Plan", text: "A calendar of upkeep made for your home and its age." },
  { title: "Repair Timeline", text: "What to do this week, this month and this year." },
  { title: "Follow-up Quotes", text: "Request a quote on any item with one click." },
];

export const DIFFERENTIATORS = [
  { title: "Plain Language", text: "No jargon: every finding says what it means for you and what it costs." },
  { title: "One-Click Action", text: "Every recommendation has a button. We handle the trades." },
  { title: "Care That Continues", text: "Your report becomes a living maintenance plan, not a PDF in a drawer." },
];

/** The free score preview (customer-side §2.8): a fixed sample. */
export const FREE_REPORT = {
  address: "123 Sample Street",
  score: 85,
  label: "Good",
  systems: [
    { name: "Structure", score: 80 },
    { name: "Roof", score: 74 },
    { name: "HVAC", score: 92 },
    { name: "Electrical", score: 100 },
    { name: "Plumbing", score: 77 },
  ].map((s) => ({ ...s, colour: barColour(s.score) })),
  items: [
    { title: "Furnace filter replacement", due: "Within 30 days", priority: "Medium" },
    { title: "Gutter cleaning", due: "Within 60 days", priority: "Low" },
  ],
};

export const HUB = {
  activity: [
    { when: "May 14", text: "Annual inspection completed: score 76" },
    { when: "May 15", text: "Health report delivered" },
    { when: "May 16", text: "Quote requested: gutter repair" },
    { when: "May 20", text: "Furnace filter replaced" },
  ],
};

export const bandOf = (score: number) => ({ label: marketingBand(score), colour: barColour(score) });
