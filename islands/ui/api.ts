import { sendToLogin } from "./session";
import { toast } from "./toast";

/** Calls whose 401 is an answer (wrong password), not a session that ended. */
const ANSWERS_WITH_401 = new Set(["/api/auth/login", "/api/auth/user"]);

/**
 * A protected call answered 401 (staff-side §4, §8): the toast 'Unauthorized' / 'You are logged out.
 * Logging in again...', then /api/login after 500 ms. apiRequest does this by itself; an island that
 * calls fetch on its own may call this too.
 */
export function handleUnauthorized(): void {
  sendToLogin((title, description) => toast({ title, description, variant: "destructive" }));
}

/** A fresh key for one submission: sent as Idempotency-Key, so a retried or doubled send is done once. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/** Fetch with the spec's error shape: a non-OK response throws "status: body text". `headers` adds to the defaults. */
export async function apiRequest<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: "include",
    headers: {
      ...(body === undefined
        ? { Accept: "application/json" }
        : { "Content-Type": "application/json", Accept: "application/json" }),
      // The page's language, which a refusal's message follows (src/i18n/api-locale.ts); staff pages are English.
      "Accept-Language": document.documentElement.lang === "fr-CA" ? "fr-CA" : "en-CA",
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
    if (response.status === 401 && !ANSWERS_WITH_401.has(new URL(url, window.location.href).pathname))
      handleUnauthorized();
    throw new ApiError(response.status, `${response.status}: ${text}`, text);
  }
  const type = response.headers.get("content-type") ?? "";
  return (type.includes("application/json") ? response.json() : response.text()) as Promise<T>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: string,
  ) {
    super(message);
  }

  /** The `fields` map of a 400, when the body is the API's JSON error. */
  get fields(): Record<string, string> {
    try {
      return (JSON.parse(this.body) as { fields?: Record<string, string> }).fields ?? {};
    } catch {
      return {};
    }
  }
}
