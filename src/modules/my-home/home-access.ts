// What a signed-in homeowner may see (docs/decisions.md#29). Every portal read and action asks here first.
// - Their own properties: those whose customer's e-mail is theirs, compared case-blind; for those, every report,
//   booking, quote, task and subscription.
// - A report shared to their e-mail for someone else's property: that report alone, never the property's other records,
//   and only while the share lives: revoked or past its `expires_at`, it grants nothing (as the link itself).
import { DEFAULT_LOCALE, type Locale, isLocale } from "../../i18n/index.js";
import type { HomeAccessRepository } from "./home-access.repository.js";

/** What HomeAccess uses; src/container.ts builds them. */
export interface HomeAccessDeps {
  repo: HomeAccessRepository;
  /** When a share's `expires_at` is compared; the system clock unless a test sets it. */
  clock?: () => Date;
}

export class HomeAccess {
  private readonly repo: HomeAccessRepository;
  private readonly clock: () => Date;

  constructor(deps: HomeAccessDeps) {
    this.repo = deps.repo;
    this.clock = deps.clock ?? (() => new Date());
  }

  /** The ids of the homeowner's own properties, oldest first. */
  propertyIds(email: string): Promise<number[]> {
    return this.repo.propertyIds(email);
  }

  ownsProperty(email: string, propertyId: number): Promise<boolean> {
    return this.repo.ownsProperty(email, propertyId);
  }

  /** Reports of other people's properties shared to this e-mail (report ids), while the share lives. */
  sharedReportIds(email: string): Promise<number[]> {
    return this.repo.sharedReportIds(email, this.clock());
  }

  /** Whether the homeowner may read this report: it is of their property, or it was shared to them. */
  canReadReport(email: string, reportId: number): Promise<boolean> {
    return this.repo.canReadReport(email, reportId, this.clock());
  }

  /** The language of the customer with this e-mail: their e-mails follow it (docs/decisions.md#65); English else. */
  async localeOf(email: string): Promise<Locale> {
    const stored = await this.repo.localeOf(email);
    return isLocale(stored) ? stored : DEFAULT_LOCALE;
  }

  /**
   * The homeowner's choice on My Home's Account page: their pages and e-mails follow it (docs/decisions.md#65).
   * False when no customer has this e-mail (a report shared to it only): nothing to keep it on.
   */
  async setLocale(email: string, locale: Locale): Promise<boolean> {
    return (await this.repo.setLocale(email, locale, this.clock())) > 0;
  }

  /** Whether a known customer has this e-mail (sign-in sends nothing otherwise; the answer never says). */
  isKnown(email: string): Promise<boolean> {
    return this.repo.isKnown(email, this.clock());
  }
}
