import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITEMAP_PATHS } from "../../src/modules/pages/pages.routes.js";
import { sampleReport } from "../../seeds/sample-report.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
const CONTACT = {
  CONTACT_PHONE: "(555) 010-7788",
  CONTACT_EMAIL: "hello@pages.test",
  SUPPORT_EMAIL: "help@pages.test",
};

beforeAll(async () => {
  ctx = await createTestContext({ ...CONTACT, PUBLIC_URL: "https://haven.example" });
  await ctx.container.plans.seed();
});
afterAll(() => ctx.close());

const get = async (path: string) => {
  const res = await ctx.agent().get(path);
  expect(res.status, path).toBe(200);
  return res.text;
};

// Footer per the route map's "(footer shown)"; nav per the hidden list of §2.1.
const PAGES = [
  { path: "/", footer: true, nav: true },
  { path: "/pricing", footer: true, nav: true },
  { path: "/haven-health-report", footer: true, nav: true },
  { path: "/health-report-explainer", footer: true, nav: true },
  { path: "/sample-report", footer: true, nav: true },
  { path: "/contact", footer: true, nav: true },
  { path: "/maintenance-hub", footer: true, nav: true },
  { path: "/free-report", footer: false, nav: false },
  { path: "/report-expired", footer: false, nav: true },
];

describe("marketing pages", () => {
  for (const page of PAGES) {
    it(`${page.path} has its own title and description, Open Graph tags, a favicon, and no React`, async () => {
      const html = await get(page.path);
      expect(html).toMatch(/<title>[^<]*Haven[^<]*<\/title>/);
      expect(html).toMatch(/<meta name="description" content="[^"]{40,}">/);
      expect(html).toContain('<meta property="og:title"');
      // Absolute, from PUBLIC_URL, never from the request's Host header.
      expect(html).toContain('<meta property="og:image" content="https://haven.example/og-image.png">');
      expect(html).toContain(`<meta property="og:url" content="https://haven.example${page.path}">`);
      expect(html).toContain('<link rel="icon" href="/favicon.svg"');
      expect(html).not.toMatch(/data-island=|assets\/main-/);
      expect(html.includes('class="site-footer"'), `${page.path} footer`).toBe(page.footer);
      expect(html.includes("data-site-nav"), `${page.path} nav`).toBe(page.nav);
    });
  }

  it("marketing pages load the site's script; staff pages load the staff shell's script and not the site's", async () => {
    const { siteJs, adminJs } = ctx.container.assets();
    const marketing = await get("/");
    expect(marketing).toContain(`src="${siteJs}"`);
    expect(marketing).not.toContain(`src="${adminJs}"`);
    const { agent } = await signInStaff(ctx);
    const staff = await agent.get("/admin").expect(200);
    expect(staff.text).toContain(`src="${adminJs}"`);
    expect(staff.text).not.toContain(`src="${siteJs}"`);
  });

  it("titles and descriptions differ from page to page", async () => {
    const titles = new Set<string>();
    for (const { path } of PAGES) titles.add((await get(path)).match(/<title>([^<]*)<\/title>/)![1]!);
    expect(titles.size).toBe(PAGES.length);
  });

  it("the pricing cards come from the plans table, with checkout forms", async () => {
    await ctx.container.plans.setPrice("standard", { monthly: 377 });
    const html = await get("/pricing");
    expect(html).toContain("$149");
    expect(html).toContain("$377");
    expect(html).not.toContain("$370");
    expect(html).toContain("$799");
    for (const coverage of [40, 60, 100]) expect(html).toContain(`${coverage}% coverage`);
    // The figure is said in words where it is shown (docs/decisions.md#66).
    expect(html).toMatch(
      /Coverage is the share of your home(&#39;|')s year-round care that the plan handles for you: 40% is/,
    );
    expect(html).toContain('aria-describedby="coverage-meaning"');
    expect(html.match(/Most Popular/g)).toHaveLength(1);
    for (const type of ["basic", "standard", "premium"]) {
      expect(html).toContain(
        `<form method="post" action="/checkout/start" data-checkout-form class="mt-6"><input type="hidden" name="planType" value="${type}">`,
      );
    }
    await ctx.container.plans.setPrice("standard", { monthly: 370 });
  });

  it("contact and support details come from configuration", async () => {
    const contact = await get("/contact");
    expect(contact).toContain(`href="tel:5550107788"`);
    expect(contact).toContain(CONTACT.CONTACT_PHONE);
    expect(contact).toContain(`href="mailto:${CONTACT.CONTACT_EMAIL}"`);
    expect(contact).toContain("Monday to Friday 8 AM to 6 PM");
    expect(contact).toContain("within 24 hours");
    const expired = await get("/report-expired");
    expect(expired).toContain(`href="mailto:${CONTACT.SUPPORT_EMAIL}?subject=`);
    expect(expired).toContain('<a class="btn btn-gold btn-lg" href="/pricing">Subscribe to the product</a>');
    // a line for people who already subscribe, with the office's phone and e-mail.
    expect(expired).toMatch(
      /data-testid="subscriber-help">\s*<strong>Already a Haven subscriber\?<\/strong> Your reports wait for you in/,
    );
    expect(expired).toContain(`href="tel:${CONTACT.CONTACT_PHONE.replace(/[^\d+]/g, "")}"`);
    expect(expired).toContain(
      'Your reports wait for you in <a class="link font-semibold" href="/my-home/sign-in">My Home</a>',
    );
    expect(expired).toContain('<meta name="robots" content="noindex">');
  });

  it("the sample report page shows the seeded sample's scores and client labels", async () => {
    const report = sampleReport();
    const html = await get("/sample-report");
    expect(html).toContain(`data-value="${report.overallScore}"`);
    expect(html).toContain(report.label);
    for (const rec of report.recommendations) expect(html).toContain(rec.notes);
  });

  it("only the exact sample id is the sample client report; other non-token paths are 404s", async () => {
    await ctx.agent().get("/client-report/sample").expect(200);
    await ctx.agent().get("/client-report/sample-2").expect(404);
    await ctx.agent().get("/client-report/SAMPLE").expect(404);
  });

  it("robots.txt and sitemap.xml point at the public pages", async () => {
    const robots = await get("/robots.txt");
    expect(robots).toContain("User-agent: *");
    expect(robots).toContain("Disallow: /admin");
    expect(robots).toContain("Sitemap: https://haven.example/sitemap.xml");
    const res = await ctx.agent().get("/sitemap.xml").expect(200);
    expect(res.headers["content-type"]).toMatch(/application\/xml/);
    const locs = [...res.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    // Both languages, each page beside its French twin (docs/decisions.md#65).
    expect(locs).toEqual(
      SITEMAP_PATHS.flatMap((p) => [`https://haven.example${p}`, `https://haven.example/fr${p === "/" ? "" : p}`]),
    );
    expect(res.text).toContain(
      '<xhtml:link rel="alternate" hreflang="fr-CA" href="https://haven.example/fr/pricing"/><xhtml:link rel="alternate" hreflang="x-default" href="https://haven.example/pricing"/>',
    );
  });

  it("serves the favicon, logo and Open Graph image", async () => {
    await ctx.agent().get("/favicon.svg").expect(200);
    const og = await ctx.agent().get("/og-image.png").expect(200);
    expect(og.headers["content-type"]).toBe("image/png");
  });
});
