import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { ClientResponseInput, ResponseAction, ShareSummary } from "./sharing.schemas.js";

type Row = Record<string, unknown>;
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : ((value as string | null) ?? null));

export interface ShareRow {
  id: number;
  reportId: number;
  clientEmail: string;
  expiresAt: string;
  revoked: boolean;
  claimedAt: string | null;
  browserBinding: string | null;
  respondedAt: string | null;
  createdAt: string;
}

const toShare = (row: Row): ShareRow => ({
  id: row.id as number,
  reportId: row.report_id as number,
  clientEmail: row.client_email as string,
  expiresAt: iso(row.expires_at)!,
  revoked: row.revoked as boolean,
  claimedAt: iso(row.claimed_at),
  browserBinding: (row.browser_binding as string | null) ?? null,
  respondedAt: iso(row.responded_at),
  createdAt: iso(row.created_at)!,
});

function statusOf(row: Row): ShareSummary["status"] {
  if (row.revoked) return "revoked";
  if (row.responded_at) return "responded";
  if (new Date(row.expires_at as string) <= new Date()) return "expired";
  return row.claimed_at ? "opened" : "unopened";
}

export class SharingRepository {
  constructor(private readonly db: Knex) {}

  async insert(
    share: { reportId: number; tokenHash: string; clientEmail: string; expiresAt: Date },
    tx: Tx | Knex = this.db,
  ): Promise<ShareRow> {
    const [row] = await tx("report_shares")
      .insert({
        report_id: share.reportId,
        token_hash: share.tokenHash,
        client_email: share.clientEmail,
        expires_at: share.expiresAt,
      })
      .returning("*");
    return toShare(row);
  }

  /** The atomic first view: only one request ever turns claimed_at from null. */
  async claim(tokenHash: string, bindingHash: string): Promise<ShareRow | null> {
    const [row] = await this.db("report_shares")
      .where({ token_hash: tokenHash, revoked: false })
      .whereNull("claimed_at")
      .where("expires_at", ">", this.db.fn.now())
      .update({ claimed_at: this.db.fn.now(), browser_binding: bindingHash })
      .returning("*");
    return row ? toShare(row) : null;
  }

  async findByHash(tokenHash: string, tx: Tx | Knex = this.db, lock = false): Promise<ShareRow | null> {
    const query = tx("report_shares").where({ token_hash: tokenHash }).first();
    const row = await (lock ? query.forUpdate() : query);
    return row ? toShare(row) : null;
  }

  async markResponded(id: number, tx: Tx): Promise<void> {
    await tx("report_shares").where({ id }).update({ responded_at: tx.fn.now() });
  }

  async insertResponses(shareId: number, responses: ClientResponseInput[], tx: Tx): Promise<void> {
    await tx("client_responses").insert(
      responses.map((r) => ({
        share_id: shareId,
        maintenance_task_id: r.maintenanceTaskId,
        action: r.action,
        notes: r.notes,
      })),
    );
  }

  async responsesOf(
    shareId: number,
  ): Promise<{ maintenanceTaskId: number; action: ResponseAction; notes: string | null }[]> {
    const rows = await this.db("client_responses").where({ share_id: shareId }).orderBy("id");
    return rows.map((r: Row) => ({
      maintenanceTaskId: r.maintenance_task_id as number,
      action: r.action as ResponseAction,
      notes: (r.notes as string | null) ?? null,
    }));
  }

  /** Revokes every live link of a report; returns how many. */
  async revokeLive(reportId: number, tx: Tx | Knex = this.db): Promise<number> {
    return tx("report_shares")
      .where({ report_id: reportId, revoked: false })
      .where("expires_at", ">", tx.fn.now())
      .update({ revoked: true });
  }

  async list(options: {
    limit: number;
    offset: number;
    q?: string;
    reportId?: number;
  }): Promise<{ rows: ShareSummary[]; total: number }> {
    const base = this.db("report_shares as s")
      .join("reports as r", "r.id", "s.report_id")
      .join("properties as p", "p.id", "r.property_id");
    if (options.reportId) base.where("s.report_id", options.reportId);
    if (options.q) {
      const like = `%${options.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base.where((w) => w.whereILike("s.client_email", like).orWhereILike("p.address", like));
    }
    const counted = await base.clone().count({ n: "*" }).first();
    const rows = await base
      .select("s.*", "r.property_id", "p.address")
      .orderBy([
        { column: "s.created_at", order: "desc" },
        { column: "s.id", order: "desc" },
      ])
      .limit(options.limit)
      .offset(options.offset);
    return {
      total: Number(counted?.n ?? 0),
      rows: rows.map((row: Row) => ({
        id: row.id as number,
        reportId: row.report_id as number,
        propertyId: row.property_id as number,
        propertyAddress: row.address as string,
        clientEmail: row.client_email as string,
        createdAt: iso(row.created_at)!,
        openedAt: iso(row.claimed_at),
        respondedAt: iso(row.responded_at),
        expiresAt: iso(row.expires_at)!,
        revoked: row.revoked as boolean,
        status: statusOf(row),
      })),
    };
  }
}
