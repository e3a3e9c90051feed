import { describe, expect, it } from "vitest";
import { CONSTRAINT_RACE_MESSAGE, toHttpError } from "./errors.js";

describe("toHttpError", () => {
  it("turns a unique or exclusion violation (a race the checks missed) into a 409, never a 500", () => {
    for (const code of ["23505", "23P01"]) {
      const answer = toHttpError(Object.assign(new Error("duplicate key value"), { code }));
      expect(answer.status).toBe(409);
      expect(answer.message).toBe(CONSTRAINT_RACE_MESSAGE);
    }
  });

  it("keeps any other database error a 500 with a message that tells nothing of the inside", () => {
    const answer = toHttpError(Object.assign(new Error('column "x" does not exist'), { code: "42703" }));
    expect(answer.status).toBe(500);
    expect(answer.message).not.toContain("column");
  });
});
