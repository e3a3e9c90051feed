import type { Task } from "graphile-worker";
import type { MailService } from "./mail.service.js";

/** The `mail.send` job: a failure throws, and graphile-worker retries with backoff. */
export const mailSendTask =
  (mail: MailService): Task =>
  async (payload) => {
    await mail.send(payload as never);
  };
