import type { Task } from "graphile-worker";
import type { Container } from "../container.js";
import { BACKUP_TASK, type BackupSettings, backupDatabase, backupSettings } from "./backup.js";

export { BACKUP_TASK };

/** The worker's daily `db:backup` (its crontab line comes from backupCrontab, only when BACKUP_DIR is set). */
export const backupTask =
  (container: Container, settings: BackupSettings = backupSettings()): Task =>
  async (_payload, helpers) => {
    if (!settings.BACKUP_DIR) {
      helpers.logger.info("database backup skipped: BACKUP_DIR is not set");
      return;
    }
    const result = await backupDatabase({
      databaseUrl: container.databaseUrl,
      dir: settings.BACKUP_DIR,
      keep: settings.BACKUP_KEEP,
      settings,
    });
    const deleted = result.deleted.length ? `; deleted ${result.deleted.join(", ")}` : "";
    helpers.logger.info(`database backup: ${result.file} (${result.bytes} bytes, ${result.detail})${deleted}`);
  };
