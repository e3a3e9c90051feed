// What a signed-in homeowner may see: the queries (home-access.ts says the rules, docs/decisions.md#29).
import type { Knex } from "knex";

/** The SQL of HomeAccess (home-access.ts): the e-mail compared case-blind, shares live at `now`. */
export class HomeAccessRepository {
  constructor(private readonly db: Knex) {}

  /** Shares that still grant something: not revoked (staff sent it to the wrong address, say) and not expired. */
  private live<T extends Knex.QueryBuilder>(q: T, alias: string, now: Date): T {
    return q.where(`${alias}.revoked`, false).where(`${alias}.expires_at`, ">", now) as T;
  }

  /** The ids of the homeowner's own properties, oldest first. */
  async propertyIds(email: string): Promise<number[]> {
    const rows = await this.db("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .whereRaw("lower(c.email) = lower(?)", [email])
      .orderBy("p.id")
      .select("p.id");
    return rows.map((r) => r.id as number);
  }

  async ownsProperty(email: string, propertyId: number): Promise<boolean> {
    const row = await this.db("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .where("p.id", propertyId)
      .whereRaw("lower(c.email) = lower(?)", [email])
      .first("p.id");
    return Boolean(row);
  }

  /** Reports of other people's properties shared to this e-mail (report ids). */
  async sharedReportIds(email: string, now: Date): Promise<number[]> {
    const own = this.db("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .whereRaw("lower(c.email) = lower(?)", [email])
      .select("p.id");
    const rows = await this.live(this.db("report_shares as s"), "s", now)
      .join("reports as r", "r.id", "s.report_id")
      .whereRaw("lower(s.client_email) = lower(?)", [email])
      .whereNotIn("r.property_id", own)
      .distinct("r.id")
      .orderBy("r.id");
    return rows.map((r) => r.id as number);
  }

  /** Whether the homeowner may read this report: it is of their property, or it was shared to them. */
  async canReadReport(email: string, reportId: number, now: Date): Promise<boolean> {
    const row = await this.db("reports as r")
      .where("r.id", reportId)
      .where((q) =>
        q
          .whereExists(
            this.db("properties as p")
              .join("customers as c", "c.id", "p.customer_id")
              .whereRaw("p.id = r.property_id")
              .whereRaw("lower(c.email) = lower(?)", [email]),
          )
          .orWhereExists(
            this.live(this.db("report_shares as s"), "s", now)
              .whereRaw("s.report_id = r.id")
              .whereRaw("lower(s.client_email) = lower(?)", [email]),
          ),
      )
      .first("r.id");
    return Boolean(row);
  }

  /** The language of the customer with this e-mail (customers.locale), or null when none is a customer. */
  async localeOf(email: string): Promise<string | null> {
    const row = await this.db("customers").whereRaw("lower(email) = lower(?)", [email]).orderBy("id").first("locale");
    return (row?.locale as string | undefined) ?? null;
  }

  /** Sets the language of every customer record with this e-mail (one homeowner may have several); how many. */
  async setLocale(email: string, locale: string, now: Date): Promise<number> {
    return this.db("customers").whereRaw("lower(email) = lower(?)", [email]).update({ locale, updated_at: now });
  }

  /** Whether a known customer has this e-mail (sign-in sends nothing otherwise; the answer never says). */
  async isKnown(email: string, now: Date): Promise<boolean> {
    const customer = await this.db("customers").whereRaw("lower(email) = lower(?)", [email]).first("id");
    if (customer) return true;
    const shared = await this.live(this.db("report_shares as s"), "s", now)
      .whereRaw("lower(s.client_email) = lower(?)", [email])
      .first("s.id");
    return Boolean(shared);
  }
}
