// A burst of bookings for one free time, on the pool the app really has (docs/decisions.md#46): every contender gets
// 201 or 409 with the free times, never a 5xx, and exactly one booking is written. And the limits of that pool's
// connections: each shows them, a lock not granted in time is a 409 for a booking and a 503 with Retry-After
// elsewhere, a statement past its time a 503, an idle transaction is ended, and migrations run without them.
import type { Express } from "express";
import type { Knex } from "knex";
import pino from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createContainer } from "../../src/container.js";
import { createAppKnex, migrateLatest } from "../../src/db/knex.js";
import { FolderMigrationSource } from "../../src/db/migration-source.js";
import { BUSY_MESSAGE, RETRY_AFTER_SECONDS, toHttpError } from "../../src/http/errors.js";
import { SLOT_TAKEN } from "../../src/modules/bookings/bookings.constants.js";
import { type TestContext, signInStaff } from "../support/context.js";
import { EVERY_DAY, addInspector, bookingContext, wizardPayload } from "../support/inspectors.js";

let ctx: TestContext;
let date: string;
/** The app as boot makes it: createAppKnex with the environment's pool size (10) and limits, not the tests' pool. */
let db: Knex;
let app: Express;
const opened: Knex[] = [];

/** An app on its own pool of the app's settings, with `over` changed. */
function appOn(over: Partial<TestContext["env"]> = {}): { db: Knex; app: Express } {
  const env = { ...ctx.env, ...over };
  const pool = createAppKnex(ctx.url, env);
  opened.push(pool);
  return { db: pool, app: createApp(createContainer(env, ctx.url, pool, { log: pino({ level: "silent" }) })) };
}
const agentOf = (target: Express) => supertest.agent(target).set("Sec-Fetch-Site", "same-origin");

beforeAll(async () => {
  ({ ctx, date } = await bookingContext());
  ({ db, app } = appOn());
  await addInspector(ctx, "Burst", EVERY_DAY);
});
afterAll(async () => {
  await Promise.all(opened.map((pool) => pool.destroy()));
  await ctx.close();
});

type Answer = {
  status: number;
  body: { message?: string; availability?: { days: { date: string; slots: string[]; parts: string[] }[] } };
};

/** A 409 "That time was just taken" whose free times no longer offer the morning of `day`. */
function expectTaken(answer: Answer, day: string) {
  expect(answer.status).toBe(409);
  expect(answer.body.message).toBe(SLOT_TAKEN);
  const fresh = answer.body.availability!.days.find((d) => d.date === day)!;
  expect(fresh.parts).not.toContain("morning");
  expect(fresh.slots).not.toContain("9:00 AM");
  expect(fresh.parts).toContain("afternoon");
  expect(fresh.slots).toContain("1:00 PM");
}

/** No 5xx, exactly one 201, and every other answer a 409 with the free times. */
function expectOneWinner(answers: Answer[], day: string) {
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  expect(statuses.filter((s) => s === 201)).toHaveLength(1);
  for (const answer of answers.filter((a) => a.status !== 201)) expectTaken(answer, day);
}

const bookingsOn = async (day: string) =>
  Number((await ctx.db("inspection_bookings").where({ scheduled_date: day }).count({ n: "*" }).first())!.n);

const onboardingPayload = (i: number, day: string) => ({
  firstName: "Ona",
  lastName: `Burst${i}`,
  email: `onboarding-burst-${i}@example.com`,
  phone: "613 555 0199",
  address: `${i + 1} Burst Lane`,
  city: "Ottawa",
  province: "ON",
  postalCode: "K1S 2B4",
  squareFootage: "1500",
  yearBuilt: "1962",
  bedrooms: "3",
  bathrooms: "1.5",
  ownershipType: "owner",
  householdIncome: "100k-150k",
  occupation: "professional",
  preferredDate: day,
  preferredTime: "morning",
  accessMethod: "owner-present",
});

describe("a burst of bookings for the one free morning, on the app's pool", () => {
  it("uses the app's pool: DB_POOL_MAX connections, no more", () => {
    expect((db.client.pool as { max: number }).max).toBe(ctx.env.DB_POOL_MAX);
    expect(ctx.env.DB_POOL_MAX).toBe(10);
  });

  it("30 homeowners at once (the wizard and onboarding): one 201, 29 × 409 with the free times, one booking", async () => {
    const day = date;
    // The wizard's 9:00 AM (two hours for 1,500 sq ft) and onboarding's morning (8 to 12) overlap: one inspector.
    const wizard = Array.from({ length: 20 }, () =>
      agentOf(app)
        .post("/api/inspection-bookings")
        .send(wizardPayload(ctx, { scheduledDate: day, timeSlot: "9:00 AM" })),
    );
    const onboarding = Array.from({ length: 10 }, (_, i) =>
      agentOf(app).post("/api/onboarding").send(onboardingPayload(i, day)),
    );
    expectOneWinner(await Promise.all([...wizard, ...onboarding]), day);
    expect(await bookingsOn(day)).toBe(1);
  });

  it("20 staff bookings at once from the booking page: one 201, 19 × 409 with the free times, one booking", async () => {
    const day = ctx.container.bookings.calendar().bookingDates.find((d) => d !== date)!;
    const { agent } = await signInStaff(ctx, agentOf(app));
    const homes = [];
    for (let i = 0; i < 20; i++)
      homes.push(
        await ctx.container.customers.createWithProperty(
          {
            email: `staff-burst-${i}@example.com`,
            name: `Staff Burst ${i}`,
            phone: "613-555-0142",
            subscriptionPlan: "free-score",
          },
          {
            address: `${i + 1} Staff Street`,
            city: "Ottawa",
            province: "ON",
            postalCode: "K1S 2B4",
            squareFootage: 1500,
          },
        ),
      );
    const answers = await Promise.all(
      homes.map(({ property }) =>
        agent
          .post("/api/inspection-bookings")
          .send({ propertyId: property.id, scheduledDate: day, timeSlot: "morning" }),
      ),
    );
    expectOneWinner(answers, day);
    expect(await bookingsOn(day)).toBe(1);
  });
});

describe("a burst of demo purchases on the app's pool", () => {
  it("20 card confirmations at once on a process's first purchases: 20 × 200, 20 subscriptions, gapless numbers", async () => {
    await ctx.container.plans.seed();
    // A process of its own: nothing it remembers (the plans' names) was read before the burst.
    const fresh = appOn();
    const intents = [];
    for (let i = 0; i < 20; i++)
      intents.push(
        (await agentOf(fresh.app).post("/api/create-payment-intent").send({ amount: 194, plan: "basic" }).expect(200))
          .body.clientSecret as string,
      );
    const answers = await Promise.all(
      intents.map((clientSecret, i) =>
        agentOf(fresh.app)
          .post("/api/demo/confirm-payment")
          .send({
            clientSecret,
            name: "Burst Payer",
            email: `burst-payer-${i}@example.com`,
            cardNumber: "4242424242424242",
            expiry: "12 / 39",
            cvc: "123",
          }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(intents.map(() => 200));
    const invoices = await ctx
      .db("invoices as i")
      .join("subscriptions as s", "s.id", "i.subscription_id")
      .where("s.payer_email", "like", "burst-payer-%")
      .pluck("i.number");
    expect(invoices).toHaveLength(20);
    const serials = invoices.map((n: string) => Number(n.slice(-6))).sort((a: number, b: number) => a - b);
    expect(serials.at(-1)! - serials[0]!).toBe(19);
  });
});

describe("the limits of the app's connections", () => {
  it("every connection of the pool shows them (SHOW lock_timeout, statement_timeout, idle_in_transaction…)", async () => {
    // Three transactions at once hold three connections of the pool.
    const shown = await Promise.all(
      [1, 2, 3].map(() =>
        db.transaction(async (tx) => {
          const settings = ["lock_timeout", "statement_timeout", "idle_in_transaction_session_timeout"];
          const values = [];
          for (const name of settings) values.push(Object.values((await tx.raw(`show ${name}`)).rows[0])[0]);
          await tx.raw("select pg_sleep(0.05)");
          return values;
        }),
      ),
    );
    expect(ctx.env).toMatchObject({
      LOCK_TIMEOUT_MS: 5000,
      STATEMENT_TIMEOUT_MS: 30_000,
      IDLE_IN_TRANSACTION_TIMEOUT_MS: 60_000,
    });
    expect(shown).toEqual([1, 2, 3].map(() => ["5s", "30s", "1min"]));
  });

  it("a lock not granted in time: a booking is a 409 with the free times, a staff edit a 503 with Retry-After", async () => {
    const short = appOn({ LOCK_TIMEOUT_MS: 300 });
    const day = ctx.container.bookings.calendar().bookingDates.at(-1)!;
    const { agent } = await signInStaff(ctx, agentOf(short.app));
    const { property } = await ctx.container.customers.createWithProperty(
      { email: "held@example.com", name: "Held Lock", phone: "613-555-0142", subscriptionPlan: "free-score" },
      { address: "1 Held Street", city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1500 },
    );
    // Another transaction holds the date's placements and the property's row, and does not end in time.
    const other = await ctx.db.transaction();
    try {
      await other.raw("select pg_advisory_xact_lock(hashtextextended(?, 0))", [`booking-date:${day}`]);
      await other("properties").where({ id: property.id }).forUpdate().first("id");
      const booking = await agent
        .post("/api/inspection-bookings")
        .send({ propertyId: property.id, scheduledDate: day, timeSlot: "morning" });
      expect(booking.status).toBe(409);
      expect(booking.body.message).toBe(SLOT_TAKEN);
      expect(booking.body.availability.days[0].date).toBe(day);
      const edit = await agent.patch(`/api/properties/${property.id}`).send({ city: "Nepean" });
      expect(edit.status).toBe(503);
      expect(edit.headers["retry-after"]).toBe(String(RETRY_AFTER_SECONDS));
      expect(edit.body.message).toBe(BUSY_MESSAGE);
    } finally {
      await other.rollback();
    }
    expect(await bookingsOn(day)).toBe(0);
    expect((await ctx.db("properties").where({ id: property.id }).first()).city).toBe("Ottawa");
  });

  it("a statement past statement_timeout is a 503 with Retry-After, not a 500", async () => {
    const { db: short } = appOn({ STATEMENT_TIMEOUT_MS: 100 });
    const error = await short.raw("select pg_sleep(2)").then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as { code?: string }).code).toBe("57014");
    expect(toHttpError(error)).toMatchObject({ status: 503, message: BUSY_MESSAGE });
  });

  it("a transaction left idle is ended (a 503), and its pool goes on with a new connection", async () => {
    const { db: one } = appOn({ DB_POOL_MAX: 1, IDLE_IN_TRANSACTION_TIMEOUT_MS: 200 });
    const idleInTransaction = async () =>
      (
        await ctx.db.raw(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'idle in transaction'",
        )
      ).rows[0].n;
    const error = await one
      .transaction(async (tx) => {
        await tx.raw("select 1");
        // Idle in the transaction until Postgres has ended its session.
        await expect.poll(idleInTransaction, { timeout: 10_000, interval: 50 }).toBe(0);
        await tx.raw("select 1");
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(toHttpError(error).status).toBe(503);
    expect((await one.raw("select 1 as one")).rows[0].one).toBe(1);
  });

  it("migrations run without them: a migration longer than statement_timeout is applied", async () => {
    const { db: short } = appOn({ STATEMENT_TIMEOUT_MS: 100, LOCK_TIMEOUT_MS: 100 });
    const folder = new FolderMigrationSource();
    const slow = "99991231235959_slow_in_memory.ts";
    const source: Knex.MigrationSource<string> = {
      getMigrations: async () => [...(await folder.getMigrations()), slow],
      getMigrationName: (m) => m,
      getMigration: async (m) =>
        m === slow
          ? { up: (k: Knex) => k.raw("select pg_sleep(0.5)"), down: async () => undefined }
          : folder.getMigration(m),
    };
    expect(await migrateLatest(short, { migrationSource: source })).toEqual([slow]);
  });
});
