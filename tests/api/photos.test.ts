import sharp from "sharp";
import type { Response } from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PHOTO_BYTES } from "../../src/modules/inspections/photos.constants.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = await signInStaff(ctx);
});
afterAll(() => ctx.close());

/** A solid image of the given size; `seed` changes its colour so each fixture has its own bytes. */
const image = (width: number, height: number, seed: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: 90 } } });

const png = (seed: number, width = 300, height = 200) => image(width, height, seed).png().toBuffer();

/**
 * A 4000×3000 landscape JPEG whose EXIF says "rotate 90° clockwise to show" (orientation 6), with a GPS
 * position in its metadata: a phone photo taken upright.
 */
async function rotatedJpegWithLocation(seed: number): Promise<Buffer> {
  return image(4000, 3000, seed)
    .jpeg({ quality: 80 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "HavenCam" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "45/1 25/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "75/1 41/1 0/1" },
    })
    .toBuffer();
}

const rows = () =>
  ctx
    .db("photos")
    .count<{ count: string }[]>("* as count")
    .first()
    .then((r) => Number(r!.count));

describe("POST /api/photos", () => {
  it("takes a PNG as raw bytes: 201 with its URLs, a 320 px WebP thumbnail, both served to staff", async () => {
    const bytes = await png(1, 800, 600);
    const { body } = await staff.agent.post("/api/photos").set("Content-Type", "image/png").send(bytes).expect(201);
    expect(body).toEqual({
      id: expect.any(Number),
      url: `/api/photos/${body.id}`,
      thumbnailUrl: `/api/photos/${body.id}/thumbnail`,
      width: 800,
      height: 600,
    });

    const full = await staff.agent.get(body.url).buffer(true).parse(binary).expect(200);
    expect(full.headers["content-type"]).toBe("image/png");
    expect(full.headers["cache-control"]).toContain("immutable");
    expect(full.headers["cache-control"]).toContain("private");
    expect(await sharp(full.body as Buffer).metadata()).toMatchObject({ format: "png", width: 800, height: 600 });

    const thumb = await staff.agent.get(body.thumbnailUrl).buffer(true).parse(binary).expect(200);
    expect(thumb.headers["content-type"]).toBe("image/webp");
    expect(await sharp(thumb.body as Buffer).metadata()).toMatchObject({ format: "webp", width: 320, height: 240 });
  });

  it("turns a JPEG by its EXIF orientation, caps it at 2048 px and strips its metadata (location included)", async () => {
    const original = await rotatedJpegWithLocation(2);
    const before = await sharp(original).metadata();
    expect([before.width, before.height, before.orientation]).toEqual([4000, 3000, 6]);
    expect(before.exif).toBeDefined();

    const { body } = await staff.agent.post("/api/photos").set("Content-Type", "image/jpeg").send(original).expect(201);
    // Shown upright it is a portrait: 3000×4000 scaled to 1536×2048.
    expect([body.width, body.height]).toEqual([1536, 2048]);
    const stored = await ctx.container.photos.load(body.id);
    expect(stored!.mimeType).toBe("image/jpeg");
    const after = await sharp(stored!.bytes).metadata();
    expect([after.format, after.width, after.height]).toEqual(["jpeg", 1536, 2048]);
    expect(after.orientation).toBeUndefined();
    expect(after.exif).toBeUndefined();
    expect(stored!.bytes.includes(Buffer.from("HavenCam"))).toBe(false);
    const thumb = await ctx.container.photos.loadThumbnail(body.id);
    expect(await sharp(thumb!.bytes).metadata()).toMatchObject({ format: "webp", width: 240, height: 320 });
  });

  it("refuses a PDF renamed .jpg, whatever its Content-Type says, and stores nothing", async () => {
    const before = await rows();
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    const { body } = await staff.agent
      .post("/api/photos")
      .set("Content-Type", "image/jpeg")
      .set("X-Client-Id", "upload-pdf-renamed")
      .send(pdf)
      .expect(400);
    expect(body.message).toBe("Only JPEG, PNG or WebP photos are accepted");
    expect(body.fields).toHaveProperty("photo");
    // A GIF is an image, but not one of the three types.
    const gif = await image(10, 10, 3).gif().toBuffer();
    await staff.agent.post("/api/photos").set("Content-Type", "image/gif").send(gif).expect(400);
    expect(await rows()).toBe(before);
  });

  it("stores the same bytes once, and a retry with the same client id is a no-op", async () => {
    const bytes = await png(4);
    const first = await staff.agent.post("/api/photos").set("Content-Type", "image/png").send(bytes).expect(201);
    const before = await rows();
    const again = await staff.agent.post("/api/photos").set("Content-Type", "image/png").send(bytes).expect(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await rows()).toBe(before);

    // The browser's retry: same client id, even with other bytes (a re-encode), answers the first photo.
    const clientId = "c0ffee00-1111-4222-8333-444455556666";
    const sent = await staff.agent
      .post("/api/photos")
      .set("Content-Type", "image/png")
      .set("X-Client-Id", clientId)
      .send(await png(5))
      .expect(201);
    const retried = await staff.agent
      .post("/api/photos")
      .set("Content-Type", "image/png")
      .set("X-Client-Id", clientId)
      .send(await png(6))
      .expect(201);
    expect(retried.body.id).toBe(sent.body.id);
    expect(await rows()).toBe(before + 1);
    const sha = await ctx
      .db("photos")
      .select("sha256")
      .then((r) => r.map((x) => x.sha256));
    expect(new Set(sha).size).toBe(sha.length);
  });

  it("refuses a file over the size cap with 413", async () => {
    const huge = Buffer.alloc(MAX_PHOTO_BYTES + 1024, 0xff);
    const { body } = await staff.agent.post("/api/photos").set("Content-Type", "image/jpeg").send(huge).expect(413);
    expect(body.message).toBeTruthy();
    // The same through a data URL.
    const { body: json } = await staff.agent
      .post("/api/photos")
      .send({ data: `data:image/jpeg;base64,${huge.toString("base64")}` })
      .expect(413);
    expect(json.message).toContain("at most");
  });

  it("takes the spec's image data string as JSON, and names a bad one", async () => {
    const bytes = await png(7, 64, 48);
    const { body } = await staff.agent
      .post("/api/photos")
      .send({ data: `data:image/png;base64,${bytes.toString("base64")}`, clientId: "data-url-upload-1" })
      .expect(201);
    expect([body.width, body.height]).toEqual([64, 48]);
    const bad = await staff.agent.post("/api/photos").send({ data: "not a data url" }).expect(400);
    expect(bad.body.fields).toHaveProperty("data");
    const missing = await staff.agent.post("/api/photos").send({}).expect(400);
    expect(missing.body.fields).toHaveProperty("data");
    const badClient = await staff.agent
      .post("/api/photos")
      .set("Content-Type", "image/png")
      .set("X-Client-Id", "x")
      .send(bytes)
      .expect(400);
    expect(badClient.body.fields).toHaveProperty("clientId");
    await staff.agent.post("/api/photos").set("Content-Type", "text/plain").send("hello").expect(400);
  });

  it("a damaged image is a 400, never a 500", async () => {
    const bytes = await png(8);
    const { body } = await staff.agent
      .post("/api/photos")
      .set("Content-Type", "image/png")
      .send(bytes.subarray(0, 60))
      .expect(400);
    expect(body.fields).toHaveProperty("photo");
  });
});

describe("staff only", () => {
  it("refuses every photo URL and the upload without a staff session (401), and 404s an unknown photo", async () => {
    const { body } = await staff.agent
      .post("/api/photos")
      .set("Content-Type", "image/png")
      .send(await png(9))
      .expect(201);
    const anon = ctx.agent();
    await anon.get(body.url).expect(401);
    await anon.get(body.thumbnailUrl).expect(401);
    await anon
      .post("/api/photos")
      .set("Content-Type", "image/png")
      .send(await png(10))
      .expect(401);
    await anon.post("/api/photos").send({ data: "data:image/png;base64,AAAA" }).expect(401);
    await staff.agent.get("/api/photos/999999").expect(404);
    await staff.agent.get("/api/photos/999999/thumbnail").expect(404);
    await staff.agent.get("/api/photos/abc").expect(400);
  });
});

/** supertest: keep an image response as a Buffer (in Node the response is the incoming stream). */
function binary(res: Response, done: (err: Error | null, body: Buffer) => void) {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c));
  stream.on("end", () => done(null, Buffer.concat(chunks)));
}
