// The auth module's interface (docs/architecture.md "Modules and layers"): what other modules, the CLI and
// the seeds may use. Routes and repositories stay inside; src/container.ts and src/app.ts build them.
export {
  type AuthDeps,
  AuthService,
  INVALID_LOGIN_MESSAGE,
  LOGIN_LIMITS,
  type LoginLimits,
  type LoginLock,
  STAFF_SESSION_TTL_SECONDS,
  TOO_MANY_LOGINS_MESSAGE,
  TooManyLoginsError,
} from "./auth.service.js";
export { STAFF_ROLES, type StaffRole, type UsersDeps, UsersService } from "./users.service.js";
export type { AttemptCount, LoginAttemptCounter } from "./login-attempts.repository.js";
