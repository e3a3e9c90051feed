import type { Knex } from "knex";
import type { OwnedKind } from "./roles.js";

/**
 * Whether an inspector owns an inspection (inspections.inspector_id), a report (of their inspection), a
 * maintenance task (assigned_to), a booking (given to them, or taken up by their inspection), a property
 * (inspectorPropertyIds) or a photo (one on an entry of their inspection, or on none yet: the form shows a photo it has just sent before saving the entry), for the role check
 * of src/http/roles.ts and the form's entries (docs/decisions.md#36). An id that names nothing is "not theirs": the 403 then tells no more than a 404 would.
 */
export function inspectorOwnership(db: Knex) {
  return async (kind: OwnedKind, id: number, staffUserId: number): Promise<boolean> => {
    if (kind === "property") return (await inspectorPropertyIds(db)(staffUserId, id)).length > 0;
    // A booking given to them, or one their inspection took up.
    if (kind === "booking")
      return (
        (await db("inspection_bookings as b")
          .where("b.id", id)
          .where((w) =>
            w
              .where("b.inspector_id", staffUserId)
              .orWhereExists(
                db("inspections as i").whereRaw("i.booking_id = b.id").where("i.inspector_id", staffUserId),
              ),
          )
          .first(db.raw("1 as owned"))) !== undefined
      );
    if (kind === "photo") {
      const { rows } = await db.raw(
        `select not exists (select 1 from inspection_entry_photos where photo_id = :id)
             or exists (select 1 from inspection_entry_photos ep
                          join inspection_entries e on e.id = ep.entry_id
                          join inspections i on i.id = e.inspection_id
                         where ep.photo_id = :id and i.inspector_id = :staffUserId) as owned`,
        { id, staffUserId },
      );
      return rows[0]?.owned === true;
    }
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

/**
 * The properties an inspector may read (the inspection form's picker): those of their own bookings and inspections
 * (docs/decisions.md#36). Given `only`, whether that one property is among them.
 */
export function inspectorPropertyIds(db: Knex) {
  return async (staffUserId: number, only?: number): Promise<number[]> => {
    const mine = (table: string) => {
      const q = db(table).where("inspector_id", staffUserId).whereNotNull("property_id").select("property_id");
      return only === undefined ? q : q.where("property_id", only);
    };
    const rows: { property_id: number }[] = await mine("inspection_bookings").union(mine("inspections"));
    return rows.map((r) => Number(r.property_id));
  };
}
