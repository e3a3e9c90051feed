// The audit module's interface (README "Interface for other modules").
export { AuditLog, type AuditChange, asActor, auditActor, currentActor } from "./audit.service.js";
export type { AuditEvent } from "./audit.schemas.js";
