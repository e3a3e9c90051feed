// Shares and quotes: after the batches, some reports are shared with their clients, who open them and answer
// (asking for quotes on a few items); the staff then moves each quote request on to its status.
import type { Container } from "../../src/container.js";
import type { QuoteStatus } from "../../src/modules/quotes/quotes.constants.js";
import type { ClientResponseInput } from "../../src/modules/sharing/sharing.schemas.js";
import { DEMO_EXTRAS_CAP, type DemoExtrasResult, type DemoReport } from "./model.js";
import { type Rng, chance, homeRng, pick } from "./random.js";

const QUOTE_AMOUNTS = ["$450", "$275", "$1,250", "$800-1,200", "$3,400", "$180", "$625.50", "$2,150"];
const ADMIN_NOTES = [
  "Parts and labour; one visit, about two hours.",
  "Subcontracted to Rideau Roofing; price held 30 days.",
  "Includes disposal of the old unit.",
  "Estimate from photos: confirm on site before work starts.",
];
const CLIENT_NOTES = [
  "Weekday mornings work best for us.",
  "Could you bundle this with the other items?",
  "Please call before coming; the dog is home.",
  null,
  null,
];
/** The status each quote request ends in, in turn, so a handful of them already shows every status. */
const QUOTE_STATUS_CYCLE: readonly QuoteStatus[] = [
  "pending",
  "quoted",
  "accepted",
  "declined",
  "completed",
  "quoted",
  "pending",
  "accepted",
];
/** The staff moves from pending to each status (staff-side §4). */
const MOVES_TO: Record<QuoteStatus, readonly QuoteStatus[]> = {
  pending: [],
  quoted: ["quoted"],
  accepted: ["quoted", "accepted"],
  declined: ["declined"],
  completed: ["quoted", "accepted", "completed"],
};

/** The client's answers to a shared report, then the staff's moves on the quote requests they made. */
async function answerAndQuote(
  container: Container,
  target: DemoReport,
  link: { token: string; binding: string },
  rng: Rng,
  nextStatus: () => QuoteStatus,
  result: DemoExtrasResult,
) {
  // A client asks for quotes on a few of the first (highest-priority) items and passes on the rest.
  const responses: ClientResponseInput[] = target.taskIds.map((maintenanceTaskId, i) =>
    i === 0 || (i < 8 && chance(rng, 0.6))
      ? { maintenanceTaskId, action: "request_quote", notes: pick(rng, CLIENT_NOTES) }
      : { maintenanceTaskId, action: "ignore", notes: null },
  );
  await container.sharing.respond(link.token, [link.binding], responses);
  const { rows } = await container.quotes.list({ limit: 500, offset: 0, propertyId: target.home.propertyId });
  for (const quote of [...rows].sort((a, b) => a.id - b.id)) {
    if (quote.status !== "pending") continue;
    const status = nextStatus();
    for (const move of MOVES_TO[status]) {
      await container.quotes.update(
        quote.id,
        move === "quoted"
          ? { status: move, quotedAmount: pick(rng, QUOTE_AMOUNTS), adminNotes: pick(rng, ADMIN_NOTES) }
          : { status: move },
      );
    }
    result.quoteRequests[status]++;
  }
}

/**
 * Shares of about a third of the reports, spread over the list. Of those links a quarter stays unopened,
 * a quarter is opened only, and half get the client's answers (claimed with a binding, as a browser would).
 * Returns the ids of the shared reports.
 */
export async function shareReports(
  container: Container,
  reports: DemoReport[],
  seed: number,
  result: DemoExtrasResult,
): Promise<Set<number>> {
  const origin = (container.env.PUBLIC_URL ?? `http://localhost:${container.env.PORT}`).replace(/\/+$/, "");
  const withItems = reports.filter((r) => r.taskIds.length > 0);
  const shareCount = Math.min(DEMO_EXTRAS_CAP.shares, withItems.length, Math.max(6, Math.round(withItems.length / 3)));
  const shared = new Set<number>();
  let quoteSlot = 0;
  const nextStatus = () => QUOTE_STATUS_CYCLE[quoteSlot++ % QUOTE_STATUS_CYCLE.length]!;
  for (let k = 0; k < shareCount; k++) {
    const target = withItems[Math.floor((k * withItems.length) / shareCount)]!;
    shared.add(target.reportId);
    // No e-mail: the demo clients are made up, and the links are for clicking around the portal.
    const { reportLink } = await container.sharing.share(target.reportId, target.home.clientEmail, origin, {
      sendEmail: false,
    });
    result.shares++;
    if (k % 4 === 0) continue;
    const token = reportLink.slice(reportLink.lastIndexOf("/") + 1);
    const opened = await container.sharing.clientReport(token, []);
    if ("gone" in opened || !opened.binding || k % 4 === 1) continue;
    await answerAndQuote(
      container,
      target,
      { token, binding: opened.binding },
      homeRng(seed, target.home.index, 2 + k),
      nextStatus,
      result,
    );
  }
  return shared;
}
