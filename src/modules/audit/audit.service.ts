import { AsyncLocalStorage } from "node:async_hooks";
import type { RequestHandler } from "express";
import type { Knex } from "knex";
import { type Json, changedFields, erasePersonal, personalPattern } from "./audit.diff.js";
import type { AuditRepository } from "./audit.repository.js";
import type { AuditEvent, AuditQuery } from "./audit.schemas.js";

/** What one change tells the trail. `before`/`after` are the record as it was and is; only changed fields are kept. */
export interface AuditChange {
  /** "staff:<id>", "cli", "system"; left out, the staff user of the request being served (auditActor). */
  actor?: string;
  /** `<record type>.<verb>`: "property.update", "booking.cancel", "refund.create"… (README "Actions"). */
  action: string;
  recordType: string;
  recordId: number | string;
  before?: object | null;
  after?: object | null;
}

// The staff user a request serves, so a service deep in a change knows who made it without each route
// passing it down (README "Who acted").
const actorContext = new AsyncLocalStorage<{ actor: string }>();

/** Express middleware, after the staff session check: the rest of a staff request runs as "staff:<id>". */
export const auditActor: RequestHandler = (req, _res, next) => {
  const id = req.session?.staffUserId;
  if (!id) return next();
  actorContext.run({ actor: `staff:${id}` }, next);
};

/** Runs `work` as this actor (the CLI: "cli"; tests). */
export const asActor = <T>(actor: string, work: () => T): T => actorContext.run({ actor }, work);

/** The actor of the work running now: the request's staff user, else null. */
export const currentActor = (): string | null => actorContext.getStore()?.actor ?? null;

/** "staff:12" → 12; any other actor → null. */
export const staffIdOf = (actor: string): number | null => {
  const match = /^staff:(\d+)$/.exec(actor);
  return match ? Number(match[1]) : null;
};

export interface AuditLogDeps {
  repo: AuditRepository;
}

/** The audit trail (docs/decisions.md#39): written in the change's transaction, read by owners. */
export class AuditLog {
  constructor(private readonly deps: AuditLogDeps) {}

  /**
   * Writes one event in `tx`, the change's own transaction: a rolled-back change leaves none. Secrets are left
   * out and only changed fields kept (audit.diff.ts). An update that changed nothing writes nothing.
   */
  async record(tx: Knex.Transaction | Knex, change: AuditChange): Promise<void> {
    const actor = change.actor ?? currentActor() ?? "system";
    const { before, after } = changedFields(change.before, change.after);
    const empty = (v: Json) => v !== null && typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length;
    if (change.before && change.after && empty(before) && empty(after)) return;
    await this.deps.repo.insert(tx, {
      actor,
      actorId: staffIdOf(actor),
      action: change.action,
      recordType: change.recordType,
      recordId: String(change.recordId),
      before,
      after,
    });
  }

  list(query: AuditQuery): Promise<{ rows: AuditEvent[]; next: number | null; total: number }> {
    return this.deps.repo.list(query);
  }

  exportBatches(query: AuditQuery): AsyncGenerator<AuditEvent[]> {
    return this.deps.repo.batches(query);
  }

  actors(): Promise<{ id: number; email: string }[]> {
    return this.deps.repo.actors();
  }

  /**
   * Erasure (docs/decisions.md#39): the events about the person's records, or that mention them, keep who did
   * what and when, but lose the personal data in their before/after. Runs in the erasure's transaction.
   */
  async erasePersonalData(
    tx: Knex.Transaction,
    person: { records: { type: string; ids: (number | string)[] }[]; strings: readonly string[] },
  ): Promise<number> {
    const events = await this.deps.repo.forErasure(tx, person.records, person.strings);
    const pattern = personalPattern(person.strings);
    const theirs = new Set(person.records.flatMap(({ type, ids }) => ids.map((id) => `${type}:${id}`)));
    let changed = 0;
    for (const event of events) {
      const own = theirs.has(`${event.record_type}:${event.record_id}`);
      const before = erasePersonal(event.before, pattern, own);
      const after = erasePersonal(event.after, pattern, own);
      if (JSON.stringify([before, after]) === JSON.stringify([event.before, event.after])) continue;
      await this.deps.repo.replaceChanges(tx, event.id, before, after);
      changed++;
    }
    return changed;
  }
}
