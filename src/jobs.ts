import type { TaskList } from "graphile-worker";
import type { Container } from "./container.js";

/** Every job the worker runs, by name. Modules add their tasks here. */
export function taskList(_container: Container): TaskList {
  return {};
}
