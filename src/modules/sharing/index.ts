// What other modules, the CLI and the seeds may use of sharing (README "Interface for other modules").
export {
  SHARE_MAIL_TASK,
  type ShareMailPayload,
  type SharingDeps,
  SharingService,
} from "./sharing.service.js";
export { clientReportData, photoIdsOf, quotePriority, recommendationsOf } from "./client-report-data.js";
export type { StoredReport } from "./sharing.schemas.js";
export { type ShareMailDeps, shareMailTask } from "./sharing.tasks.js";
export { type ReportSharedDetails, reportSharedEmail } from "./sharing.mail.js";
export { SAMPLE_READ_ONLY_MESSAGE, SAMPLE_REPORT_ID } from "./sample.js";
