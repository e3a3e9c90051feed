/**
 * Fixed-window counter of failed logins per key (IP and e-mail). Kept in memory: a limit per web
 * process is enough to stop password guessing, and sessions stay stateless.
 */
export class LoginRateLimiter {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly maxFailures = 10,
    private readonly windowMs = 15 * 60 * 1000,
  ) {}

  isBlocked(key: string, now = Date.now()): boolean {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) return false;
    return entry.count >= this.maxFailures;
  }

  recordFailure(key: string, now = Date.now()): void {
    const entry = this.failures.get(key);
    if (!entry || entry.resetAt <= now) this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
    else entry.count += 1;
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}
