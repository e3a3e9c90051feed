// The marketing sample behind /client-report/sample (docs/decisions.md#7): fixed, reusable and read-only,
// and shown through the same island and the same client whitelist as a real report.
import { SAMPLE_PROPERTY, SAMPLE_REPORT_ID, sampleReport } from "../../../seeds/sample-report.js";
import type { ClientReportPayload, StoredReport } from "./sharing.schemas.js";

export { SAMPLE_REPORT_ID };

export const SAMPLE_READ_ONLY_MESSAGE = "This is a sample report: it is read-only and records no responses.";

const SAMPLE_DATE = `${SAMPLE_PROPERTY.inspectionDate}T16:00:00.000Z`;

/** The sample as a stored report snapshot (ids 0: it is in no table). */
export function sampleStoredReport(): StoredReport {
  const { overallScore, summary, categories, recommendations } = sampleReport();
  return {
    id: 0,
    propertyId: 0,
    inspectionId: 0,
    createdAt: SAMPLE_DATE,
    overallScore,
    reportData: { overallScore, summary, allCategories: categories, recommendations },
  };
}

/** A link that never expires, was never answered, for the sample's placeholder client. */
export const SAMPLE_SHARE: ClientReportPayload["share"] = {
  clientEmail: "jordan.avery@example.com",
  createdAt: SAMPLE_DATE,
  expiresAt: "9999-12-31T00:00:00.000Z",
  respondedAt: null,
  responses: [],
};

export const SAMPLE_CLIENT_PROPERTY: ClientReportPayload["property"] = {
  id: 0,
  address: SAMPLE_PROPERTY.address,
  city: SAMPLE_PROPERTY.city,
  province: SAMPLE_PROPERTY.province,
  postalCode: "",
  clientName: SAMPLE_PROPERTY.clientName,
};
