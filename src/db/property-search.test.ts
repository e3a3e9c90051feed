import { describe, expect, it } from "vitest";
import { searchPattern } from "./property-search.js";

describe("searchPattern", () => {
  it("folds case and accents, and escapes LIKE's wildcards", () => {
    expect(searchPattern(" Orléans ")).toBe("%orleans%");
    expect(searchPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });

  it("searches a phone number typed with separators by its digits, without the country code", () => {
    expect(searchPattern("613-555-0100")).toBe("%6135550100%");
    expect(searchPattern("(613) 555 0100")).toBe("%6135550100%");
    expect(searchPattern("+1 613 555 0100")).toBe("%6135550100%");
    expect(searchPattern("555-01")).toBe("%55501%");
    // Plain numbers (a street number, an id) stay as typed.
    expect(searchPattern("240")).toBe("%240%");
  });

  it("keeps postal codes as typed, folded", () => {
    expect(searchPattern("K1S 2B4")).toBe("%k1s 2b4%");
    expect(searchPattern("k1s2b4")).toBe("%k1s2b4%");
  });
});
