import { describe, expect, it } from "vitest";
import { translator } from "../../src/i18n/index";
import { demoCardSchema } from "../../src/modules/payments/checkout.schemas";
import { type CardValues, cardErrors as check } from "./card-checks";

/** The English page's checks: the server's messages word for word. */
const cardErrors = (values: CardValues, onlyPayer?: boolean) => check(translator("en-CA"), values, onlyPayer);

const good: CardValues = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  cardNumber: "4242 4242 4242 4242",
  expiry: "12 / 39",
  cvc: "123",
};

/** The server's first message per field, as the form shows them. */
function serverErrors(values: CardValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of demoCardSchema.safeParse(values).error?.issues ?? [])
    errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

describe("the card form's client checks", () => {
  it("pass what the server accepts", () => {
    expect(cardErrors(good)).toEqual({});
    expect(serverErrors(good)).toEqual({});
  });

  it("name every empty field with the server's message", () => {
    const empty = { name: " ", email: "", cardNumber: "", expiry: "", cvc: "" };
    expect(cardErrors(empty)).toEqual(serverErrors(empty));
    expect(Object.keys(cardErrors(empty))).toHaveLength(5);
  });

  it.each([
    { cardNumber: "4242 4242 4242 4241" },
    { cardNumber: "4242" },
    { expiry: "01 / 20" },
    { expiry: "13 / 30" },
    { expiry: "1239" },
    { cvc: "12" },
    { cvc: "12a" },
    { email: "ada@" },
    { name: "x".repeat(121) },
  ])("agree with the server on %o", (change) => {
    const values = { ...good, ...change };
    const client = cardErrors(values);
    expect(Object.keys(client)).toHaveLength(1);
    expect(client).toEqual(serverErrors(values));
  });

  it("with Stripe's Payment Element, check only the payer", () => {
    expect(cardErrors({ ...good, cardNumber: "", expiry: "", cvc: "" }, true)).toEqual({});
    expect(cardErrors({ ...good, name: "" }, true)).toEqual({ name: "Name on card is required" });
  });
});
