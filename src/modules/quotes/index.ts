// What other modules, the CLI and the seeds may use of quotes (README "Interface for other modules").
export {
  BELL_CAP,
  type NewQuoteRequest,
  QUOTE_REPORT_MAIL_TASK,
  type QuotesDeps,
  QuoteExpiredError,
  QuotesService,
  STALE_QUOTE_MESSAGE,
} from "./quotes.service.js";
export { type ClientQuoteReport, toClientItem } from "./quote-view.js";
export {
  NO_FIGURE_TEXT,
  QUOTE_VALID_DAYS,
  type QuoteTotals,
  afterYesText,
  expiredMessage,
  quoteTotals,
} from "./quote-document.js";
export { type QuoteReportMailDeps, quoteReportMailTask } from "./quotes.tasks.js";
export { type QuoteReportMailDetails, quoteReportEmail } from "./quotes.mail.js";
