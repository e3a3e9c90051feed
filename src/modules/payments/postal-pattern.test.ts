import { describe, expect, it } from "vitest";
import { HOME_POSTAL_CODE_PATTERN, homePostalCode } from "./checkout.constants.js";

// /pricing's field checks the postal code with HOME_POSTAL_CODE_PATTERN as its HTML pattern (views/pages/pricing.ejs),
// which the browser compiles anchored and with the `v` flag: it must accept exactly what homePostalCode accepts.
const asTheBrowserDoes = new RegExp(`^(?:${HOME_POSTAL_CODE_PATTERN})$`, "v");

describe("the postal code pattern of /pricing's field", () => {
  it("accepts and refuses what homePostalCode does", () => {
    const samples = [
      "K1S 2B4",
      "k1s2b4",
      "K1S-2B4",
      "h2x 1y4",
      "T5J 0N3",
      "D1A 1A1",
      "K1S  2B4",
      " K1S2B4 ",
      "K1S_2B4",
      "W1A 1A1",
      "K1D 2B4",
      "Z9Z 9Z9",
      "12345",
      "K1S 2B",
      "",
    ];
    for (const sample of samples) expect(asTheBrowserDoes.test(sample), sample).toBe(homePostalCode(sample) !== null);
    expect(samples.filter((s) => asTheBrowserDoes.test(s))).toEqual([
      "K1S 2B4",
      "k1s2b4",
      "K1S-2B4",
      "h2x 1y4",
      "T5J 0N3",
      " K1S2B4 ",
    ]);
  });
});
