import type { TaskList } from "graphile-worker";
import type { Container } from "./container.js";
import { MAIL_SEND_TASK } from "./modules/mail/mail.schemas.js";
import { mailSendTask } from "./modules/mail/mail.tasks.js";

/** Every job the worker runs, by name. Modules add their tasks here. */
export function taskList(container: Container): TaskList {
  return {
    [MAIL_SEND_TASK]: mailSendTask(container.mail),
  };
}
