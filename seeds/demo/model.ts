// The shapes the plan, the batch steps and the extras share, and the extras' caps.
import type { Container } from "../../src/container.js";
import type { Tx } from "../../src/db/transaction.js";
import type { NewProperty, SubscriptionPlan } from "../../src/modules/customers/customers.constants.js";
import type { EntryInput, InspectionStatus } from "../../src/modules/inspections/inspections.schemas.js";
import type { QuoteStatus } from "../../src/modules/quotes/quotes.constants.js";

// ---------- what a batch plans ----------

export interface PlannedInspection {
  status: InspectionStatus;
  inspectionDate: string;
  createdAt: Date;
  completedAt: Date | null;
  notes: string | null;
  entries: EntryInput[];
}

export interface PlannedVisit {
  scheduledDate: string;
  timeSlot: string;
  source: "wizard" | "booking-page" | "onboarding";
  accessMethod: string | null;
  accessCode: string | null;
  accessInstructions: string | null;
  specialRequests: string | null;
  bookingStatus: "scheduled" | "completed";
  bookingCreatedAt: Date;
  inspection: PlannedInspection | null;
}

export interface PlannedProperty {
  /** The property's index across all demo runs: its PRNG seed and its unique payment id. */
  index: number;
  createdAt: Date;
  customer: { name: string; email: string; phone: string; subscriptionPlan: SubscriptionPlan };
  property: NewProperty;
  visits: PlannedVisit[];
}

/** One batch: what it planned, then the ids each step wrote (filled in as the steps run). */
export interface DemoBatch {
  tx: Tx;
  planned: PlannedProperty[];
  customerIds: number[];
  propertyIds: number[];
  /** Per property, per visit: the booking id. */
  bookingIds: number[][];
  /** Every inspection written in this batch. */
  inspections: { id: number; propertyId: number; status: InspectionStatus; bookingId: number | null }[];
  payments: number;
  /** The subscriptions written in this batch, by their demo state. */
  subscriptions: Record<DemoSubscriptionKind, number>;
  invoices: number;
}

export interface DemoRun {
  container: Container;
  now: Date;
  seed: number;
  /** Active staff users, the inspectors of the demo inspections (none: inspectorId stays null). */
  inspectorIds: number[];
}

/** A step of the demo seed: runs once per batch, inside the batch's transaction. */
export interface DemoStep {
  name: string;
  run(batch: DemoBatch, run: DemoRun): Promise<void>;
}

/** The demo state of a paid home's subscription (see demoSubscriptionKind). */
export type DemoSubscriptionKind = "active" | "past_due" | "cancel_scheduled" | "canceled";

export const noSubscriptions = (): Record<DemoSubscriptionKind, number> => ({
  active: 0,
  past_due: 0,
  cancel_scheduled: 0,
  canceled: 0,
});

// ---------- what the batches leave for the extras ----------

/** The most each run adds, however many homes it seeds. */
export const DEMO_EXTRAS_CAP = { reports: 300, shares: 40, schedules: 150, recurringRecommendations: 20 } as const;

/** What the batches leave for the extras: this run's homes and completed inspections, by property index. */
export interface SeededHome {
  index: number;
  propertyId: number;
  clientEmail: string;
  propertyType: NewProperty["propertyType"];
  completedInspectionIds: number[];
}

/** A report the extras generated, with the ids of its recommendation tasks. */
export interface DemoReport {
  home: SeededHome;
  reportId: number;
  taskIds: number[];
}

export interface DemoExtrasResult {
  reports: number;
  recommendationTasks: number;
  shares: number;
  quoteRequests: Record<QuoteStatus, number>;
  schedules: number;
  scheduledTasks: number;
}

export const emptyExtras = (): DemoExtrasResult => ({
  reports: 0,
  recommendationTasks: 0,
  shares: 0,
  quoteRequests: { pending: 0, quoted: 0, accepted: 0, declined: 0, completed: 0 },
  schedules: 0,
  scheduledTasks: 0,
});
