// What other modules, the CLI and the seeds may use of privacy (README "Interface for other modules").
export { type PrivacyDeps, PrivacyService, type PrivacySettings } from "./privacy.service.js";
export { PRIVACY_CRONTAB, PRIVACY_PURGE_TASK, privacyPurgeTask } from "./privacy.tasks.js";
