// `haven doctor`'s QST line (docs/decisions.md#51): an invoice that charges QST must carry Revenu Québec's number,
// so QST_NUMBER unset fails once a Quebec home is billed: a QST line on any invoice, or a live plan taxed in Quebec.
import type { Knex } from "knex";
import type { Env } from "../config/env.js";
import { type Check, fail, ok, reason, skip } from "./doctor.common.js";

const NAME = "QST number";

export async function qstCheck(env: Pick<Env, "QST_NUMBER" | "BUSINESS_TAX_REGISTERED">, db: Knex): Promise<Check> {
  if (!env.BUSINESS_TAX_REGISTERED) return ok(NAME, "not needed: BUSINESS_TAX_REGISTERED=false charges no tax");
  if (env.QST_NUMBER) return ok(NAME, `${env.QST_NUMBER}, on every invoice that charges QST`);
  try {
    const [invoices, plans] = await Promise.all([
      db("invoices").whereRaw(`tax_lines @> '[{"kind":"QST"}]'::jsonb`).count<{ n: string }[]>({ n: "*" }),
      db("subscriptions")
        .where({ tax_province: "QC" })
        .whereNotIn("status", ["canceled", "unpaid", "incomplete_expired"])
        .count<{ n: string }[]>({ n: "*" }),
    ]);
    const charged = Number(invoices[0]?.n ?? 0);
    const live = Number(plans[0]?.n ?? 0);
    if (!charged && !live) return ok(NAME, "not set; no Quebec home is billed");
    return fail(
      NAME,
      `not set, yet QST is charged (${charged} invoice(s) with QST, ${live} live plan(s) taxed in Quebec): those invoices lack Revenu Québec's number`,
      "set QST_NUMBER to your QST registration (1234567890 TQ0001, docs/tax.md) and restart Haven",
    );
  } catch (error) {
    return skip(NAME, `not checked (${reason(error)})`);
  }
}
