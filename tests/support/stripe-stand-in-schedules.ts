// The stand-in's Subscription Schedules, as Stripe's reference describes them: a schedule made from a subscription
// starts with a phase that copies it; an update's `phases` replace the schedule's phases, each with only the items,
// tax rates and automatic tax it is given ("These Tax Rates will set the Subscription's default_tax_rates … for
// any Invoices issued by the Subscription during this Phase"), the current phase applied at once; a phase entered
// sets the subscription's price and taxes and merges its metadata; past the last phase, end_behavior.
import { type ApiRequest, type Obj, id, mergeMetadata, monthsFrom, nestedList } from "./stripe-stand-in-kit.js";
import { StandInBilling } from "./stripe-stand-in-billing.js";

const ids = (value: unknown): string[] | null => (Array.isArray(value) ? (value as string[]) : null);

export class StandInSchedules extends StandInBilling {
  /** The subscription takes a phase's configuration: its item's price and tax rates, its default tax rates and automatic tax, its metadata. */
  protected applyPhase(sub: Obj, phase: Obj): void {
    const item = this.itemOf(sub);
    const configured = (phase.items as Obj[])[0]!;
    const price = this.prices.get(configured.price as string);
    if (price) item.price = price;
    item.quantity = configured.quantity ?? 1;
    item.tax_rates = structuredClone((configured.tax_rates as Obj[] | undefined) ?? []);
    sub.default_tax_rates = structuredClone((phase.default_tax_rates as Obj[] | undefined) ?? []);
    sub.automatic_tax = structuredClone(phase.automatic_tax ?? { enabled: false });
    mergeMetadata(sub.metadata as Obj, (phase.metadata as Record<string, string> | undefined) ?? {});
  }

  /**
   * A schedule's phase that starts at `start` takes over the subscription; past the last phase, the schedule ends by
   * its end_behavior. False when that canceled the subscription.
   */
  protected enterPhase(sub: Obj, start: number): boolean {
    const schedule = sub.schedule ? this.schedules.get(sub.schedule as string) : undefined;
    if (!schedule) return true;
    const phases = schedule.phases as Obj[];
    const phase = phases.find((p) => (p.start_date as number) <= start && start < (p.end_date as number));
    if (phase) {
      this.applyPhase(sub, phase);
      schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date };
      return true;
    }
    if (schedule.end_behavior === "cancel") {
      Object.assign(sub, { status: "canceled", ended_at: start, canceled_at: start, schedule: null });
      schedule.status = "completed";
      return false;
    }
    Object.assign(schedule, { status: "released", released_subscription: sub.id, subscription: null });
    sub.schedule = null;
    return true;
  }

  /** The phases an update sends, as the schedule keeps them; a string when Stripe would refuse them. */
  private phasesOf(form: Record<string, string>, current: Obj): Obj[] | string {
    const phases = nestedList(form, "phases");
    if (Number(phases[0]!.start_date) !== current.start_date)
      return "You can not modify the start date of the current phase.";
    let start = current.start_date as number;
    const made: Obj[] = [];
    for (const phase of phases) {
      const items = (phase.items as Obj[] | undefined) ?? [];
      if (!items.length || !this.prices.has(items[0]!.price as string))
        return "Each phase needs an item with a known price.";
      const duration = phase.duration as Obj | undefined;
      const end = phase.end_date
        ? Number(phase.end_date)
        : duration
          ? monthsFrom(start, Number(duration.interval_count ?? 1))
          : null;
      if (end === null) return "A phase needs an end_date or a duration.";
      made.push({
        start_date: start,
        end_date: end,
        items: items.map((i) => ({
          price: i.price,
          quantity: Number(i.quantity ?? 1),
          tax_rates: this.ratesFor(ids(i.tax_rates) ?? []),
        })),
        default_tax_rates: this.ratesFor(ids(phase.default_tax_rates) ?? []),
        automatic_tax: { enabled: (phase.automatic_tax as Obj | undefined)?.enabled === "true" },
        metadata: (phase.metadata as Obj | undefined) ?? {},
        proration_behavior: phase.proration_behavior ?? form.proration_behavior ?? "create_prorations",
      });
      start = end;
    }
    return made;
  }

  /** POST/GET /v1/subscription_schedules…: create from a subscription, retrieve, update, release. */
  protected scheduleRoutes(r: ApiRequest): boolean {
    const { form, expand, route, json, missing, invalid } = r;
    if (route("POST", /^\/v1\/subscription_schedules$/)) {
      const sub = this.subscriptions.get(form.from_subscription ?? "");
      if (!sub) missing("subscription", form.from_subscription ?? "");
      // "When using this parameter, other parameters (such as phase values) cannot be set."
      else if (Object.keys(form).some((k) => k.startsWith("phases[")))
        invalid("You cannot set `phases` if `from_subscription` is set.");
      else if (sub.schedule) invalid(`The subscription already has a schedule: ${sub.schedule}`);
      else json(200, this.scheduleFrom(sub));
      return true;
    }
    let m = route("GET", /^\/v1\/subscription_schedules\/([\w]+)$/);
    if (m) {
      const found = this.schedules.get(m[1]!);
      if (found) json(200, this.expand(found, expand));
      else missing("subscription_schedule", m[1]!);
      return true;
    }
    m = route("POST", /^\/v1\/subscription_schedules\/([\w]+)\/release$/);
    if (m) {
      const found = this.schedules.get(m[1]!);
      if (!found) missing("subscription_schedule", m[1]!);
      else if (!["active", "not_started"].includes(found.status as string))
        invalid(`You cannot release a subscription schedule that is currently \`${found.status}\`.`);
      else {
        // "the subscription schedule … keeps the underlying subscription running": as the current phase left it.
        const sub = this.subscriptions.get(found.subscription as string);
        if (sub) sub.schedule = null;
        Object.assign(found, { status: "released", released_subscription: found.subscription, subscription: null });
        json(200, found);
      }
      return true;
    }
    m = route("POST", /^\/v1\/subscription_schedules\/([\w]+)$/);
    if (m) {
      const found = this.schedules.get(m[1]!);
      if (!found) missing("subscription_schedule", m[1]!);
      else if (found.status !== "active")
        invalid(`You cannot update a subscription schedule that is \`${found.status}\`.`);
      else {
        const error = this.updateSchedule(found, form);
        if (error) invalid(error);
        else json(200, this.expand(found, expand));
      }
      return true;
    }
    return false;
  }

  /** A schedule made from a subscription: one phase, the current period, copying its configuration. */
  private scheduleFrom(sub: Obj): Obj {
    const item = this.itemOf(sub);
    const schedule: Obj = {
      id: id("sub_sched"),
      object: "subscription_schedule",
      customer: sub.customer,
      subscription: sub.id,
      released_subscription: null,
      status: "active",
      end_behavior: "release",
      current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
      phases: [
        {
          start_date: item.current_period_start,
          end_date: item.current_period_end,
          items: [
            {
              price: (item.price as Obj).id,
              quantity: item.quantity ?? 1,
              tax_rates: structuredClone(item.tax_rates ?? []),
            },
          ],
          default_tax_rates: structuredClone(sub.default_tax_rates ?? []),
          automatic_tax: structuredClone(sub.automatic_tax ?? { enabled: false }),
          metadata: {},
          proration_behavior: "create_prorations",
        },
      ],
      metadata: {},
    };
    this.schedules.set(schedule.id as string, schedule);
    sub.schedule = schedule.id;
    return schedule;
  }

  /** "List representing phases of the subscription schedule": what is sent replaces them; the current one applies now. */
  private updateSchedule(schedule: Obj, form: Record<string, string>): string | null {
    if (form.end_behavior) schedule.end_behavior = form.end_behavior;
    if (!Object.keys(form).some((k) => k.startsWith("phases["))) return null;
    const made = this.phasesOf(form, schedule.current_phase as Obj);
    if (typeof made === "string") return made;
    schedule.phases = made;
    const sub = this.subscriptions.get(schedule.subscription as string);
    if (sub) {
      const before = this.itemOf(sub).price as Obj;
      this.applyPhase(sub, made[0]!);
      // "If the update changes the billing configuration … of the current phase, indicates how prorations from this change should be handled."
      const behavior = form.proration_behavior ?? "create_prorations";
      const invoice = this.prorate(sub, before, this.itemOf(sub).price as Obj, behavior);
      if (invoice) this.charge(invoice, this.cardOf(sub));
    }
    return null;
  }
}
