// The tax follows the home (docs/decisions.md#57). A subscription is taxed in the province of the home it serves, as
// intake or staff entered it, not the postal code checkout was given: a service to real property is supplied where
// the property is (docs/tax.md). When the home is entered (intake), moved (a staff edit), or a rate changes on its
// day, the subscription's province is set under its row lock and the next invoice is taxed so: the demo provider
// computes it from the province, Stripe is given the province's Tax Rates after the commit (stripe-home-tax.ts).
// At intake the first invoice's difference is settled once: the tax it owed, a charge of its own; the tax it charged
// too much, a credit note (the refunds' write path, docs/decisions.md#52). Each is e-mailed.
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { todayIn } from "../../shared/business-time.js";
import type { Notifications } from "../notifications/index.js";
import { type Province, type TaxLine, isProvince, provinceOfPostalCode, taxDifference, taxFor } from "../tax/index.js";
import { type BillingMailer, mailInvoice } from "./billing-mailer.js";
import {
  type FirstInvoice,
  type HomeTaxRepository,
  type TaxedHome,
  adjustmentRefundKey,
} from "./home-tax.repository.js";
import type { RefundsRepository } from "../invoices/index.js";
import type { RefundsService } from "../invoices/index.js";
import { chargeTaxAtStripe, taxAtStripe } from "./stripe-home-tax.js";
import { SERVING_STATUSES } from "./subscriptions.constants.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";

export interface HomeTaxDeps {
  rows: HomeTaxRepository;
  subscriptions: Pick<SubscriptionsRepository, "find" | "logEvent" | "invoiceRows">;
  refunds: Pick<RefundsService, "store" | "refund">;
  refundRows: Pick<RefundsRepository, "lockInvoice">;
  mailer: Pick<BillingMailer, "send">;
  transaction: TransactionRunner;
  /** Stripe's client; null in demo mode. */
  stripe: Stripe | null;
  /** The staff bell: a charge of the tax owed that the card declined. */
  notifications?: Pick<Notifications, "raise"> | null;
  log: Logger;
  settings: {
    timeZone: string;
    /** BUSINESS_PROVINCE: the province of a purchase that named no home. */
    defaultProvince: string;
    /** BUSINESS_TAX_REGISTERED: a business not registered charges no tax, so settles none. */
    taxRegistered: boolean;
  };
  clock?: () => Date;
}

/** What following the home did. */
export interface HomeTaxOutcome {
  from: Province;
  to: Province;
  /** The charge of the first invoice's tax owed (its invoice id), and the credit note of the tax given back. */
  chargeInvoiceId: number | null;
  creditNoteRefundId: number | null;
}

/** A first invoice's difference: the tax it owed, the tax it charged too much, and why (the e-mails say it). */
interface Settlement {
  first: FirstInvoice;
  owed: TaxLine[];
  back: TaxLine[];
  reason: string;
}

const cad = (c: number) => `$${(c / 100).toFixed(2)}`;
const sum = (lines: TaxLine[]) => lines.reduce((total, l) => total + l.amountCents, 0);

export class HomeTax {
  private readonly clock: () => Date;

  constructor(private readonly deps: HomeTaxDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** The home's province: its postal code's, else its province field's; null for a home outside Canada or none. */
  static homeProvince(home: Pick<TaxedHome, "homePostalCode" | "homeProvince">): Province | null {
    const fromCode = home.homePostalCode ? provinceOfPostalCode(home.homePostalCode) : null;
    if (fromCode) return fromCode;
    return home.homeProvince && isProvince(home.homeProvince) ? home.homeProvince : null;
  }

  private taxedProvince(home: TaxedHome): Province {
    if (home.taxProvince && isProvince(home.taxProvince)) return home.taxProvince;
    const fromCode = home.taxPostalCode ? provinceOfPostalCode(home.taxPostalCode) : null;
    if (fromCode) return fromCode;
    const fallback = this.deps.settings.defaultProvince;
    return isProvince(fallback) ? fallback : "ON";
  }

  /**
   * One subscription follows its home: under its row lock, its province set and logged, and with `settle` (intake)
   * its first invoice's difference settled; then Stripe's taxes set, outside the transaction. Safe to repeat: a
   * province already followed, an invoice already settled and rates already set change nothing. Null when the
   * subscription or its home's province is unknown.
   */
  async follow(
    subscriptionId: number,
    options: { settle?: boolean; actor?: string } = {},
    now: Date = this.clock(),
  ): Promise<HomeTaxOutcome | null> {
    const { rows, subscriptions, transaction } = this.deps;
    const actor = options.actor ?? "system";
    const decided = await transaction(async (tx) => {
      const home = await rows.lock(subscriptionId, tx);
      const to = home ? HomeTax.homeProvince(home) : null;
      if (!home || !to) return null;
      const from = this.taxedProvince(home);
      if (from !== to || home.taxProvince === null) {
        await rows.setProvince(home.id, to, home.homePostalCode, tx);
        if (from !== to)
          await subscriptions.logEvent(home.id, { kind: "tax_province_changed", actor, detail: { from, to } }, tx);
      }
      const settled = options.settle ? await this.settle(home, to, actor, tx, now) : null;
      return { home, from, to, settled };
    });
    if (!decided) return null;
    const { home, from, to, settled } = decided;
    const live = SERVING_STATUSES.includes(home.status) || home.status === "incomplete";
    if (home.provider === "stripe" && this.deps.stripe && this.deps.settings.taxRegistered && live)
      await taxAtStripe(this.deps.stripe, home.providerSubscriptionId, to, todayIn(this.deps.settings.timeZone, now));
    if (settled?.atStripe) await this.settleAtStripe(home, settled.atStripe, settled.chargeInvoiceId, actor, now);
    return {
      from,
      to,
      chargeInvoiceId: settled?.chargeInvoiceId ?? null,
      creditNoteRefundId: settled?.creditNoteRefundId ?? null,
    };
  }

  /** Every live subscription of a home (a staff address change). */
  async followProperty(propertyId: number, now: Date = this.clock()): Promise<number> {
    const ids = await this.deps.rows.liveOf({ propertyId }, [...SERVING_STATUSES, "incomplete"]);
    for (const id of ids) await this.follow(id, { actor: "staff" }, now);
    return ids.length;
  }

  /**
   * Every live Stripe subscription taxed with the rates of the day (the daily run): a rate that changes on its
   * effective date reaches Stripe's next invoices, and a follow a crash missed is made. The demo provider computes
   * each invoice's tax on its own day. One subscription failing does not stop the others; the count that did.
   */
  async followAll(now: Date = this.clock()): Promise<{ followed: number; failed: number }> {
    const ids = await this.deps.rows.liveOf({}, [...SERVING_STATUSES]);
    let failed = 0;
    for (const id of ids) {
      try {
        await this.follow(id, {}, now);
      } catch (error) {
        failed++;
        this.deps.log.warn({ err: error, subscription: id }, "tax not followed; tried again tomorrow");
      }
    }
    return { followed: ids.length - failed, failed };
  }

  /**
   * The first invoice taxed in another province than the home's: what it owed and what it charged too much, or null
   * (none, not paid, no difference, or the business charges no tax). Read under the subscription's row lock.
   */
  private async difference(home: TaxedHome, to: Province, tx: Tx): Promise<Settlement | null> {
    const { rows, settings } = this.deps;
    if (!settings.taxRegistered) return null;
    const first = await rows.lockFirstInvoice(home.id, tx);
    if (!first) return null;
    const should = taxFor(first.subtotalCents, to, todayIn(settings.timeZone, first.issuedAt));
    const { owed, back } = taxDifference(first.taxLines, should.lines);
    if (!owed.length && !back.length) return null;
    const reason = `Your first invoice was taxed for ${first.taxProvince ?? "another province"}; your home is in ${to}, whose tax applies (${should.lines.map((l) => l.label).join(" + ")}).`;
    return { first, owed, back, reason };
  }

  /**
   * Under the subscription's row lock: the first invoice's difference settled once. The demo provider's at once: the
   * tax owed on a paid invoice of its own, the tax charged too much on a credit note. Stripe's: the charge's invoice
   * written open (its number taken now), the rest after the commit (settleAtStripe).
   */
  private async settle(
    home: TaxedHome,
    to: Province,
    actor: string,
    tx: Tx,
    now: Date,
  ): Promise<{
    chargeInvoiceId: number | null;
    creditNoteRefundId: number | null;
    atStripe: Settlement | null;
  } | null> {
    const { rows, refunds, refundRows } = this.deps;
    const diff = await this.difference(home, to, tx);
    if (!diff) return null;
    const { first, owed, back, reason } = diff;
    if (first.provider !== "demo") {
      const chargeInvoiceId = owed.length
        ? ((await rows.adjustmentOf(first.id, tx)) ??
          (await rows.insertAdjustment(
            { subscriptionId: home.id, first, lines: owed, province: to, paidAt: null },
            tx,
            now,
          )))
        : null;
      return { chargeInvoiceId, creditNoteRefundId: null, atStripe: diff };
    }
    if (await rows.settled(first.id, tx)) return null;
    let creditNoteRefundId: number | null = null;
    if (back.length) {
      const invoice = (await refundRows.lockInvoice(first.id, tx))!;
      const stored = await refunds.store(
        invoice,
        {
          providerRefundId: `demo_re_tax_${first.id}`,
          creditNoteId: `demo_cn_tax_${first.id}`,
          amountCents: sum(back),
          reason,
          actor,
          requestKey: adjustmentRefundKey(first.id),
          taxLines: back,
        },
        tx,
      );
      creditNoteRefundId = stored?.id ?? null;
    }
    let chargeInvoiceId: number | null = null;
    if (owed.length) {
      chargeInvoiceId = await rows.insertAdjustment(
        { subscriptionId: home.id, first, lines: owed, province: to, paidAt: now },
        tx,
        now,
      );
      await this.charged(home.id, chargeInvoiceId, first, reason, actor, tx);
    }
    return { chargeInvoiceId, creditNoteRefundId, atStripe: null };
  }

  /** A charge of the tax owed is paid: logged, and its receipt (saying why) e-mailed. */
  private async charged(
    subscriptionId: number,
    invoiceId: number,
    first: FirstInvoice,
    reason: string,
    actor: string,
    tx: Tx,
  ) {
    const { subscriptions, mailer } = this.deps;
    const stored = (await subscriptions.invoiceRows.find(invoiceId, tx))!;
    await subscriptions.logEvent(
      subscriptionId,
      {
        kind: "tax_charged",
        actor,
        detail: { invoice: stored.number, of: first.id, amountCents: Math.round(stored.amount * 100) },
      },
      tx,
    );
    const sub = (await subscriptions.find(subscriptionId, tx))!;
    await mailer.send("receipt", sub, tx, {
      amount: stored.amount,
      periodStart: first.periodStart.toISOString(),
      periodEnd: first.periodEnd.toISOString(),
      invoice: mailInvoice(stored),
      reason,
    });
  }

  /**
   * Stripe, after the commit and with no lock held (docs/decisions.md#52): the tax charged too much refunded through
   * the refunds (their intent, key and finishing job; a repeat is the same refund), and the tax owed charged with one
   * PaymentIntent, then recorded under the subscription's lock and the invoice's. A declined card leaves the charge
   * open and rings the staff bell; it is not tried again by itself.
   */
  private async settleAtStripe(
    home: TaxedHome,
    diff: Settlement,
    chargeInvoiceId: number | null,
    actor: string,
    now: Date,
  ) {
    const { refunds, rows, stripe, transaction, notifications, log } = this.deps;
    const { first, back, reason } = diff;
    if (back.length)
      await refunds.refund(first.id, {
        amountCents: sum(back),
        reason,
        actor,
        key: adjustmentRefundKey(first.id),
        taxLines: back,
      });
    if (chargeInvoiceId === null || !stripe) return;
    const open = await rows.openAdjustment(chargeInvoiceId);
    if (!open) return;
    const { paymentIntentId, declined } = await chargeTaxAtStripe(
      stripe,
      {
        subscriptionId: home.providerSubscriptionId,
        amountCents: open.amountCents,
        description: `Haven invoice ${open.number}: the tax of the home's province`,
        invoiceId: chargeInvoiceId,
      },
      log,
    );
    await transaction(async (tx) => {
      await rows.lock(home.id, tx);
      if (!(await rows.recordAdjustmentPayment(chargeInvoiceId, { paymentIntentId, declined, at: now }, tx))) return;
      if (!declined) return this.charged(home.id, chargeInvoiceId, first, reason, actor, tx);
      await notifications?.raise(tx, {
        kind: "payment-failed",
        recordType: "subscription",
        recordId: home.id,
        link: `/admin/subscriptions/${home.id}`,
        text: `The tax of the home's province (${open.number}, ${cad(open.amountCents)}) could not be charged: ${declined}`,
        onceKey: `tax-charge:${chargeInvoiceId}`,
      });
    });
  }
}
