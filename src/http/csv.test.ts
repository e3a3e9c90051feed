import { describe, expect, it } from "vitest";
import { csvCell, csvLine, flattenRow } from "./csv.js";

describe("csvCell", () => {
  it("quotes commas, quotes and line breaks, doubling the quotes", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a, b")).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("one\ntwo")).toBe('"one\ntwo"');
    expect(csvCell("one\r\ntwo")).toBe('"one\r\ntwo"');
  });

  it("puts an apostrophe before text a spreadsheet would run as a formula", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"])
      expect(csvCell(`${start}SUM(A1)`).replace(/^"/, "")).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("writes numbers, booleans, dates and nothing as they are", () => {
    expect(csvCell(-12.5)).toBe("-12.5");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05.000Z");
    expect(csvLine(["a", 1, null])).toBe("a,1,\r\n");
  });
});

describe("flattenRow", () => {
  it("names nested fields by path and leaves arrays out", () => {
    const row = flattenRow({ id: 1, property: { address: "1 Main", geo: { lat: 1 } }, tags: ["x"], at: new Date(0) });
    expect([...row.keys()]).toEqual(["id", "property.address", "property.geo.lat", "at"]);
  });
});
