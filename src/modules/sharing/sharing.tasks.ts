import type { Task } from "graphile-worker";
import type { MailService } from "../mail/index.js";
import { reportSharedEmail } from "./sharing.mail.js";
import type { ShareMailPayload, SharingDeps } from "./sharing.service.js";

/** What the share e-mail job uses. */
export interface ShareMailDeps {
  reports: Pick<SharingDeps["reports"], "pdf">;
  mail: Pick<MailService, "send">;
  settings: { supportEmail: string };
}

/** Renders the summary PDF in the worker (never in the request) and sends the link with it; a failure retries. */
export const shareMailTask =
  (deps: ShareMailDeps): Task =>
  async (payload) => {
    const p = payload as ShareMailPayload;
    const pdf = await deps.reports.pdf(p.reportId, "summary");
    await deps.mail.send(reportSharedEmail({ ...p, supportEmail: deps.settings.supportEmail }, pdf));
  };
