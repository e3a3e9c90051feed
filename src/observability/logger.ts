import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";

// An e-mail address anywhere in a log line, also percent-encoded in a logged URL (`jane%40example.com`).
const EMAIL = /([A-Za-z0-9_%+-])[A-Za-z0-9._%+-]*(@|%40)([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/g;

/** `jane.doe@example.com` → `j***@example.com`, for every address in the text. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, "$1***$2$3");
}

/** The fields of a graphile-worker job a log line may name: never its payload, which is a whole e-mail. */
const JOB_FIELDS = ["id", "task_identifier", "attempts", "max_attempts", "run_at", "locked_by"] as const;

/**
 * graphile-worker's meta (worker-runner.ts logs it as `worker`) holds the failed job with its payload (an
 * e-mail's body: a sign-in link and code) and the error's own fields: only the job's ids and counts, and the
 * error's name, message and code, are kept.
 */
export function workerMeta(meta: unknown): unknown {
  if (!meta || typeof meta !== "object") return meta;
  const { job, error, fatalError, ...rest } = meta as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (job && typeof job === "object")
    out.job = Object.fromEntries(
      JOB_FIELDS.filter((k) => k in job).map((k) => [k, (job as Record<string, unknown>)[k]]),
    );
  if (error !== undefined) out.error = errorSummary(error);
  if (fatalError !== undefined) out.fatalError = errorSummary(fatalError);
  return out;
}

const errorSummary = (error: unknown) =>
  error instanceof Error
    ? { name: error.name, message: error.message, code: (error as { code?: unknown }).code }
    : { message: String(error) };

/**
 * The process logger. Addresses are masked in the finished line, so every field, message, error and
 * stack is covered, whoever logged it (our code, the request log, graphile-worker's messages).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, hooks: { streamWrite: maskEmails }, serializers: { worker: workerMeta } }, destination);
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
