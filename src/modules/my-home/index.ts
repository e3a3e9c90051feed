// What other modules, the CLI and the seeds may use of My Home (README "Interface for other modules").
export { HomeAccess, type HomeAccessDeps } from "./home-access.js";
export {
  HOME_CODE_TRIES,
  HOME_MAIL_KEY_PREFIX,
  HOME_SIGN_IN_LIMITS,
  type HomeAuthDeps,
  HomeAuthService,
  type HomeSignInLimits,
  TOO_MANY_SIGN_INS_MESSAGE,
  TooManySignInsError,
} from "./home-auth.service.js";
export { signInEmail } from "./home-mail.js";
export { RecordsService } from "./records.service.js";
export { VisitsService } from "./visits.service.js";
