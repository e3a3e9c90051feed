import { describe, expect, it } from "vitest";
import {
  MARKETING_BANDS,
  adminLabel,
  barColour,
  categoryBand,
  clientLabel,
  clientPriorityLabel,
  historyLabel,
  SCORE_CHOICES,
  URGENT_FLAG,
  marketingBand,
  overallLabel,
  priorityText,
  recommendationPriority,
  scoreChoiceLabel,
  summaryLabel,
  tier,
  urgencyText,
} from "./bands.js";

describe("marketing and client bands", () => {
  it.each([
    [100, "Haven Standing"],
    [90, "Haven Standing"],
    [89, "Well Appointed"],
    [80, "Well Appointed"],
    [79, "Due for Stewardship"],
    [70, "Due for Stewardship"],
    [69, "Diminishing Estate"],
    [60, "Diminishing Estate"],
    [59, "Beyond the Pale"],
    [0, "Beyond the Pale"],
  ])("%i is %s", (score, label) => {
    expect(marketingBand(score)).toBe(label);
    expect(clientLabel(score)).toBe(label);
  });

  it("lists the five bands from the top with their ranges", () => {
    expect(MARKETING_BANDS.map((b) => `${b.min}-${b.max} ${b.label}`)).toEqual([
      "90-100 Haven Standing",
      "80-89 Well Appointed",
      "70-79 Due for Stewardship",
      "60-69 Diminishing Estate",
      "0-59 Beyond the Pale",
    ]);
  });

  it.each([
    [100, "green"],
    [80, "green"],
    [79, "yellow"],
    [60, "yellow"],
    [59, "red"],
    [0, "red"],
  ])("bar colour of %i is %s", (score, colour) => {
    expect(barColour(score)).toBe(colour);
  });
});

describe("staff labels", () => {
  it.each([
    [95, "Excellent"],
    [90, "Excellent"],
    [85, "Very Good"],
    [70, "Good"],
    [69, "Fair"],
    [50, "Poor"],
    [40, "Very Poor"],
    [39, "Critical"],
    [0, "Critical"],
  ])("admin label of %i is %s", (score, label) => {
    expect(adminLabel(score)).toBe(label);
  });

  it.each([
    [0, "Needs Attention"],
    [40, "Needs Attention"],
    [41, "Fair"],
    [60, "Fair"],
    [61, "Good"],
    [80, "Good"],
    [81, "Excellent"],
  ])("category band of %i is %s", (score, band) => {
    expect(categoryBand(score)).toBe(band);
  });

  it.each([
    [90, "Excellent"],
    [80, "Good"],
    [70, "Fair"],
    [60, "Needs Attention"],
    [50, "Poor"],
    [49, "Critical"],
  ])("property history label of %i is %s", (score, label) => {
    expect(historyLabel(score)).toBe(label);
  });

  it("tiers: 85+ Gold, 70-84 Silver, below 70 Bronze, none without a score", () => {
    expect([85, 84, 70, 69, 0].map(tier)).toEqual(["Gold", "Silver", "Silver", "Bronze", "Bronze"]);
    expect(tier(null)).toBeNull();
    expect(tier(undefined)).toBeNull();
  });
});

describe("recommendations", () => {
  it("priority is high at 10 or less or urgent, medium at 25 or less, low otherwise", () => {
    expect(recommendationPriority(10)).toBe("high");
    expect(recommendationPriority(40, true)).toBe("high");
    expect(recommendationPriority(25)).toBe("medium");
    expect(recommendationPriority(26)).toBe("low");
    expect(recommendationPriority(40)).toBe("low");
  });

  it("urgency text and client priority labels follow the priority", () => {
    expect((["high", "medium", "low"] as const).map(urgencyText)).toEqual(["Urgent", "30 Days", "60 Days"]);
    expect(["high", "medium", "low", "other"].map(clientPriorityLabel)).toEqual([
      "Critical",
      "Defective",
      "Monitor",
      "Monitor",
    ]);
  });

  it("summary labels name the four entry scores", () => {
    expect([10, 7, 4, 1, 5].map(summaryLabel)).toEqual(["Excellent", "Marginal", "Defective", "Critical", null]);
  });
});

describe("one word for one thing (docs/decisions.md#41)", () => {
  it("a homeowner reads the client band, staff the admin band, for the same score", () => {
    expect(overallLabel(57, "client")).toBe("Beyond the Pale");
    expect(overallLabel(45, "staff")).toBe("Very Poor");
    expect(overallLabel(45, "client")).toBe("Beyond the Pale");
    expect(overallLabel(95, "client")).toBe("Haven Standing");
    expect(overallLabel(95, "staff")).toBe("Excellent");
    for (let score = 0; score <= 100; score++) {
      expect(overallLabel(score, "client")).toBe(clientLabel(score));
      expect(overallLabel(score, "staff")).toBe(adminLabel(score));
    }
  });

  it("a score is named as the inspector's choice names it: 7 is Good, never Marginal", () => {
    expect([10, 7, 4, 1, null].map(scoreChoiceLabel)).toEqual([
      "Excellent",
      "Good",
      "Needs Attention",
      "Immediate Action Required",
      "N/A",
    ]);
    for (const choice of SCORE_CHOICES) expect(scoreChoiceLabel(choice.value)).toBe(choice.label);
  });

  it("a priority has one spelling, title case, client label then urgency", () => {
    expect(["high", "medium", "low"].map(priorityText)).toEqual([
      "Critical · Urgent",
      "Defective · 30 Days",
      "Monitor · 60 Days",
    ]);
    expect(URGENT_FLAG).toBe(urgencyText("high"));
  });
});
