import { monthSpan, todayIn } from "../../shared/business-time.js";
import type { DashboardRepository } from "./dashboard.repository.js";
import {
  type BookedNotStarted,
  type DashboardStats,
  RECENT_INSPECTIONS,
  type RecentInspection,
} from "./dashboard.schemas.js";

export interface DashboardSettings {
  timeZone: string;
  /** How long the sidebar's quick stats may be reused by this process. */
  quickStatsTtlMs?: number;
}

/** The calendar month holding `now` in the zone, as the instants [from, to) it spans (DST-aware). */
export function monthWindow(timeZone: string, now: Date = new Date()): { from: Date; to: Date; month: string } {
  const month = todayIn(timeZone, now).slice(0, 7);
  return { ...monthSpan(month, timeZone), month };
}

/**
 * Who reads the figures (docs/decisions.md#36): an inspector their own (`inspectorId`), and revenue only a role
 * that may see it (`revenue`, from src/http/roles.ts's rule; an inspector never does).
 */
export interface StatsReader {
  inspectorId?: number;
  revenue?: boolean;
}

/** The office at a glance: the four stat cards, the latest inspections and the sidebar's quick stats. */
export class DashboardService {
  private quick: { at: number; value: DashboardStats } | null = null;
  private refreshing: Promise<DashboardStats> | null = null;

  constructor(
    private readonly dashboard: DashboardRepository,
    private readonly settings: DashboardSettings,
  ) {}

  /** The business's figures, or an inspector's own; Total Revenue is null unless the reader may see it. */
  async stats(now: Date = new Date(), reader: StatsReader = { revenue: true }): Promise<DashboardStats> {
    const { inspectorId, revenue = false } = reader;
    const row = await this.dashboard.stats(monthWindow(this.settings.timeZone, now), inspectorId, revenue);
    return {
      totalProperties: row.totalProperties,
      pendingInspections: row.pendingInspections,
      completedThisMonth: row.completedThisMonth,
      totalRevenue: row.revenueCents === null ? null : row.revenueCents / 100,
    };
  }

  /** The bookings Pending Inspections counts beside the open inspections (docs/decisions.md#55). */
  bookedNotStarted(inspectorId?: number): Promise<BookedNotStarted[]> {
    return this.dashboard.bookedNotStarted(inspectorId);
  }

  recentInspections(limit = RECENT_INSPECTIONS, inspectorId?: number): Promise<RecentInspection[]> {
    return this.dashboard.recentInspections(limit, inspectorId);
  }

  /**
   * The same figures for the sidebar of every admin page, reused for a few seconds so that a busy office
   * does not run the counts on every click. Once counted, a page never waits for them again: when they are
   * older than that, the last ones are shown while fresh ones are counted in the background.
   */
  quickStats(inspectorId?: number): Promise<DashboardStats> {
    // An inspector's own figures are few small counts, read each time (the cache holds the office's). The
    // sidebar shows no revenue, so none is counted or held for it.
    if (inspectorId !== undefined) return this.stats(new Date(), { inspectorId });
    const ttl = this.settings.quickStatsTtlMs ?? 5000;
    const last = this.quick;
    if (last && Date.now() - last.at < ttl) return Promise.resolve(last.value);
    this.refreshing ??= this.stats(new Date(), {})
      .then((value) => {
        this.quick = { at: Date.now(), value };
        return value;
      })
      .finally(() => {
        this.refreshing = null;
      });
    if (!last) return this.refreshing;
    // A failed background count keeps the last figures; the next page tries again.
    this.refreshing.catch(() => undefined);
    return Promise.resolve(last.value);
  }
}
