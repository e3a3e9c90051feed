// An accepted quote's invoice, paid as the quotes module pays one (docs/decisions.md#43): the homeowner accepts in My
// Home and pays with the demo card, or with Stripe (the PaymentIntent made by the pay call, then succeeded at the
// stand-in and confirmed). For the refund tests (docs/decisions.md#52).
import { randomBytes } from "node:crypto";
import type { TestContext } from "./context.js";
import { signInHome } from "./home.js";
import type { StripeStandIn } from "./stripe-stand-in.js";

/** A homeowner's home with a quoted item ($650 before tax unless said); returns the quote request and the owner. */
export async function quotedItem(
  ctx: TestContext,
  options: { postalCode?: string; province?: string; city?: string; amount?: string } = {},
) {
  const tag = randomBytes(3).toString("hex");
  const email = `owner-${tag}@example.ca`;
  const { property } = await ctx.container.customers.createWithProperty(
    { email, name: "Odette Tremblay", phone: "613-555-0100", subscriptionPlan: "standard" },
    {
      address: `${tag} Rue Principale`,
      city: options.city ?? "Orléans",
      province: options.province ?? "ON",
      postalCode: options.postalCode ?? "K1C 1A1",
    },
  );
  const [task] = await ctx
    .db("maintenance_tasks")
    .insert({ property_id: property.id, title: "Replace the water heater", status: "pending" })
    .returning("id");
  const amount = options.amount ?? "$650";
  const cents = /^\$[\d,]+(\.\d\d)?$/.test(amount) ? Math.round(Number(amount.replace(/[$,]/g, "")) * 100) : null;
  const [quote] = await ctx
    .db("quote_requests")
    .insert({
      property_id: property.id,
      maintenance_task_id: task.id,
      status: "quoted",
      priority: "high",
      quoted_amount: amount,
      quoted_cents: cents,
      quoted_at: new Date(),
    })
    .returning("id");
  return { quoteId: quote.id as number, taskId: task.id as number, propertyId: property.id as number, email };
}

/** A home with a quoted $650 job, accepted and paid; Gatineau (GST + QST) unless an Ontario postal code is given. */
export async function paidQuoteInvoice(
  ctx: TestContext,
  options: { stripe?: StripeStandIn; postalCode?: string; province?: string } = {},
): Promise<{ invoiceId: number; quoteId: number; email: string }> {
  const { quoteId, email } = await quotedItem(ctx, {
    city: options.province ? "Orléans" : "Gatineau",
    province: options.province ?? "QC",
    postalCode: options.postalCode ?? "J8X 1A1",
  });
  const home = await signInHome(ctx, email);
  await home.post(`/api/my-home/quotes/${quoteId}/accept`).expect(200);
  if (options.stripe) {
    await home.post(`/api/my-home/quotes/${quoteId}/pay`).send({}).expect(200);
    const row = await ctx.db("invoices").where({ quote_request_id: quoteId }).first();
    options.stripe.succeedIntent(row.payment_intent_id, email);
    await home.post(`/api/my-home/quotes/${quoteId}/pay/confirm`).expect(200);
  } else {
    await home
      .post(`/api/my-home/quotes/${quoteId}/pay`)
      .send({ name: "Odette Tremblay", email, cardNumber: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123" })
      .expect(200);
  }
  const invoice = await ctx.db("invoices").where({ quote_request_id: quoteId, status: "paid" }).first();
  if (!invoice) throw new Error("the quote's invoice was not paid");
  return { invoiceId: invoice.id as number, quoteId, email };
}
