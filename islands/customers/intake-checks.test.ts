import { describe, expect, it } from "vitest";
import { customerCreateSchema } from "../../src/modules/customers/customers.schemas";
import { type IntakeValues, intakeErrors } from "./intake-checks";

const good: IntakeValues = {
  name: "Jo Homeowner",
  email: "jo@example.com",
  phone: "217-555-0100",
  address: "12 Elm Street",
  city: "Springfield",
  state: "IL",
  zipCode: "62704",
  squareFootage: "2,400",
  yearBuilt: "1987",
};

/** The server's first message per form field, as the island shows them. */
function serverErrors(values: IntakeValues): Record<string, string> {
  const { name, email, phone, ...property } = values;
  const parsed = customerCreateSchema.safeParse({ stripeSessionId: "demo_session_abc123", planType: "basic", name, email, phone, property });
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
    const empty = { ...(Object.fromEntries(Object.keys(good).map((k) => [k, " "])) as unknown as IntakeValues), state: "" };
    const client = intakeErrors(empty);
    expect(client).toEqual({
      name: "Name is required",
      email: "Email is required",
      phone: "Phone is required",
      address: "Street address is required",
      city: "City is required",
      state: "State is required",
      zipCode: "ZIP code is required",
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
    { phone: "abc" },
    { email: "jo@" },
  ])("agree with the server on %o", (change) => {
    const values = { ...good, ...change };
    const client = intakeErrors(values);
    expect(Object.keys(client)).toHaveLength(1);
    expect(client).toEqual(serverErrors(values));
  });
});
