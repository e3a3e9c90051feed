import type { Tx } from "../../db/transaction.js";
import type { NotificationKind } from "./notifications.constants.js";
import type { NotificationFilter, NotificationsRepository } from "./notifications.repository.js";
import type { Notification } from "./notifications.schemas.js";

/** One thing the office must act on, as the raising module describes it. */
export interface NewNotification {
  kind: NotificationKind;
  recordType: string;
  recordId: string | number;
  /** The staff page of the record. */
  link: string;
  text: string;
  /** Raised at most once with this key (a second raise is nothing). */
  onceKey?: string;
}

export interface NotificationsDeps {
  repo: NotificationsRepository;
}

/** The bell's count counts to 99 and then shows '99+'. */
const CAP = 100;

/** The staff bell's notifications (README): raised in the event's own transaction, read per staff user. */
export class Notifications {
  constructor(private readonly deps: NotificationsDeps) {}

  /** Writes with the caller's `tx`: a change that rolls back leaves no notification. */
  async raise(tx: Tx, notification: NewNotification): Promise<boolean> {
    return this.deps.repo.insert(tx, { ...notification, recordId: String(notification.recordId) });
  }

  unreadCount(staffUserId: number): Promise<number> {
    return this.deps.repo.unreadCount(staffUserId, CAP);
  }

  list(staffUserId: number, filter: NotificationFilter): Promise<Notification[]> {
    return this.deps.repo.list(staffUserId, filter);
  }

  markRead(staffUserId: number, ids: number[] | "all"): Promise<number> {
    return this.deps.repo.markRead(staffUserId, ids);
  }

  /**
   * The hourly check: a customer whose plan was bought two days before `now` and who has booked no inspection is
   * one notification, once per customer (their payer e-mail) ever. Returns how many were raised.
   */
  async paidNeverBooked(now: Date): Promise<number> {
    let raised = 0;
    for (const c of await this.deps.repo.paidNeverBooked(now)) {
      const ok = await this.deps.repo.insert(this.db(), {
        kind: "paid-never-booked",
        recordType: "subscription",
        recordId: String(c.subscriptionId),
        link: `/admin/subscriptions/${c.subscriptionId}`,
        text: `${c.name ?? c.email} paid for a plan two days ago and has not booked an inspection`,
        onceKey: `paid-never-booked:${c.email.toLowerCase()}`,
        createdAt: now,
      });
      if (ok) raised += 1;
    }
    return raised;
  }

  private db() {
    return this.deps.repo.knex;
  }
}
