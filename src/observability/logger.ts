import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";

// An e-mail address anywhere in a log line, also percent-encoded in a logged URL (`jane%40example.com`).
const EMAIL = /([A-Za-z0-9_%+-])[A-Za-z0-9._%+-]*(@|%40)([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/g;

/** `jane.doe@example.com` → `j***@example.com`, for every address in the text. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, "$1***$2$3");
}

/**
 * The process logger. Addresses are masked in the finished line, so every field, message, error and
 * stack is covered, whoever logged it (our code, pino-http, graphile-worker's messages).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, hooks: { streamWrite: maskEmails } }, destination);
}

interface RequestContext {
  requestId: string;
}

const requestContext = new AsyncLocalStorage<RequestContext>();

/** Runs the rest of a request's handling with its id in context, so process-level handlers can name it. */
export function withRequestId(requestId: string, next: () => void): void {
  requestContext.run({ requestId }, next);
}

/** The id of the request whose work is running now, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/**
 * Logs what would otherwise vanish or kill the process without a trace, with the request id when the
 * failure happened while serving one. An uncaught exception leaves the process in an unknown state:
 * after logging it the process exits (1). A stray rejected promise is logged and the process goes on.
 */
export function logProcessFailures(log: Logger, exit: (code: number) => void = process.exit): void {
  process.on("unhandledRejection", (reason) => {
    log.error({ err: reason, requestId: currentRequestId() }, "unhandled promise rejection");
  });
  process.on("uncaughtException", (error) => {
    log.fatal({ err: error, requestId: currentRequestId() }, "uncaught exception; exiting");
    exit(1);
  });
}
