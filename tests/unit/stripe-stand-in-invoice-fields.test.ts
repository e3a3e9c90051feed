// The stand-in against Stripe's API reference for the invoice update Haven makes (custom_fields, to show Haven's
// number on an open invoice's hosted page: src/modules/invoices/stripe-invoice-number.ts, docs/decisions.md#54).
// Each test quotes the reference (docs.stripe.com/api/invoices/update, also in the stripe SDK's types) and checks the
// stand-in does that, the unkind parts included.
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Conformance, conformance, monthly, subscribed } from "../support/stripe-conformance.js";

let c: Conformance;
let standard: string;
beforeAll(async () => {
  c = await conformance();
  standard = await monthly(c.stripe, 37000);
});
afterAll(() => c.standIn.close());

/** A paid first invoice, and an open renewal waiting for 3-D Secure. */
async function invoices() {
  const { subscription } = await subscribed(c, standard, { defaults: [c.rates.hst] });
  const paid = (subscription.latest_invoice as Stripe.Invoice).id!;
  const open = c.standIn.advancePeriod(subscription.id, { requiresAction: true }).invoice!.id as string;
  return { paid, open };
}

describe("invoices.update custom_fields", () => {
  it('"If a value for custom_fields is specified, the list specified will replace the existing custom field list … Pass an empty string to remove previously-defined fields"', async () => {
    const { open } = await invoices();
    const first = await c.stripe.invoices.update(open, { custom_fields: [{ name: "PO number", value: "4471" }] });
    expect(first.custom_fields).toEqual([{ name: "PO number", value: "4471" }]);
    const replaced = await c.stripe.invoices.update(open, {
      custom_fields: [{ name: "Invoice", value: "HAV-2027-000001" }],
    });
    expect(replaced.custom_fields).toEqual([{ name: "Invoice", value: "HAV-2027-000001" }]);
    expect((await c.stripe.invoices.retrieve(open)).custom_fields).toEqual(replaced.custom_fields);
    expect((await c.stripe.invoices.update(open, { custom_fields: "" })).custom_fields).toBeNull();
  });

  it('"A list of up to 4 custom fields"; a name "may be up to 40 characters", a value "up to 140": more is refused and nothing changes', async () => {
    const { open } = await invoices();
    const field = (n: number) => ({ name: `Field ${n}`, value: `Value ${n}` });
    await c.stripe.invoices.update(open, { custom_fields: [1, 2, 3, 4].map(field) });
    for (const refused of [
      [1, 2, 3, 4, 5].map(field),
      [{ name: "n".repeat(41), value: "v" }],
      [{ name: "n", value: "v".repeat(141) }],
    ])
      await expect(c.stripe.invoices.update(open, { custom_fields: refused })).rejects.toMatchObject({
        statusCode: 400,
      });
    expect((await c.stripe.invoices.retrieve(open)).custom_fields).toEqual([1, 2, 3, 4].map(field));
    const longest = { name: "n".repeat(40), value: "v".repeat(140) };
    expect((await c.stripe.invoices.update(open, { custom_fields: [longest] })).custom_fields).toEqual([longest]);
  });

  it("custom fields can be updated on draft and open invoices: a paid invoice refuses the update", async () => {
    const { paid } = await invoices();
    await expect(
      c.stripe.invoices.update(paid, { custom_fields: [{ name: "Invoice", value: "HAV-2027-000001" }] }),
    ).rejects.toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect((await c.stripe.invoices.retrieve(paid)).custom_fields).toBeNull();
  });
});
