import { z } from "zod";
import { apiCalls, binary, dateString, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import type { PropertyHistory } from "./history.js";
import type { ReportCategory, ReportData, ReportRecommendation, SubcategoryEntry } from "./report-data.js";
import type { Report } from "./reports.repository.js";
import { idParams, pdfQuery, propertyIdParams, reportListQuery } from "./reports.schemas.js";

// OpenAPI entries of reports.routes.ts; see docs/api.md.

const score100 = z.number().nullable().meta({ description: "0–100; null when nothing was scored" });
const priority = z.enum(["high", "medium", "low"]);

const subcategoryEntry: z.ZodType<SubcategoryEntry> = z.object({
  subcategoryName: z.string(),
  score: z.number().nullable().meta({ description: "10, 7, 4 or 1; null is N/A" }),
  scoreOutOf100: score100,
  notes: z.string(),
  photos: z.array(z.string()),
  photoIds: z.array(idNumber),
  inspectedAt: dateTimeString,
  isNA: z.boolean(),
  urgent: z.boolean(),
});

const reportCategory: z.ZodType<ReportCategory> = z
  .object({
    categoryName: z.string(),
    score: score100,
    band: z.string().nullable(),
    colour: z.enum(["green", "yellow", "red"]).nullable(),
    weight: z.number(),
    notes: z.string(),
    subcategoryCount: z.number().int(),
    subcategories: z.array(subcategoryEntry),
    averageScore: score100,
  })
  .meta({ id: "ReportCategory" });

const recommendation: z.ZodType<ReportRecommendation> = z
  .object({
    id: idNumber.meta({ description: "The maintenance task's id (a client response's maintenanceTaskId)" }),
    category: z.string(),
    subcategory: z.string(),
    notes: z.string(),
    description: z.string(),
    score: score100,
    priority,
    priorityLabel: z.string(),
    urgency: z.enum(["Urgent", "30 Days", "60 Days"]),
    urgent: z.boolean(),
    photos: z.array(z.string()),
    photoIds: z.array(idNumber),
    subcategories: z.array(z.string()),
  })
  .meta({ id: "ReportRecommendation" });

const count = z.number().int().min(0);
const reportData: z.ZodType<ReportData> = z
  .object({
    overallScore: score100,
    label: z.string().nullable(),
    historyLabel: z.string().nullable(),
    inspection: z.object({
      id: idNumber,
      overallScore: score100,
      inspectionDate: dateString,
      completedAt: dateTimeString.nullable(),
      status: z.string(),
      notes: z.string().nullable(),
    }),
    summary: z.object({
      highPriority: count,
      mediumPriority: count,
      lowPriority: count,
      totalIssues: count,
      overallScore: score100,
      itemCounts: z.object({ Excellent: count, Marginal: count, Defective: count, Critical: count }),
    }),
    metadata: z.object({
      reportId: idNumber,
      totalCategoriesInspected: count,
      totalItemsInspected: count,
      generatedAt: dateTimeString,
    }),
    property: z.object({
      id: idNumber,
      address: z.string(),
      city: z.string().nullable(),
      province: z.string().nullable(),
      postalCode: z.string().nullable(),
      clientName: z.string().nullable(),
      clientEmail: z.string().nullable(),
      createdAt: dateTimeString,
      inspector: z.string().nullable(),
      reportGeneratedAt: dateTimeString,
    }),
    recommendations: z.array(recommendation),
    issues: z.array(recommendation).meta({ description: "Same as recommendations (the spec's other name)" }),
    allCategories: z.array(reportCategory),
    categories: z.array(reportCategory).meta({ description: "Same as allCategories (the spec's other name)" }),
  })
  .meta({ id: "ReportData", description: "The frozen snapshot of the scored inspection (staff-side §3)" });

const report: z.ZodType<Report> = z
  .object({
    id: idNumber,
    propertyId: idNumber,
    inspectionId: idNumber,
    createdAt: dateTimeString,
    overallScore: score100,
    reportData,
  })
  .meta({ id: "Report" });

const nullableNumber = z.number().nullable();
/** history.ts names the older and newer scores `previous` and `latest`. */
const previousAndLatest = {
  previous: nullableNumber,
  latest: nullableNumber,
};
const propertyHistory: z.ZodType<PropertyHistory> = z
  .object({
    property: z.object({
      id: idNumber,
      address: z.string(),
      city: z.string().nullable(),
      province: z.string().nullable(),
      postalCode: z.string().nullable(),
      clientName: z.string().nullable(),
      clientEmail: z.string().nullable(),
    }),
    inspections: z.array(
      z.object({
        id: idNumber,
        inspectionDate: dateString,
        status: z.string(),
        overallScore: nullableNumber,
        completedAt: dateTimeString.nullable(),
        reportId: idNumber.nullable(),
        label: z.string().nullable(),
      }),
    ),
    currentScore: nullableNumber,
    currentLabel: z.string().nullable(),
    averageScore: nullableNumber,
    averageLabel: z.string().nullable(),
    trend: nullableNumber,
    points: z.array(z.object({ date: dateString, score: z.number() })),
    changes: z
      .object({
        previousDate: dateString,
        latestDate: dateString,
        categories: z.array(z.object({ categoryName: z.string(), ...previousAndLatest, change: nullableNumber })),
        items: z.array(
          z.object({ categoryName: z.string(), subcategoryName: z.string(), ...previousAndLatest, notes: z.string() }),
        ),
      })
      .nullable(),
  })
  .meta({ id: "PropertyHistory" });

export const reportsCalls = apiCalls([
  {
    method: "post",
    path: "/api/inspections/{id}/generate-report",
    summary: "Generate the report of a completed inspection",
    description:
      "Freezes the scored inspection into reportData; each recommendation becomes a pending maintenance task. 409 unless completed, or when it already has a report.",
    tags: ["Reports"],
    access: "staff",
    params: idParams,
    responses: { 201: { description: "Generated", schema: report } },
    errors: [404, 409],
  },
  {
    method: "get",
    path: "/api/reports",
    summary: "Reports with their snapshots, newest first",
    tags: ["Reports"],
    access: "staff",
    query: reportListQuery,
    list: true,
    csv: true,
    responses: { 200: z.array(report) },
  },
  {
    method: "get",
    path: "/api/reports/{id}",
    summary: "One report with its snapshot",
    tags: ["Reports"],
    access: "staff",
    params: idParams,
    responses: { 200: report },
    errors: [404],
  },
  {
    method: "delete",
    path: "/api/reports/{id}",
    summary: "Delete a report",
    tags: ["Reports"],
    access: "staff",
    params: idParams,
    responses: { 204: { description: "Deleted" } },
    errors: [404],
  },
  {
    method: "get",
    path: "/api/reports/{id}/pdf",
    summary: "The report as a PDF: full, or a one-to-two-page summary",
    tags: ["Reports"],
    access: "staff",
    params: idParams,
    query: pdfQuery,
    responses: { 200: { description: "The PDF (an attachment)", contentType: "application/pdf", schema: binary } },
    errors: [404],
  },
  {
    method: "get",
    path: "/api/property-history/{propertyId}",
    summary: "A property's inspection history: scores over time and what changed",
    tags: ["Reports"],
    access: "staff",
    params: propertyIdParams,
    responses: { 200: propertyHistory },
    errors: [404],
  },
]);
