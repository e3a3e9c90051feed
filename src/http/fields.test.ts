import { describe, expect, it } from "vitest";
import {
  dateField,
  idInput,
  monthField,
  multiLineText,
  parseId,
  pathId,
  singleLineText,
  timestampField,
} from "./fields.js";
import { unstorableFields } from "./validate.js";

const issue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0]!.message;

describe("ids", () => {
  it("takes canonical decimal ids only", () => {
    expect(parseId("44")).toBe(44);
    expect(parseId("2147483647")).toBe(2_147_483_647);
    for (const odd of [
      "0x2c",
      "4.4e1",
      " 44",
      "44 ",
      "044",
      "0",
      "-1",
      "+44",
      "44.0",
      "2147483648",
      "99999999999",
      "",
      "٤٤",
    ])
      expect(parseId(odd), odd).toBeNull();
    expect(parseId(44)).toBeNull();
  });

  it("pathId answers a number, and says why it refuses", () => {
    expect(pathId().parse("44")).toBe(44);
    expect(issue(pathId().safeParse("abc"))).toBe("Id must be a number");
    expect(issue(pathId().safeParse("0x2c"))).toBe("Id must be a number");
    expect(issue(pathId().safeParse(" 44"))).toBe("Id must be a number");
    expect(issue(pathId().safeParse("044"))).toBe("Id is not valid");
    expect(issue(pathId().safeParse("2147483648"))).toBe("Id is not valid");
  });

  it("idInput turns canonical text into a number and leaves anything else as it is", () => {
    expect(idInput("12")).toBe(12);
    expect(idInput(12)).toBe(12);
    expect(idInput("0x2c")).toBe("0x2c");
    expect(idInput(true)).toBe(true);
  });
});

describe("dates and timestamps", () => {
  const date = dateField("Start date");
  it("takes real dates from 1900 to 2200", () => {
    for (const ok of ["1900-01-01", "2026-02-28", "2028-02-29", "2200-12-31"])
      expect(date.safeParse(ok).success, ok).toBe(true);
    expect(issue(date.safeParse("0000-01-01"))).toBe("Start date must be between 1900 and 2200");
    expect(issue(date.safeParse("1899-12-31"))).toBe("Start date must be between 1900 and 2200");
    expect(issue(date.safeParse("2201-01-01"))).toBe("Start date must be between 1900 and 2200");
    expect(issue(date.safeParse("2026-02-29"))).toBe("Start date must be a date (YYYY-MM-DD)");
    expect(issue(date.safeParse("2026-1-05"))).toBe("Start date must be a date (YYYY-MM-DD)");
    expect(issue(date.safeParse(""))).toBe("Start date is required");
  });

  it("months follow the same years", () => {
    expect(monthField().safeParse("2026-03").success).toBe(true);
    expect(issue(monthField().safeParse("0000-01"))).toBe("Month must be between 1900 and 2200");
    expect(issue(monthField().safeParse("2026-13"))).toBe("Month must be YYYY-MM");
  });

  it("timestamps need a zone, stay within 1900 to 2200 and come back in UTC", () => {
    const at = timestampField("Completed at");
    expect(at.parse("2026-03-01T10:00:00+05:00")).toBe("2026-03-01T05:00:00.000Z");
    expect(issue(at.safeParse("0000-01-01T00:00:00Z"))).toBe("Completed at must be between 1900 and 2200");
    expect(issue(at.safeParse("2201-01-01T00:00:00Z"))).toBe("Completed at must be between 1900 and 2200");
    expect(issue(at.safeParse("2026-03-01T10:00:00"))).toBe("Completed at must be a date and time (ISO 8601)");
    expect(issue(at.safeParse("2026-02-30T10:00:00Z"))).toBe("Completed at must be a date and time (ISO 8601)");
  });
});

describe("text", () => {
  const line = singleLineText("Title", 50);
  const lines = multiLineText("Notes", 50);
  it("single-line text refuses every control character, C1 and the Unicode separators", () => {
    expect(line.parse("  Gutters  ")).toBe("Gutters");
    for (const bad of ["a\r\nb", "a\nb", "a\tb", "a\u001bb", "a\u007fb", "a\u0085b", "a\u2028b", "a\u2029b"]) {
      expect(issue(line.safeParse(bad)), JSON.stringify(bad)).toBe("Title must be one line without control characters");
    }
  });

  it("multi-line text keeps line breaks and tabs, and refuses the rest", () => {
    expect(lines.parse("one\r\ntwo\n\tthree")).toBe("one\r\ntwo\n\tthree");
    for (const bad of ["a\u0007b", "a\u000bb", "a\u007fb", "a\u009bb", "a\u2028b"]) {
      expect(issue(lines.safeParse(bad)), JSON.stringify(bad)).toBe(
        "Notes holds a control character that is not allowed",
      );
    }
  });
});

describe("unstorableFields", () => {
  it("names NUL and lone surrogates at any depth, keys included, and lets pairs through", () => {
    expect(
      unstorableFields({ a: "ok 😀", b: ["x", "\ud800"], c: { d: "\udc00x" }, e: "a\u0000b", "k\ud800": 1 }),
    ).toEqual({
      "b.1": "Contains a character that is not allowed (a lone UTF-16 surrogate)",
      "c.d": "Contains a character that is not allowed (a lone UTF-16 surrogate)",
      e: "Contains a character that is not allowed (NUL)",
      "k\ud800": "Contains a character that is not allowed (a lone UTF-16 surrogate)",
    });
    expect(unstorableFields("\ud83d")).toEqual({
      _: "Contains a character that is not allowed (a lone UTF-16 surrogate)",
    });
  });
});
