// The customers module's interface (docs/architecture.md "Modules and layers"): what other modules, the
// CLI and the seeds may use. Routes and the repository stay inside; src/container.ts builds them.
export {
  type CustomersDeps,
  CustomersService,
  CUSTOMER_LOCALE_TASK,
  HOME_MOVED_TASK,
  SESSION_TAKEN_MESSAGE,
  type Viewer,
} from "./customers.service.js";
