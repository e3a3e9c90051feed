import { z } from "zod";
import { apiCalls } from "../../http/openapi.kit.js";
import type { DashboardStats } from "./dashboard.schemas.js";

// OpenAPI entries of dashboard.routes.ts; see docs/api.md.

const count = z.number().int().min(0);
const dashboardStats: z.ZodType<DashboardStats> = z
  .object({
    totalProperties: count,
    pendingInspections: count.meta({
      description: "Scheduled bookings no inspection has taken up yet, plus inspections not completed",
    }),
    completedThisMonth: count.meta({ description: "Inspections completed this calendar month in BUSINESS_TZ" }),
    totalRevenue: z.number().nullable().meta({
      description:
        "Paid invoices before tax and net of refunds, plus one-time payments, in dollars; null for a role that sees no revenue figures (office; docs/decisions.md#36)",
    }),
  })
  .meta({ id: "DashboardStats" });

export const dashboardCalls = apiCalls([
  {
    method: "get",
    path: "/api/dashboard/stats",
    summary: "The dashboard's four stat cards (Total Revenue for the owner only)",
    tags: ["Dashboard"],
    access: "staff",
    responses: { 200: dashboardStats },
  },
]);
