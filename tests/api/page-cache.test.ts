import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
});
afterAll(() => ctx.close());

describe("cached marketing pages", () => {
  it("serve the same bytes and ETag to every anonymous visitor, gzipped when asked", async () => {
    const first = await ctx.agent().get("/").set("Accept-Encoding", "identity").expect(200);
    const second = await ctx.agent().get("/").set("Accept-Encoding", "identity").expect(200);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.text).toBe(first.text);
    expect(second.headers["content-security-policy"]).toContain("default-src 'self'");

    const gzipped = await ctx
      .agent()
      .get("/")
      .set("Accept-Encoding", "gzip")
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/);
    // supertest may already have inflated it; either way the page is the same.
    const body = gzipped.body as Buffer;
    const html = body[0] === 0x1f ? gunzipSync(body).toString() : body.toString();
    expect(html).toBe(first.text);
  });

  it("answers from the cache as res.send did: HEAD without a body, gzip only where accepted, every header", async () => {
    const page = await ctx.agent().get("/").set("Accept-Encoding", "identity").expect(200);
    const head = await ctx.agent().head("/").set("Accept-Encoding", "gzip").expect(200);
    expect(head.text ?? "").toBe("");
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
    expect(Number(head.headers["content-length"])).toBeLessThan(Buffer.byteLength(page.text));
    expect(head.headers.etag).toBe(page.headers.etag);
    const refused = await ctx.agent().get("/").set("Accept-Encoding", "gzip;q=0, identity").expect(200);
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.text).toBe(page.text);
    expect(Number(refused.headers["content-length"])).toBe(Buffer.byteLength(page.text));
    for (const res of [page, head, refused]) {
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(res.headers["x-request-id"]).toBeTruthy();
    }
  });

  it("answers a matching If-None-Match with 304", async () => {
    const first = await ctx.agent().get("/contact").expect(200);
    await ctx.agent().get("/contact").set("If-None-Match", String(first.headers.etag)).expect(304);
  });

  it("never serves the anonymous page to signed-in staff, nor caches theirs", async () => {
    await ctx.agent().get("/").expect(200);
    const { agent } = await signInStaff(ctx);
    const staffPage = await agent.get("/").expect(200);
    expect(staffPage.text).toContain("Dashboard");
    expect(staffPage.text).toContain("Logout");
    const anonymous = await ctx.agent().get("/").expect(200);
    expect(anonymous.text).not.toContain("Logout");
    expect(anonymous.text).toContain("Get Free Property Score");
  });

  it("keeps pages with live data out of the cache", async () => {
    await ctx.agent().get("/pricing").expect(200);
    await ctx.container.plans.setPrice("basic", { monthly: 151 });
    const after = await ctx.agent().get("/pricing").expect(200);
    expect(after.text).toContain("151");
  });
});
