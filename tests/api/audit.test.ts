// The audit trail (docs/decisions.md#39): each staff change listed there leaves exactly one event, with the
// changed fields before and after and no secret; a rolled-back change leaves none; erasure strips the person
// from the events and keeps them; owners read the trail by person, record and day, as JSON and CSV.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asActor } from "../../src/modules/audit/index.js";
import { runHavenHere } from "../support/cli.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { type Smtp, sharedReportFixture, shareReport, startSmtp } from "./sharing-fixtures.js";
import { addDays, todayIn } from "../../src/shared/business-time.js";

let ctx: TestContext;
let smtp: Smtp;
let staff: Awaited<ReturnType<typeof signInStaff>>;

interface EventRow {
  id: string;
  actor: string;
  actor_id: number | null;
  actor_email: string | null;
  action: string;
  record_type: string;
  record_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const eventsOf = (recordType: string, recordId: number | string): Promise<EventRow[]> =>
  ctx
    .db("audit_events")
    .where({ record_type: recordType, record_id: String(recordId) })
    .orderBy("id");

/** The one event a change left on this record since `sinceId`; fails unless there is exactly one. */
async function oneEventSince(sinceId: number, recordType: string, recordId: number | string): Promise<EventRow> {
  const rows = (await eventsOf(recordType, recordId)).filter((r) => Number(r.id) > sinceId);
  expect(rows, `${recordType} #${recordId}`).toHaveLength(1);
  return rows[0]!;
}

const lastId = async () => Number((await ctx.db("audit_events").max("id as id").first())?.id ?? 0);

const SECRET = /password|hash|token|4242424242424242|argon2/i;
const asStaff = <T>(work: () => Promise<T>) => asActor(`staff:${staff.user.id}`, work);

async function newCustomer(n: string, email = `audit-${n}@example.ca`) {
  return ctx.container.customers.createWithProperty(
    { email, name: `Avery Audit ${n}`, phone: "613-555-0142", subscriptionPlan: "standard" },
    { address: `${n} Sparks Street`, city: "Ottawa", province: "ON", postalCode: "K1P 5B9", squareFootage: 1500 },
  );
}

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_URL: "https://haven.example" });
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
});
afterAll(async () => {
  await ctx?.close();
  await smtp?.close();
});

describe("customers and properties", () => {
  it("a staff edit is one event: who, the changed fields only, before and after", async () => {
    const { property } = await newCustomer("1");
    const since = await lastId();
    await staff.agent.patch(`/api/properties/${property.id}`).send({ city: "Nepean", bedrooms: "3" }).expect(200);
    const event = await oneEventSince(since, "property", property.id);
    expect(event).toMatchObject({
      actor: `staff:${staff.user.id}`,
      actor_id: staff.user.id,
      actor_email: staff.email,
      action: "property.update",
    });
    expect(event.before).toEqual({ city: "Ottawa", bedrooms: null });
    expect(event.after).toEqual({ city: "Nepean", bedrooms: "3" });
  });

  it("an edit that changes nothing writes no event", async () => {
    const { property } = await newCustomer("2");
    const since = await lastId();
    await staff.agent.patch(`/api/properties/${property.id}`).send({ city: "Ottawa" }).expect(200);
    expect((await eventsOf("property", property.id)).filter((r) => Number(r.id) > since)).toHaveLength(0);
  });
});

describe("bookings", () => {
  it("a change whose transaction rolls back leaves no event", async () => {
    const { property } = await newCustomer("4");
    const since = await lastId();
    await expect(
      ctx.container.transaction(async (tx) => {
        await asStaff(() =>
          ctx.container.bookings.bookForProperty(
            { kind: "staff" },
            {
              propertyId: property.id,
              scheduledDate: ctx.container.bookings.calendar().minDate,
              timeSlot: "morning",
            },
            tx,
          ),
        );
        expect(await tx("audit_events").where("id", ">", since).count("* as n").first()).toEqual({ n: 1 });
        throw new Error("the caller failed after the booking");
      }),
    ).rejects.toThrow("the caller failed");
    expect(await lastId()).toBe(since);
    expect(await ctx.db("inspection_bookings").where({ property_id: property.id })).toHaveLength(0);
  });

  it("a staff booking through the wizard, sent twice with one key, is one booking and one event (no access code)", async () => {
    const payload = {
      propertyAddress: "31 Elgin Street, Ottawa, ON K1P 5W1",
      propertyType: "condo",
      propertySize: "900",
      firstName: "Wren",
      lastName: "Wizard",
      email: "wren.wizard@example.ca",
      phone: "613-555-0177",
      scheduledDate: ctx.container.bookings.calendar().minDate,
      timeSlot: "9:00 AM",
      accessMethod: "smart-lock",
      accessCode: "2468",
    };
    const since = await lastId();
    const send = () =>
      staff.agent.post("/api/inspection-bookings").set("Idempotency-Key", "audit-wizard").send(payload);
    const first = await send();
    expect(first.status).toBeLessThan(300);
    const again = await send();
    expect(again.body.id).toBe(first.body.id);
    const event = await oneEventSince(since, "booking", first.body.id);
    expect(event).toMatchObject({ action: "booking.create", actor_id: staff.user.id });
    expect(JSON.stringify(event)).not.toContain("2468");
  });

  it("staff booking, moving, reassigning and cancelling: one event each", async () => {
    const { property } = await newCustomer("3");
    const { minDate } = ctx.container.bookings.calendar();
    let since = await lastId();
    const booking = (await asStaff(() =>
      ctx.container.bookings.bookForProperty(
        { kind: "staff" },
        { propertyId: property.id, scheduledDate: minDate, timeSlot: "morning" },
      ),
    ))!;
    expect((await oneEventSince(since, "booking", booking.id)).action).toBe("booking.create");

    since = await lastId();
    await staff.agent
      .patch(`/api/inspection-bookings/${booking.id}`)
      .send({ scheduledDate: minDate, timeSlot: "afternoon" })
      .expect(200);
    const moved = await oneEventSince(since, "booking", booking.id);
    expect(moved).toMatchObject({ action: "booking.move", actor_id: staff.user.id });
    expect(moved.before).toMatchObject({ timeSlot: "morning" });
    expect(moved.after).toMatchObject({ timeSlot: "afternoon" });
    expect(moved.before).not.toHaveProperty("scheduledDate");

    // An inspector without hours: the office may still give them a booking (docs/decisions.md#37).
    const gus = await ctx.container.users.create({
      email: "gus-inspector@haven.test",
      password: "inspector correct horse",
      firstName: "Gus",
      lastName: "Inspector",
      role: "inspector",
    });
    since = await lastId();
    await staff.agent.patch(`/api/inspection-bookings/${booking.id}`).send({ inspectorId: gus.id }).expect(200);
    const reassigned = await oneEventSince(since, "booking", booking.id);
    expect(reassigned).toMatchObject({ action: "booking.reassign", before: { inspectorId: null } });
    expect(reassigned.after).toMatchObject({ inspectorId: gus.id });

    since = await lastId();
    await staff.agent.patch(`/api/inspection-bookings/${booking.id}`).send({ status: "cancelled" }).expect(200);
    const cancelled = await oneEventSince(since, "booking", booking.id);
    expect(cancelled).toMatchObject({ action: "booking.cancel", before: { status: "scheduled" } });
    expect(cancelled.after).toMatchObject({ status: "cancelled" });

    // A refused change (a cancelled booking cannot move) writes nothing.
    since = await lastId();
    await staff.agent
      .patch(`/api/inspection-bookings/${booking.id}`)
      .send({ scheduledDate: minDate, timeSlot: "morning" })
      .expect(409);
    expect(await lastId()).toBe(since);
  });
});

describe("sharing and quotes", () => {
  it("a shared report, a quote's status move, a quote report sent and a deletion: one event each, no token", async () => {
    const fixture = await sharedReportFixture(ctx, "12 Audit Lane");
    let since = await lastId();
    const { token } = await shareReport(staff.agent, fixture.report.id, "quote-client@example.com");
    const shared = await oneEventSince(since, "report", fixture.report.id);
    expect(shared).toMatchObject({ action: "report.share", actor_id: staff.user.id });
    expect(shared.after).toMatchObject({ clientEmail: "quote-client@example.com", emailed: true });
    expect(JSON.stringify(shared)).not.toContain(token);
    expect(JSON.stringify(shared)).not.toMatch(SECRET);

    const client = ctx.agent();
    await client.get(`/api/client-report/${token}`).expect(200);
    await client
      .post(`/api/client-report/${token}/responses`)
      .send({ responses: fixture.taskIds.map((id) => ({ maintenanceTaskId: id, action: "request_quote" })) })
      .expect(201);
    const quotes = (await staff.agent.get(`/api/quote-requests?propertyId=${fixture.propertyId}`).expect(200)).body as {
      id: number;
    }[];
    // The client's own requests are not staff changes.
    expect((await eventsOf("quote", quotes[0]!.id)).length).toBe(0);

    since = await lastId();
    await staff.agent
      .patch(`/api/quote-requests/${quotes[0]!.id}`)
      .send({ status: "quoted", quotedAmount: "$250", adminNotes: "Two hours" })
      .expect(200);
    const quoted = await oneEventSince(since, "quote", quotes[0]!.id);
    expect(quoted).toMatchObject({ action: "quote.update", before: { status: "pending" } });
    expect(quoted.after).toMatchObject({ status: "quoted", quotedAmount: "$250", adminNotes: "Two hours" });

    since = await lastId();
    await staff.agent.post(`/api/properties/${fixture.propertyId}/generate-quote-report`).send({}).expect(201);
    const sent = await oneEventSince(since, "property", fixture.propertyId);
    expect(sent.action).toBe("quote_report.send");
    expect(JSON.stringify(sent)).not.toMatch(SECRET);

    since = await lastId();
    await staff.agent.delete(`/api/quote-requests/${quotes[1]!.id}`).expect(204);
    const deleted = await oneEventSince(since, "quote", quotes[1]!.id);
    expect(deleted).toMatchObject({ action: "quote.delete", after: null });
    expect(deleted.before).toMatchObject({ id: quotes[1]!.id, status: "pending" });
  });
});

describe("subscriptions, refunds and cards", () => {
  let subId: number;

  beforeAll(async () => {
    const sub = await ctx.container.subscriptions.startDemo(
      {
        checkoutRef: `demo_cs_audit_${Date.now()}`,
        planType: "standard",
        amountCents: 41200,
        payerEmail: "sub-audit@example.com",
        payerName: "Sasha Subscriber",
        cardNumber: "4242424242424242",
        priceList: "checkout",
        postalCode: "K1S 2B4",
      },
      new Date(),
    );
    subId = sub.id;
  });

  it("cancel, resume and change plan through the staff API: one event each, the changed fields only", async () => {
    let since = await lastId();
    await staff.agent.post(`/api/subscriptions/${subId}/cancel`).send({ when: "period_end" }).expect(200);
    const cancel = await oneEventSince(since, "subscription", subId);
    expect(cancel).toMatchObject({
      action: "subscription.cancel",
      actor_id: staff.user.id,
      before: { cancelAt: null },
    });
    expect(cancel.after?.cancelAt).toBeTruthy();
    expect(cancel.before).not.toHaveProperty("planType");

    since = await lastId();
    await staff.agent.post(`/api/subscriptions/${subId}/resume`).send({}).expect(200);
    expect((await oneEventSince(since, "subscription", subId)).action).toBe("subscription.resume");

    since = await lastId();
    await staff.agent.post(`/api/subscriptions/${subId}/change-plan`).send({ planType: "premium" }).expect(200);
    const change = await oneEventSince(since, "subscription", subId);
    expect(change).toMatchObject({
      action: "subscription.change_plan",
      before: { planType: "standard" },
      after: { planType: "premium" },
    });

    // A repeat of the same change (same Idempotency-Key) is answered from the first: no second event.
    since = await lastId();
    for (let i = 0; i < 2; i++)
      await staff.agent
        .post(`/api/subscriptions/${subId}/cancel`)
        .set("Idempotency-Key", "audit-once")
        .send({ when: "period_end" })
        .expect(200);
    await oneEventSince(since, "subscription", subId);
  });

  it("a card changed by staff is one event, without the card number", async () => {
    const since = await lastId();
    await ctx.container.subscriptions.updateDemoCard(subId, {
      cardNumber: "5555 5555 5555 4444",
      actor: `staff:${staff.user.id}`,
    });
    const event = await oneEventSince(since, "subscription", subId);
    expect(event.action).toBe("subscription.card");
    expect(JSON.stringify(event)).not.toContain("5555555555554444");
    expect(JSON.stringify(event)).not.toContain("5555 5555 5555 4444");
  });

  it("a customer's own change (My Home, the billing link) is not a staff change: no event", async () => {
    const since = await lastId();
    await ctx.container.subscriptions.resume(subId, { actor: "customer" });
    expect(await lastId()).toBe(since);
  });

  it("a refund is one event on the invoice", async () => {
    const invoice = (await ctx.container.invoiceSide.invoices.list({ subscriptionId: subId, limit: 10, offset: 0 }))
      .rows[0]!;
    const since = await lastId();
    await staff.agent
      .post(`/api/invoices/${invoice.id}/refund`)
      .send({ amountCents: 1000, reason: "Goodwill" })
      .expect((res) => expect(res.status).toBeLessThan(300));
    const event = await oneEventSince(since, "invoice", invoice.id);
    expect(event).toMatchObject({
      action: "invoice.refund",
      actor_id: staff.user.id,
      before: { refundedCents: 0 },
      after: { refundedCents: 1000, amountCents: 1000, reason: "Goodwill" },
    });
  });
});

describe("staff accounts and privacy", () => {
  it("creating, disabling and deleting a staff account: one event each, never the password or its hash", async () => {
    let since = await lastId();
    const user = await asStaff(() =>
      ctx.container.users.create({
        email: "new-office@haven.test",
        password: "another correct horse",
        firstName: "Olu",
        lastName: "Office",
        role: "office",
      }),
    );
    const created = await oneEventSince(since, "staff_user", user.id);
    expect(created).toMatchObject({ action: "staff_user.create", actor_id: staff.user.id, before: null });
    expect(created.after).toMatchObject({ email: "new-office@haven.test", role: "office" });
    expect(JSON.stringify(created)).not.toMatch(SECRET);
    expect(JSON.stringify(created)).not.toContain("another correct horse");

    since = await lastId();
    await asStaff(() => ctx.container.users.disable("new-office@haven.test"));
    expect(await oneEventSince(since, "staff_user", user.id)).toMatchObject({
      action: "staff_user.disable",
      after: { disabled: true },
    });

    since = await lastId();
    await asStaff(() => ctx.container.users.delete(user.id));
    expect((await oneEventSince(since, "staff_user", user.id)).action).toBe("staff_user.delete");
  });

  it("a change made with the haven CLI is put down to cli", async () => {
    const user = await ctx.container.users.create({
      email: "cli-disabled@haven.test",
      password: "cli correct horse",
      firstName: "Cy",
      lastName: "Cli",
    });
    const since = await lastId();
    const result = await runHavenHere(ctx.url, ["users", "disable", "--email", "cli-disabled@haven.test"]);
    expect(result.code, result.stderr).toBe(0);
    expect(await oneEventSince(since, "staff_user", user.id)).toMatchObject({
      actor: "cli",
      actor_id: null,
      action: "staff_user.disable",
    });
  });

  it("inviting, changing a role, deactivating and sending a reset link (/api/staff-users): one event each, no token", async () => {
    let since = await lastId();
    const invited = (
      await staff.agent
        .post("/api/staff-users")
        .send({ email: "invitee@haven.test", firstName: "Ivy", lastName: "Invitee", role: "office" })
        .expect(201)
    ).body as { id: number };
    const invite = await oneEventSince(since, "staff_user", invited.id);
    expect(invite).toMatchObject({ action: "staff_user.invite", actor_id: staff.user.id, before: null });
    expect(invite.after).toMatchObject({ email: "invitee@haven.test", role: "office" });

    since = await lastId();
    await staff.agent.patch(`/api/staff-users/${invited.id}`).send({ role: "inspector" }).expect(200);
    expect(await oneEventSince(since, "staff_user", invited.id)).toMatchObject({
      action: "staff_user.change",
      before: { role: "office" },
      after: { role: "inspector" },
    });

    since = await lastId();
    await staff.agent.patch(`/api/staff-users/${invited.id}`).send({ role: "inspector" }).expect(200);
    expect(await lastId()).toBe(since);

    since = await lastId();
    await staff.agent.post(`/api/staff-users/${invited.id}/reset-link`).send({}).expect(202);
    const link = await oneEventSince(since, "staff_user", invited.id);
    expect(link.action).toBe("staff_user.invite_link");
    expect(JSON.stringify(link)).not.toMatch(SECRET);

    since = await lastId();
    await staff.agent.patch(`/api/staff-users/${invited.id}`).send({ active: false }).expect(200);
    const off = await oneEventSince(since, "staff_user", invited.id);
    expect(off.action).toBe("staff_user.change");
    expect(off.before).toMatchObject({ status: "invited" });
    expect(off.after).toMatchObject({ status: "deactivated" });
  });

  it("an export is one event; an erasure is one event and strips the person from earlier events, keeping them", async () => {
    const { customer, property } = await newCustomer("9", "erase-me@example.ca");
    await staff.agent
      .patch(`/api/properties/${property.id}`)
      .send({ address: "99 Sparks Street", clientName: "Avery Renamed", clientPhone: "613-555-0199" })
      .expect(200);
    const [edit] = await eventsOf("property", property.id);
    expect(JSON.stringify(edit)).toContain("99 Sparks Street");

    // Someone else whose e-mail merely ends with theirs keeps their events whole (exact values only).
    const neighbour = await asStaff(() =>
      ctx.container.users.create({
        email: "berase-me@example.ca",
        password: "neighbour correct horse",
        firstName: "Bea",
        lastName: "Neighbour",
      }),
    );

    let since = await lastId();
    await asStaff(() => ctx.container.privacy.exportCustomer("erase-me@example.ca"));
    const exported = await oneEventSince(since, "customer", customer.id);
    expect(exported).toMatchObject({ action: "customer.export", actor_id: staff.user.id });
    expect(JSON.stringify(exported)).not.toContain("erase-me");

    since = await lastId();
    await asStaff(() => ctx.container.privacy.eraseCustomer("erase-me@example.ca"));
    const erased = await oneEventSince(since, "customer", customer.id);
    expect(erased.action).toBe("customer.erase");
    expect(JSON.stringify(erased)).not.toMatch(/erase-me|Avery|Sparks/);

    const kept = await eventsOf("property", property.id);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ id: edit!.id, action: "property.update", actor_id: staff.user.id });
    const text = JSON.stringify([kept[0]!.before, kept[0]!.after]);
    for (const personal of ["Sparks", "Avery", "613-555-01", "erase-me"]) expect(text).not.toContain(personal);
    expect(kept[0]!.after).toMatchObject({ address: "[erased]" });
    const [theirs] = await eventsOf("staff_user", neighbour.id);
    expect(theirs!.after).toMatchObject({ email: "berase-me@example.ca", firstName: "Bea" });
  });
});

describe("GET /api/audit-events and /admin/audit", () => {
  it("filters by person, record and day, pages by keyset, and exports CSV", async () => {
    const { property } = await newCustomer("20");
    for (const city of ["Kanata", "Orleans", "Barrhaven"])
      await staff.agent.patch(`/api/properties/${property.id}`).send({ city }).expect(200);

    const byRecord = await staff.agent
      .get("/api/audit-events")
      .query({ recordType: "property", recordId: property.id, limit: 2 })
      .expect(200);
    expect(byRecord.body.map((e: { after: { city: string } }) => e.after.city)).toEqual(["Barrhaven", "Orleans"]);
    expect(byRecord.headers["x-total-count"]).toBe("3");
    const next = byRecord.headers["x-next-before"];
    expect(next).toBe(String(byRecord.body[1].id));
    const older = await staff.agent
      .get("/api/audit-events")
      .query({ recordType: "property", recordId: property.id, limit: 2, before: next })
      .expect(200);
    expect(older.body.map((e: { after: { city: string } }) => e.after.city)).toEqual(["Kanata"]);
    expect(older.headers["x-next-before"]).toBeUndefined();

    const byPerson = await staff.agent.get("/api/audit-events").query({ actorId: staff.user.id }).expect(200);
    expect(byPerson.body.length).toBeGreaterThan(3);
    expect(byPerson.body.every((e: { actorId: number }) => e.actorId === staff.user.id)).toBe(true);
    expect((await staff.agent.get("/api/audit-events").query({ actorId: 999999 }).expect(200)).body).toEqual([]);

    // The day the events were recorded (by the database's clock, which the day filter reads) in the business zone.
    const today = todayIn(ctx.env.BUSINESS_TZ, new Date(byRecord.body[0].createdAt));
    const dayBefore = addDays(today, -3);
    const inRange = await staff.agent
      .get("/api/audit-events")
      .query({ recordType: "property", recordId: property.id, from: dayBefore, to: "2999-01-01" })
      .expect(200);
    expect(inRange.body).toHaveLength(3);
    const past = await staff.agent
      .get("/api/audit-events")
      .query({ recordType: "property", recordId: property.id, to: dayBefore })
      .expect(200);
    expect(past.body).toHaveLength(0);
    await staff.agent.get("/api/audit-events").query({ from: "yesterday" }).expect(400);
    await staff.agent.get("/api/audit-events").query({ from: today, to: dayBefore }).expect(400);

    const csv = await staff.agent
      .get("/api/audit-events")
      .query({ recordType: "property", recordId: property.id, format: "csv" })
      .expect(200);
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    const lines = csv.text
      .replace(/^\ufeff/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toContain("action");
    expect(lines[0]).toBe("id,createdAt,actorId,actorEmail,actor,action,recordType,recordId,before,after");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain("Barrhaven");

    const page = await staff.agent.get(`/admin/audit?recordType=property&recordId=${property.id}`).expect(200);
    expect(page.text).toContain("Audit trail");
    expect(page.text.match(/data-testid="audit-row"/g)).toHaveLength(3);
    const pageCsv = await staff.agent.get(`/admin/audit?recordType=property&recordId=${property.id}&format=csv`);
    expect(pageCsv.status).toBe(200);
    expect(pageCsv.headers["content-type"]).toMatch(/text\/csv/);
    await staff.agent.get("/admin/audit?from=nope").expect(400);
  });

  it("owners only: an office account gets 403, no session 401", async () => {
    await ctx.agent().get("/api/audit-events").expect(401);
    const office = ctx.agent();
    await ctx.container.users.create({
      email: "office-reader@haven.test",
      password: "office correct horse",
      firstName: "Ola",
      lastName: "Office",
      role: "office",
    });
    await office.post("/api/auth/login").send({ email: "office-reader@haven.test", password: "office correct horse" });
    await office.get("/api/audit-events").expect(403);
    await office.get("/admin/audit").expect(403);
  });
});
