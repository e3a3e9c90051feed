// The client report island under the pseudo locale (docs/decisions.md#64, #78): rendered from the answer the server
// gives in that language (the marketing sample's snapshot, through the same whitelist as a link and My Home), every
// word it shows comes from the catalogue or from the server's words, the inspection points' names included; only the
// data is left: the inspector's notes, the address, the client's name and the brand.
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { islandMessages } from "../../src/i18n/catalogue";
import { PSEUDO_LOCALE } from "../../src/i18n/locales";
import { clientReportData } from "../../src/modules/sharing/client-report-data";
import { SAMPLE_CLIENT_PROPERTY, SAMPLE_SHARE, sampleStoredReport } from "../../src/modules/sharing/sample";
import type { ClientReportPayload } from "../../src/modules/sharing/sharing.schemas";
import { expectAllTranslated } from "../../tests/support/pseudo-html";
import { setData } from "../ui/data";
import ClientReport from "./ClientReport.island";

const stored = sampleStoredReport();
const i18n = islandMessages(PSEUDO_LOCALE, "report", "scoring");
const report = (base: string): ClientReportPayload["report"] => ({
  id: 1,
  createdAt: stored.createdAt,
  overallScore: stored.overallScore,
  reportData: clientReportData(stored, base, PSEUDO_LOCALE),
});
const recommendations = report("/photos").reportData.recommendations;
/** What the report quotes: the inspector's notes, the home's address and client, the brand. */
const DATA = [
  ...recommendations.map((r) => r.notes).filter(Boolean),
  SAMPLE_CLIENT_PROPERTY.address,
  SAMPLE_CLIENT_PROPERTY.city,
  SAMPLE_CLIENT_PROPERTY.province ?? "",
  SAMPLE_CLIENT_PROPERTY.clientName,
  "Haven",
].filter(Boolean);

beforeAll(() => {
  // The score card asks for the reader's motion preference as it first renders.
  Object.assign(globalThis, { matchMedia: () => ({ matches: true }) });
});

const html = (node: React.ReactNode) => `<body>${renderToStaticMarkup(node)}</body>`;

describe("the client report island in the pseudo locale", () => {
  it("the sample has points to show, each named in the page's language by the server", () => {
    expect(recommendations.length).toBeGreaterThan(2);
    for (const r of recommendations) expect(r.said?.subcategory, r.subcategory).toMatch(/^⟦.*⟧$/);
  });

  it("a one-time link's page shows no word outside the catalogue but its data", () => {
    setData(`/api/client-report/${"sample"}`, {
      report: report("/api/client-report/sample/photos"),
      share: SAMPLE_SHARE,
      property: SAMPLE_CLIENT_PROPERTY,
    } satisfies ClientReportPayload);
    const page = html(<ClientReport token="sample" sample i18n={i18n} />);
    expect(page).toContain("data-recommendation=");
    expectAllTranslated(page, "/client-report/sample", DATA);
  });

  it("My Home's report page (the same island, with each item's state) shows none either", () => {
    setData("/api/my-home/reports/7", {
      report: report("/api/my-home/reports/7/photos"),
      property: SAMPLE_CLIENT_PROPERTY,
      shared: false,
      items: Object.fromEntries(recommendations.map((r) => [String(r.id), { status: "pending", quote: null }])),
      pdf: { full: "/full.pdf", summary: "/summary.pdf" },
    });
    const page = html(<ClientReport reportId={7} i18n={i18n} />);
    expect(page).toContain("data-ask-quote=");
    expectAllTranslated(page, "/my-home/reports/7", DATA);
  });
});
