// Shapes of the dashboard (staff-side §2 and §3). Zod-free: islands and views may import it.

/** `GET /api/dashboard/stats`. */
export interface DashboardStats {
  totalProperties: number;
  /** Scheduled bookings no inspection has taken up yet, plus inspections not completed. */
  pendingInspections: number;
  /** Inspections completed this calendar month in BUSINESS_TZ. */
  completedThisMonth: number;
  /** The sum of succeeded payments, in dollars; null for a role that sees no revenue (docs/decisions.md#36). */
  totalRevenue: number | null;
}

/** One of the dashboard's latest inspections. */
export interface RecentInspection {
  id: number;
  propertyId: number;
  inspectionDate: string;
  status: string;
  overallScore: number | null;
  createdAt: string;
  address: string;
  city: string;
  clientName: string;
}

/**
 * A scheduled booking no inspection has taken up yet: part of Pending Inspections, and listed with the open
 * inspections where that card leads (docs/decisions.md#55).
 */
export interface BookedNotStarted {
  bookingId: number;
  propertyId: number;
  scheduledDate: string;
  timeSlot: string;
  address: string;
  city: string;
  clientName: string;
  inspectorName: string | null;
}

/** The dashboard shows the 3 latest inspections (staff-side §9). */
export const RECENT_INSPECTIONS = 3;

/** Badge colour of an inspection status on the dashboard: completed green, scheduled blue, anything else orange. */
export function statusBadge(status: string): "green" | "blue" | "orange" {
  if (status === "completed") return "green";
  if (status === "scheduled") return "blue";
  return "orange";
}

/** 'in_progress' → 'In Progress'. */
export const statusLabel = (status: string) => status.replace(/[_-]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
