/** Fetch with the spec's error shape: a non-OK response throws "status: body text". */
export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: "include",
    headers: body === undefined ? { Accept: "application/json" } : { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
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
