import { describe, expect, it } from "vitest";
import { translator } from "../../src/i18n/index";
import { customerCreateSchema } from "../../src/modules/customers/customers.schemas";
import { type IntakeValues, intakeErrors as check } from "./intake-checks";

/** The English page's checks: the server's messages word for word. */
const intakeErrors = (values: IntakeValues) => check(translator("en-CA"), values);

const good: IntakeValues = {
  name: "Jo Homeowner",
  email: "jo@example.com",
  phone: "613-555-0100",
  address: "12 Elm Street",
  city: "Ottawa",
  state: "ON",
  zipCode: "K1S 2B4",
  squareFootage: "2,400",
  yearBuilt: "1987",
};

/** The server's first message per form field, as the island shows them. */
function serverErrors(values: IntakeValues): Record<string, string> {
  const { name, email, phone, ...property } = values;
  const parsed = customerCreateSchema.safeParse({
    stripeSessionId: "demo_session_abc123",
    planType: "basic",
    name,
    email,
    phone,
    property,
  });
  const errors: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) errors[String(issue.path.at(-1))] ??= issue.message;
  return errors;
}

describe("the property form's client checks", () => {
  it("pass what the server accepts", () => {
    expect(intakeErrors(good)).toEqual({});
    expect(serverErrors(good)).toEqual({});
  });

  it("name every empty required field with the server's message", () => {
    // Blank text fields, and the state select left on its empty option.
    const empty = {
      ...(Object.fromEntries(Object.keys(good).map((k) => [k, " "])) as unknown as IntakeValues),
      state: "",
    };
    const client = intakeErrors(empty);
    expect(client).toEqual({
      name: "Name is required",
      email: "Email is required",
      phone: "Phone is required",
      address: "Street address is required",
      city: "City is required",
      state: "Province is required",
      zipCode: "Postal code is required",
      squareFootage: "Square footage is required",
      yearBuilt: "Year built is required",
    });
    expect(serverErrors(empty)).toEqual(client);
  });

  it.each([
    { squareFootage: "big" },
    { squareFootage: "1200.5" },
    { squareFootage: "99" },
    { squareFootage: "100001" },
    { yearBuilt: "1599" },
    { yearBuilt: String(new Date().getFullYear() + 2) },
    { zipCode: "6270" },
    { zipCode: "K1S 2B" },
    { zipCode: "D1S 2B4" },
    { zipCode: "K1S 2B44" },
    { phone: "abc" },
    { email: "jo@" },
  ])("agree with the server on %o", (change) => {
    const values = { ...good, ...change };
    const client = intakeErrors(values);
    expect(Object.keys(client)).toHaveLength(1);
    expect(client).toEqual(serverErrors(values));
  });

  it.each([
    [{ zipCode: "k1s2b4" }, "K1S 2B4"],
    [{ zipCode: " k1s 2b4 " }, "K1S 2B4"],
    [{ zipCode: "K1S-2B4" }, "K1S 2B4"],
    [{ state: "IL", zipCode: "62704" }, "62704"],
    [{ state: "ny", zipCode: "10001-1234" }, "10001-1234"],
  ])("accept %o and store the postal code as %s", (change, stored) => {
    const values = { ...good, ...change };
    expect(intakeErrors(values)).toEqual({});
    const { name, email, phone, ...property } = values;
    const parsed = customerCreateSchema.parse({
      stripeSessionId: "demo_session_abc123",
      planType: "basic",
      name,
      email,
      phone,
      property,
    });
    expect(parsed.property.postalCode).toBe(stored);
  });

  it("store a province as the province and a state as the state, never both", () => {
    const parse = (property: Record<string, unknown>) => {
      const { name, email, phone, ...rest } = good;
      return customerCreateSchema.parse({
        stripeSessionId: "demo_session_abc123",
        planType: "basic",
        name,
        email,
        phone,
        property: { ...rest, ...property },
      }).property;
    };
    expect(parse({ state: "on" })).toMatchObject({ province: "ON", state: null });
    expect(parse({ state: "IL", zipCode: "62704" })).toMatchObject({ province: null, state: "IL" });
    // The onboarding pair of names is accepted too, alone or agreeing with the spec's pair.
    expect(parse({ state: undefined, zipCode: undefined, province: "ON", postalCode: "k2p1l4" })).toMatchObject({
      province: "ON",
      state: null,
      postalCode: "K2P 1L4",
    });
    expect(parse({ province: "ON", postalCode: "K1S 2B4" })).toMatchObject({ province: "ON", postalCode: "K1S 2B4" });
  });
});
