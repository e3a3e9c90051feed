// What a signed-in homeowner may see (docs/decisions.md#29). Every portal read and action asks here first.
// - Their own properties: those whose customer's e-mail is theirs, compared case-blind; for those, every report,
//   booking, quote, task and subscription.
// - A report shared to their e-mail for someone else's property: that report alone, never the property's other records,
//   and only while the share lives: revoked or past its `expires_at`, it grants nothing (as the link itself).
import type { Knex } from "knex";

export class HomeAccess {
  constructor(
    private readonly db: Knex,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Shares that still grant something: not revoked (staff sent it to the wrong address, say) and not expired. */
  private live<T extends Knex.QueryBuilder>(q: T, alias: string): T {
    return q.where(`${alias}.revoked`, false).where(`${alias}.expires_at`, ">", this.clock()) as T;
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
  async sharedReportIds(email: string): Promise<number[]> {
    const own = this.db("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .whereRaw("lower(c.email) = lower(?)", [email])
      .select("p.id");
    const rows = await this.live(this.db("report_shares as s"), "s")
      .join("reports as r", "r.id", "s.report_id")
      .whereRaw("lower(s.client_email) = lower(?)", [email])
      .whereNotIn("r.property_id", own)
      .distinct("r.id")
      .orderBy("r.id");
    return rows.map((r) => r.id as number);
  }

  /** Whether the homeowner may read this report: it is of their property, or it was shared to them. */
  async canReadReport(email: string, reportId: number): Promise<boolean> {
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
            this.live(this.db("report_shares as s"), "s")
              .whereRaw("s.report_id = r.id")
              .whereRaw("lower(s.client_email) = lower(?)", [email]),
          ),
      )
      .first("r.id");
    return Boolean(row);
  }

  /** Whether a known customer has this e-mail (sign-in sends nothing otherwise; the answer never says). */
  async isKnown(email: string): Promise<boolean> {
    const customer = await this.db("customers").whereRaw("lower(email) = lower(?)", [email]).first("id");
    if (customer) return true;
    const shared = await this.live(this.db("report_shares as s"), "s")
      .whereRaw("lower(s.client_email) = lower(?)", [email])
      .first("s.id");
    return Boolean(shared);
  }
}
