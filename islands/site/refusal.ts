/**
 * What the toast says when the server refuses an htmx request: the server's own message (a role's 403, a 409, a
 * 400 naming the field: src/http/errors.ts answers htmx requests with `{ message }`), else the status.
 */
export function refusalMessage(status: number, contentType: string | null, body: string): string {
  if (contentType?.includes("application/json")) {
    try {
      const message = (JSON.parse(body) as { message?: unknown }).message;
      if (typeof message === "string" && message.trim()) return message.trim().slice(0, 300);
    } catch {
      // Not the JSON it claims to be: the status says what we know.
    }
  }
  return status >= 500
    ? "The server could not do it. Please try again."
    : `The server answered ${status}. Please try again.`;
}
