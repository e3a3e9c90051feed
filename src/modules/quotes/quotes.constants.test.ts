import { describe, expect, it } from "vitest";
import { QUOTE_STATUSES, formatCents, isStaffMove, parseCents } from "./quotes.constants.js";

describe("quote amounts", () => {
  it("reads one dollar figure into cents and leaves free text alone", () => {
    expect(parseCents("$1,250.50")).toBe(125050);
    expect(parseCents("1250")).toBe(125000);
    expect(parseCents(" $45 ")).toBe(4500);
    expect(parseCents("CAD 300.5")).toBe(30050);
    expect(parseCents("$800-1,200")).toBeNull();
    expect(parseCents("call us")).toBeNull();
    expect(parseCents("")).toBeNull();
    expect(parseCents(null)).toBeNull();
  });

  it("formats cents as dollars", () => {
    expect(formatCents(150050)).toBe("$1,500.50");
    expect(formatCents(45000)).toBe("$450");
  });
});

describe("the staff status machine", () => {
  it("allows exactly the moves of staff-side §4", () => {
    const legal = QUOTE_STATUSES.flatMap((from) =>
      QUOTE_STATUSES.filter((to) => isStaffMove(from, to)).map((to) => `${from}→${to}`),
    );
    expect(legal.sort()).toEqual([
      "accepted→completed",
      "pending→declined",
      "pending→quoted",
      "quoted→accepted",
      "quoted→quoted",
    ]);
  });
});
