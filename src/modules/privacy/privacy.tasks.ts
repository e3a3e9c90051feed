import type { Task } from "graphile-worker";
import type { PrivacyService } from "./privacy.service.js";

export const PRIVACY_PURGE_TASK = "privacy:purge";

/** graphile-worker crontab line (UTC): the purge runs daily; `fill=2d` catches up a day no worker was up. */
export const PRIVACY_CRONTAB = `40 3 * * * ${PRIVACY_PURGE_TASK} ?fill=2d`;

export const privacyPurgeTask =
  (privacy: PrivacyService): Task =>
  async (_payload, helpers) => {
    const { deleted } = await privacy.purge();
    const summary = Object.entries(deleted)
      .map(([table, n]) => `${table} ${n}`)
      .join(", ");
    helpers.logger.info(`privacy purge: ${summary}`);
  };
