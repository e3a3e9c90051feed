// What paying an accepted quote reads (docs/decisions.md#43): the quote with its home and payer, and the office's list
// of accepted quotes whose work is not booked yet. The invoice rows themselves are the subscriptions module's.
import { DEFAULT_LOCALE, type Locale, isLocale } from "../../i18n/index.js";
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { QuoteStatus } from "./quotes.constants.js";

type Db = Knex | Tx;

const isoDay = (value: unknown): string | null =>
  value == null
    ? null
    : value instanceof Date
      ? `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, "0")}-${String(value.getDate()).padStart(2, "0")}`
      : String(value).slice(0, 10);

/** A quote request as paying it needs it. */
export interface PayableQuote {
  id: number;
  status: QuoteStatus;
  propertyId: number;
  maintenanceTaskId: number;
  taskTitle: string;
  scope: string | null;
  quotedCents: number | null;
  /** Stored when quoted (docs/decisions.md#42); null on a quote from before. */
  taxProvince: string | null;
  postalCode: string;
  validUntil: string | null;
  decidedAt: string | null;
  clientName: string;
  clientEmail: string;
  /** The customer's language (customers.locale): the quote's e-mails and invoice follow it. */
  clientLocale: Locale;
  propertyAddress: string;
}

/** An accepted quote as My Home shows it: its invoice and, once the office booked it, when and who. */
export interface AfterYesState {
  invoice: { id: number; number: string | null; status: string; totalCents: number; paidAt: string | null } | null;
  booked: { date: string; time: string | null; who: string | null } | null;
  /** The quote's last valid day (YYYY-MM-DD, BUSINESS_TZ), or null: past it, it cannot be paid (#43). */
  validUntil: string | null;
}

/** A booking of an accepted quote's work, claimed for its e-mail. */
export interface BookedQuote {
  quoteRequestId: number;
  date: string;
  time: string | null;
  clientName: string;
  clientEmail: string;
  taskTitle: string;
  propertyAddress: string;
  who: string | null;
  /** The customer's language: the e-mail's (customers.locale). */
  clientLocale: Locale;
}

/** An accepted quote whose task the office has still to book, or has booked (date, window, assignee). */
export interface QuoteToBook {
  quoteRequestId: number;
  maintenanceTaskId: number;
  propertyId: number;
  propertyAddress: string;
  clientName: string;
  taskTitle: string;
  quotedAmount: string | null;
  acceptedAt: string;
  scheduledDate: string | null;
  /** The task's time as the dialog stores it ('10:00 AM'). */
  scheduledTime: string | null;
  assignedTo: number | null;
  invoiceStatus: string | null;
  /** The task as the calendar's Task Details dialog takes it (islands/maintenance/types.ts TaskView). */
  task: {
    id: number;
    title: string;
    description: string | null;
    category: string;
    priority: string;
    status: string;
    scheduledDate: string | null;
    scheduledTime: string | null;
    estimatedDuration: number | null;
    notes: string | null;
    assignedTo: number | null;
    version: number;
    propertyAddress: string;
    clientName: string;
  };
}

export class QuotePaymentsRepository {
  constructor(private readonly db: Knex) {}

  private joined(db: Db) {
    return db("quote_requests as q")
      .join("properties as p", "p.id", "q.property_id")
      .join("maintenance_tasks as t", "t.id", "q.maintenance_task_id")
      .leftJoin("customers as c", "c.id", "p.customer_id")
      .select(
        "q.*",
        "c.locale as client_locale",
        "p.postal_code",
        "p.client_name",
        "p.client_email",
        "t.title as task_title",
        db.raw(
          "concat_ws(', ', p.address, p.city, nullif(concat_ws(' ', coalesce(p.province, p.state), p.postal_code), '')) as property_address",
        ),
      );
  }

  private toPayable(row: Record<string, unknown>): PayableQuote {
    return {
      id: row.id as number,
      status: row.status as QuoteStatus,
      propertyId: row.property_id as number,
      maintenanceTaskId: row.maintenance_task_id as number,
      taskTitle: row.task_title as string,
      scope: (row.scope as string | null) ?? null,
      quotedCents: row.quoted_cents == null ? null : Number(row.quoted_cents),
      taxProvince: (row.tax_province as string | null) ?? null,
      postalCode: row.postal_code as string,
      validUntil: isoDay(row.valid_until),
      decidedAt: row.decided_at ? new Date(row.decided_at as string).toISOString() : null,
      clientName: row.client_name as string,
      clientEmail: row.client_email as string,
      clientLocale: isLocale(row.client_locale) ? row.client_locale : DEFAULT_LOCALE,
      propertyAddress: row.property_address as string,
    };
  }

  async find(id: number, db: Db = this.db): Promise<PayableQuote | null> {
    const row = await this.joined(db).where("q.id", id).first();
    return row ? this.toPayable(row) : null;
  }

  /** The accepted request of a task (the one acceptance just wrote, in the same transaction). */
  async acceptedOfTask(maintenanceTaskId: number, tx: Tx): Promise<PayableQuote | null> {
    const row = await this.joined(tx)
      .where({ "q.maintenance_task_id": maintenanceTaskId, "q.status": "accepted" })
      .orderBy("q.id", "desc")
      .first();
    return row ? this.toPayable(row) : null;
  }

  /**
   * After yes, for My Home's quotes page: each accepted (or completed) quote request of these homes with its invoice
   * (null for a quote with no single price) and its task's booking (date, time, who comes), by quote request.
   */
  async afterYesOfProperties(propertyIds: number[]): Promise<Map<number, AfterYesState>> {
    const out = new Map<number, AfterYesState>();
    if (!propertyIds.length) return out;
    const rows = await this.db("quote_requests as q")
      .join("maintenance_tasks as t", "t.id", "q.maintenance_task_id")
      .leftJoin("invoices as i", "i.quote_request_id", "q.id")
      .leftJoin("staff_users as su", "su.id", "t.assigned_to")
      .whereIn("q.property_id", propertyIds)
      .whereIn("q.status", ["accepted", "completed"])
      .select(
        "q.id as quote_request_id",
        "q.valid_until",
        "i.id",
        "i.number",
        "i.status",
        "i.amount_cents",
        "i.paid_at",
        "t.scheduled_date",
        "t.scheduled_time",
        "su.first_name",
      );
    for (const r of rows)
      out.set(r.quote_request_id as number, {
        invoice: r.id
          ? {
              id: r.id as number,
              number: (r.number as string | null) ?? null,
              status: r.status as string,
              totalCents: Number(r.amount_cents),
              paidAt: r.paid_at ? new Date(r.paid_at as string).toISOString() : null,
            }
          : null,
        booked: r.scheduled_date
          ? {
              date: isoDay(r.scheduled_date)!,
              time: (r.scheduled_time as string | null) ?? null,
              who: (r.first_name as string | null) ?? null,
            }
          : null,
        validUntil: isoDay(r.valid_until),
      });
    return out;
  }

  /**
   * Claims the bookings of accepted quotes not e-mailed yet (a task dated from `today` on, at a date and time not
   * claimed before): one insert, so two runs at once claim each booking once. Returns what the e-mails need.
   */
  async claimBookings(today: string, tx: Tx): Promise<BookedQuote[]> {
    const result = await tx.raw(
      `with claimed as (
         insert into quote_booking_notices (quote_request_id, scheduled_date, scheduled_time)
         select q.id, t.scheduled_date, coalesce(t.scheduled_time, '')
           from quote_requests q join maintenance_tasks t on t.id = q.maintenance_task_id
          where q.status = 'accepted' and t.scheduled_date is not null and t.scheduled_date >= ?::date
         on conflict do nothing
         returning quote_request_id, scheduled_date, scheduled_time)
       select c.quote_request_id, to_char(c.scheduled_date, 'YYYY-MM-DD') as day, c.scheduled_time,
              p.client_name, p.client_email, t.title,
              concat_ws(', ', p.address, p.city) as property_address, su.first_name, cu.locale as client_locale
         from claimed c
         join quote_requests q on q.id = c.quote_request_id
         join properties p on p.id = q.property_id
         left join customers cu on cu.id = p.customer_id
         join maintenance_tasks t on t.id = q.maintenance_task_id
         left join staff_users su on su.id = t.assigned_to
        order by c.quote_request_id`,
      [today],
    );
    return (result.rows as Record<string, unknown>[]).map((r) => ({
      quoteRequestId: r.quote_request_id as number,
      date: r.day as string,
      time: (r.scheduled_time as string) || null,
      clientName: r.client_name as string,
      clientEmail: r.client_email as string,
      taskTitle: r.title as string,
      propertyAddress: r.property_address as string,
      who: (r.first_name as string | null) ?? null,
      clientLocale: isLocale(r.client_locale) ? r.client_locale : DEFAULT_LOCALE,
    }));
  }

  /**
   * The office's list (docs/decisions.md#43): accepted quotes, those not booked yet (no date on their task) first,
   * oldest acceptance first; `booked` false keeps only those still to book.
   */
  async toBook(options: { booked?: boolean; limit: number }): Promise<QuoteToBook[]> {
    const query = this.db("quote_requests as q")
      .join("properties as p", "p.id", "q.property_id")
      .join("maintenance_tasks as t", "t.id", "q.maintenance_task_id")
      .leftJoin("invoices as i", "i.quote_request_id", "q.id")
      .where("q.status", "accepted")
      .select(
        "q.id",
        "q.maintenance_task_id",
        "q.property_id",
        "q.quoted_amount",
        "q.decided_at",
        "p.client_name",
        "t.title",
        "t.description",
        "t.category",
        "t.priority",
        "t.status as task_status",
        "t.estimated_duration",
        "t.notes",
        "t.version",
        "t.scheduled_date",
        "t.assigned_to",
        "i.status as invoice_status",
        "t.scheduled_time",
        this.db.raw("concat_ws(', ', p.address, p.city) as property_address"),
      )
      .orderByRaw("t.scheduled_date is not null, q.decided_at asc nulls last, q.id")
      .limit(options.limit);
    if (options.booked === false) query.whereNull("t.scheduled_date");
    const rows = await query;
    return rows.map((r) => ({
      quoteRequestId: r.id as number,
      maintenanceTaskId: r.maintenance_task_id as number,
      propertyId: r.property_id as number,
      propertyAddress: r.property_address as string,
      clientName: r.client_name as string,
      taskTitle: r.title as string,
      quotedAmount: (r.quoted_amount as string | null) ?? null,
      acceptedAt: new Date((r.decided_at ?? 0) as string).toISOString(),
      scheduledDate: isoDay(r.scheduled_date),
      scheduledTime: (r.scheduled_time as string | null) ?? null,
      assignedTo: (r.assigned_to as number | null) ?? null,
      invoiceStatus: (r.invoice_status as string | null) ?? null,
      task: {
        id: r.maintenance_task_id as number,
        title: r.title as string,
        description: (r.description as string | null) ?? null,
        category: r.category as string,
        priority: r.priority as string,
        status: r.task_status as string,
        scheduledDate: isoDay(r.scheduled_date),
        scheduledTime: (r.scheduled_time as string | null) ?? null,
        estimatedDuration: (r.estimated_duration as number | null) ?? null,
        notes: (r.notes as string | null) ?? null,
        assignedTo: (r.assigned_to as number | null) ?? null,
        version: r.version as number,
        propertyAddress: r.property_address as string,
        clientName: r.client_name as string,
      },
    }));
  }
}
