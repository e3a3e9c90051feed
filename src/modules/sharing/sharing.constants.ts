/** The graphile-worker job that renders a shared report's summary PDF and e-mails the link (sharing.tasks.ts). */
export const SHARE_MAIL_TASK = "sharing.report-mail";
