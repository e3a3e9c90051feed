import type { Knex } from "knex";
import type { OwnedKind } from "./roles.js";

/**
 * Whether an inspector owns an inspection (inspections.inspector_id), a report (of their inspection) or a
 * maintenance task (assigned_to), for the role check of src/http/roles.ts (docs/decisions.md#36). An id that
 * names nothing is "not theirs": the 403 then tells no more than a 404 would.
 */
export function inspectorOwnership(db: Knex) {
  return async (kind: OwnedKind, id: number, staffUserId: number): Promise<boolean> => {
    const query =
      kind === "inspection"
        ? db("inspections").where({ id, inspector_id: staffUserId })
        : kind === "report"
          ? db("reports as r")
              .join("inspections as i", "i.id", "r.inspection_id")
              .where({ "r.id": id, "i.inspector_id": staffUserId })
          : db("maintenance_tasks").where({ id, assigned_to: staffUserId });
    return (await query.first(db.raw("1 as owned"))) !== undefined;
  };
}
