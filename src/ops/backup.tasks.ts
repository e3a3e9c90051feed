import type { Task } from "graphile-worker";
import type { Container } from "../container.js";
import { BACKUP_TASK, type BackupSettings, backupDatabase, backupSettings } from "./backup.js";

export { BACKUP_TASK };

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

/**
 * The worker's daily `db:backup` (its crontab line comes from backupCrontab, only when BACKUP_DIR is set). Each
 * backup is one info line with its file, size and time taken, each failure one error line (the job's own logger,
 * which worker-runner.ts passes to pino at its level); a failure is thrown again, so graphile-worker retries it.
 */
export const backupTask =
  (container: Container, settings: BackupSettings = backupSettings()): Task =>
  async (_payload, helpers) => {
    if (!settings.BACKUP_DIR) {
      helpers.logger.info("database backup skipped: BACKUP_DIR is not set");
      return;
    }
    const started = Date.now();
    try {
      const result = await backupDatabase({
        databaseUrl: container.databaseUrl,
        dir: settings.BACKUP_DIR,
        keep: settings.BACKUP_KEEP,
        settings,
      });
      const deleted = result.deleted.length ? `; deleted ${result.deleted.join(", ")}` : "";
      const took = seconds(started);
      helpers.logger.info(
        `database backup: ${result.file}, ${(result.bytes / 1024 / 1024).toFixed(1)} MB, ${took} s (${result.detail})${deleted}`,
        { backup: { file: result.file, bytes: result.bytes, seconds: took, deleted: result.deleted } },
      );
    } catch (error) {
      const took = seconds(started);
      helpers.logger.error(
        `database backup failed after ${took} s (into ${settings.BACKUP_DIR}): ${(error as Error).message}`,
        { backup: { dir: settings.BACKUP_DIR, seconds: took } },
      );
      throw error;
    }
  };
