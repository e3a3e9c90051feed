// A used report link: a paying customer is led to My Home, anyone else to the plans (docs/decisions.md#28).
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Smtp, shareReport, sharedReportFixture, sharingTestApp } from "./sharing-fixtures.js";
import type { TestContext } from "../support/context.js";

let ctx: TestContext;
let smtp: Smtp;
let staff: Awaited<ReturnType<typeof sharingTestApp>>["staff"];

beforeAll(async () => {
  ({ ctx, smtp, staff } = await sharingTestApp());
  await ctx.container.plans.seed();
});

afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

const browser = () => supertest.agent(ctx.app);

/** Opens the link's page in one browser (claiming it), then returns what a second browser gets. */
async function secondDevice(token: string) {
  await browser().get(`/api/client-report/${token}`).expect(200);
  return browser().get(`/client-report/${token}`);
}

describe("a used report link opened on a second device", () => {
  it("a paying customer's: 'Sign in to My Home to read it', not 'Subscribe to the product'", async () => {
    const { report, propertyId } = await sharedReportFixture(ctx, "9 Member Lane");
    const property = await ctx.db("properties").where({ id: propertyId }).first();
    const now = new Date();
    await ctx.container.subscriptions.startDemo(
      {
        checkoutRef: "member-link",
        planType: "standard",
        amountCents: 37000,
        payerEmail: property.client_email,
        payerName: "Owner",
        cardNumber: "4242424242424242",
      },
      now,
    );
    await ctx.container.transaction((tx) =>
      ctx.container.subscriptions.attachToProperty(
        "member-link",
        { customerId: property.customer_id, propertyId },
        tx,
        now,
      ),
    );
    const { token } = await shareReport(staff, report.id, property.client_email);
    const res = await secondDevice(token);
    expect(res.status).toBe(410);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.text).toContain("Sign in to My Home to read it");
    expect(res.text).toContain('href="/my-home/sign-in"');
    expect(res.text).not.toContain("Subscribe to the product");
  });

  it("anyone else's: the spec's expired page, with 'Subscribe to the product'", async () => {
    const { report } = await sharedReportFixture(ctx, "10 Visitor Road");
    const { token } = await shareReport(staff, report.id, "visitor@example.com");
    const res = await secondDevice(token);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe("/report-expired");
    const page = await browser().get("/report-expired").expect(200);
    expect(page.text).toContain("Subscribe to the product");
    expect(page.text).not.toContain("Sign in to My Home to read it");
  });
});
