import type { Task } from "graphile-worker";
import type { QuotePayments } from "./quote-payments.js";

// The booking e-mail of an accepted quote's work (docs/decisions.md#43): the office sets the date in the calendar's
// task dialog (maintenance), which knows nothing of quotes; this job notices each new booking and e-mails it once.
export const QUOTES_BOOKED_MAIL_TASK = "quotes:booked-mail";

/** graphile-worker crontab line (UTC): every five minutes, so the homeowner hears of a booking within minutes. */
export const QUOTES_CRONTAB = `*/5 * * * * ${QUOTES_BOOKED_MAIL_TASK}`;

export const quotesBookedMailTask =
  (payments: Pick<QuotePayments, "mailBookings">, clock: () => Date = () => new Date()): Task =>
  async (_payload, helpers) => {
    const sent = await payments.mailBookings(clock());
    if (sent) helpers.logger.info(`quotes: ${sent} booking e-mail(s) queued`);
  };
