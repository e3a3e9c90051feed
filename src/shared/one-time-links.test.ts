import { describe, expect, it } from "vitest";
import { hashToken, isToken, newBinding, newToken, openLink, redactLinkTokens, sameBrowser } from "./one-time-links.js";

const link = (
  over: Partial<{
    revoked: boolean;
    expiresAt: string;
    claimedAt: string | null;
    browserBinding: string | null;
    completedAt: string | null;
  }> = {},
) => ({
  revoked: false,
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  claimedAt: null as string | null,
  browserBinding: null as string | null,
  completedAt: null as string | null,
  ...over,
});

describe("one-time link tokens", () => {
  it("are 32 random bytes in base64url; only a SHA-256 hex digest is kept", () => {
    const token = newToken();
    expect(isToken(token)).toBe(true);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(newToken()).not.toBe(token);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(isToken("sample")).toBe(false);
    expect(isToken(`${token}x`)).toBe(false);
  });

  it("bind a browser by the hash of its cookie", () => {
    const binding = newBinding();
    expect(sameBrowser(binding.cookie, binding.hash)).toBe(true);
    expect(sameBrowser(newBinding().cookie, binding.hash)).toBe(false);
    expect(sameBrowser(undefined, binding.hash)).toBe(false);
    expect(sameBrowser(binding.cookie, null)).toBe(false);
  });

  it("open for the claiming browser only, and never when revoked, expired or spent", async () => {
    const fresh = link();
    const claimed = await openLink(
      async () => fresh,
      async (hash) => ({ ...fresh, claimedAt: "now", browserBinding: hash }),
      [],
    );
    expect("row" in claimed && claimed.binding).toEqual(expect.any(String));
    const cookie = "row" in claimed ? claimed.binding! : "";
    const bound = link({ claimedAt: "now", browserBinding: hashToken(cookie) });
    expect("row" in (await openLink(async () => bound, null, [cookie]))).toBe(true);
    expect(await openLink(async () => bound, null, ["other"])).toEqual({ gone: true });
    // Lost the race: the winner's row comes back, and this browser is not the winner.
    expect(
      await openLink(
        async () => bound,
        async () => null,
        [],
      ),
    ).toEqual({ gone: true });
    expect(await openLink(async () => ({ ...bound, revoked: true }), null, [cookie])).toEqual({ gone: true });
    expect(
      await openLink(async () => ({ ...bound, expiresAt: new Date(Date.now() - 1).toISOString() }), null, [cookie]),
    ).toEqual({ gone: true });
    expect(await openLink(async () => ({ ...bound, completedAt: "then" }), null, [cookie])).toEqual({ gone: true });
    expect(await openLink(async () => null, null, [cookie])).toEqual({ gone: true });
  });

  it("never reach a log line", () => {
    const token = newToken();
    expect(redactLinkTokens(`/client-report/${token}`)).toBe("/client-report/[token]");
    expect(redactLinkTokens(`/api/client-report/${token}/responses`)).toBe("/api/client-report/[token]/responses");
    expect(redactLinkTokens(`/quote-report/${token}?a=1`)).toBe("/quote-report/[token]?a=1");
    expect(redactLinkTokens("/client-report/sample")).toBe("/client-report/sample");
    expect(redactLinkTokens("/pricing")).toBe("/pricing");
  });
});
