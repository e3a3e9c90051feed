// photo decoding is bounded. A small file that unpacks to a huge image is refused from its
// header, and a burst of uploads decodes a few at a time.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CONCURRENT_DECODES, MAX_PHOTO_MEGAPIXELS } from "../../src/modules/inspections/photos.constants.js";
import { concurrencyLimit, megapixels } from "../../src/modules/inspections/photos.service.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
/** 16000×16000 pixels of one colour: about 0.75 MB as a PNG, 256 megapixels once decoded. */
let bomb: Buffer;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = await signInStaff(ctx);
  bomb = await sharp({
    create: { width: 16000, height: 16000, channels: 3, background: { r: 10, g: 20, b: 30 } },
    limitInputPixels: false,
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
});
afterAll(() => ctx.close());

const TOO_LARGE = "Photo is too large: 256 megapixels; the limit is 50";
const count = async (table: string) => Number((await ctx.db(table).count({ n: "*" }).first())!.n);
const stored = async () => ({
  photos: await count("photos"),
  uploads: await count("photo_uploads"),
  entries: await count("inspection_entries"),
});
const solid = (width: number, height: number, seed: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: seed % 256, g: (seed * 13) % 256, b: 60 } } });

describe("the pixel limit", () => {
  it("refuses a 256-megapixel PNG of under 1 MB with a 400 naming the field and the limit, and stores nothing", async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = await stored();

    const raw = await staff.agent
      .post("/api/photos")
      .set("Content-Type", "image/png")
      .set("X-Client-Id", "bomb-upload-1")
      .send(bomb)
      .expect(400);
    expect(raw.body).toEqual({ message: TOO_LARGE, fields: { photo: TOO_LARGE } });

    const dataUrl = `data:image/png;base64,${bomb.toString("base64")}`;
    const json = await staff.agent.post("/api/photos").send({ data: dataUrl, clientId: "bomb-upload-2" }).expect(400);
    expect(json.body).toEqual({ message: TOO_LARGE, fields: { data: TOO_LARGE } });

    expect(await stored()).toEqual(before);
  });

  it("refuses it inside an inspection entry too, naming the entry's photo, and saves none of the entries", async () => {
    const { property } = await ctx.container.customers.createWithProperty(
      { email: "limits@example.ca", name: "Pat Owner", phone: "613-555-0100", subscriptionPlan: "standard" },
      { address: "9 Bank Street", city: "Ottawa", province: "ON", postalCode: "K1P 5N2" },
    );
    const { body: inspection } = await staff.agent
      .post("/api/inspections")
      .send({ propertyId: property.id, status: "in_progress", inspectionDate: "2026-03-10" })
      .expect(201);
    const before = await stored();
    const entry = {
      inspectionId: inspection.id,
      categoryName: "Attic",
      subcategoryName: "Access",
      score: 7,
      notes: null,
      urgent: false,
      photos: [`data:image/png;base64,${bomb.toString("base64")}`],
    };
    const res = await staff.agent.post("/api/inspection-categories").send([entry]).expect(400);
    expect(res.body.fields).toEqual({ "0.photos.0": TOO_LARGE });
    expect(await stored()).toEqual(before);
  });

  it("takes a 50-megapixel phone photo (8160×6144) and refuses one that rounds to 51", async () => {
    expect(megapixels(8160, 6144)).toBe(MAX_PHOTO_MEGAPIXELS);
    const phone = await solid(8160, 6144, 1).jpeg({ quality: 80 }).toBuffer();
    const { body } = await staff.agent.post("/api/photos").set("Content-Type", "image/jpeg").send(phone).expect(201);
    expect([body.width, body.height]).toEqual([2048, 1542]);

    const before = await stored();
    const over = await solid(8200, 6200, 2).jpeg({ quality: 80 }).toBuffer();
    const res = await staff.agent.post("/api/photos").set("Content-Type", "image/jpeg").send(over).expect(400);
    expect(res.body.message).toBe("Photo is too large: 51 megapixels; the limit is 50");
    expect(await stored()).toEqual(before);
  });
});

describe("the decode queue", () => {
  it("lets every one of a burst of concurrent uploads through, each stored once", async () => {
    const photos = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        solid(1600, 1200, 100 + i)
          .jpeg()
          .toBuffer(),
      ),
    );
    const before = await count("photos");
    const responses = await Promise.all(
      photos.map((bytes, i) =>
        staff.agent
          .post("/api/photos")
          .set("Content-Type", "image/jpeg")
          .set("X-Client-Id", `burst-upload-${i}`)
          .send(bytes),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(photos.map(() => 201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(8);
    expect(await count("photos")).toBe(before + 8);
  });

  it("runs at most its limit at once; the rest wait in order and each gets its own answer, failures included", async () => {
    const limit = concurrencyLimit(MAX_CONCURRENT_DECODES);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const release: (() => void)[] = [];
    const tasks = Array.from({ length: 6 }, (_, i) =>
      limit(async () => {
        started.push(i);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running--;
        if (i === 1) throw new Error("task 1 failed");
        return i;
      }),
    );
    // Finish the running tasks one by one; each finish lets exactly one waiting task start.
    for (let done = 0; done < 6; done++) {
      await until(() => release.length > done);
      expect(running).toBeLessThanOrEqual(MAX_CONCURRENT_DECODES);
      release[done]!();
    }
    const results = await Promise.allSettled(tasks);
    expect(most).toBe(MAX_CONCURRENT_DECODES);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([
      0,
      "task 1 failed",
      2,
      3,
      4,
      5,
    ]);
  });
});

/** Lets queued promise callbacks run until the condition holds (no timers: the queue moves on microtasks). */
async function until(condition: () => boolean) {
  for (let i = 0; i < 1000 && !condition(); i++) await Promise.resolve();
  expect(condition()).toBe(true);
}
