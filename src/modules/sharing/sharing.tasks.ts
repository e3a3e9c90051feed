import type { Task } from "graphile-worker";
import type { Container } from "../../container.js";
import { reportSharedEmail } from "./sharing.mail.js";
import { reportsOf } from "./sharing.ports.js";
import type { ShareMailPayload } from "./sharing.service.js";

/** Renders the summary PDF in the worker (never in the request) and sends the link with it; a failure retries. */
export const shareMailTask =
  (container: Container): Task =>
  async (payload) => {
    const p = payload as ShareMailPayload;
    const pdf = await reportsOf(container).pdf(p.reportId, "summary");
    await container.mail.send(reportSharedEmail({ ...p, supportEmail: container.env.SUPPORT_EMAIL }, pdf));
  };
