// What an audit event may hold (docs/decisions.md#39): the changed fields only, never a secret, and after an
// erasure no personal data (README "Secrets and personal data").

/** Keys never written: password hashes, tokens, secrets, card numbers (matched case-blind, anywhere in the key). */
const SECRET_KEY = /password|passwd|token|secret|hash|card_?number|cvc|cvv|totp|passkey|api_?key|access_?code/i;

/** Keys whose values are personal data, blanked when the person is erased. */
const PERSONAL_KEY =
  /(^|_|[a-z])(name|email|e_mail|phone|address|street|city|postal_?code|zip_?code|zip|notes?|instructions)$/i;

/** What an erased value becomes. */
export const ERASED = "[erased]";

export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);
export const isPersonalKey = (key: string): boolean => PERSONAL_KEY.test(key);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A value as JSON would store it, without secret keys at any depth. */
export function withoutSecrets(value: unknown): Json {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (typeof value === "object") {
    const out: { [key: string]: Json } = {};
    for (const [key, inner] of Object.entries(value)) {
      if (!isSecretKey(key) && inner !== undefined) out[key] = withoutSecrets(inner);
    }
    return out;
  }
  if (typeof value === "bigint") return value.toString();
  return value as Json;
}

const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Bookkeeping every write moves on: not a change anyone made. */
const WRITE_STAMPS = new Set(["updatedAt", "updated_at", "version"]);

/**
 * The fields that changed, each side keeping only those (secrets left out). A creation has no before, a
 * deletion no after; two equal records give `{before: {}, after: {}}`.
 */
export function changedFields(
  before: object | null | undefined,
  after: object | null | undefined,
): { before: Json; after: Json } {
  const b = before ? (withoutSecrets(before) as { [key: string]: Json }) : null;
  const a = after ? (withoutSecrets(after) as { [key: string]: Json }) : null;
  if (!b || !a) return { before: b, after: a };
  const keys = new Set([...Object.keys(b), ...Object.keys(a)]);
  const changedBefore: { [key: string]: Json } = {};
  const changedAfter: { [key: string]: Json } = {};
  for (const key of keys) {
    if (WRITE_STAMPS.has(key) || same(b[key], a[key])) continue;
    if (key in b) changedBefore[key] = b[key]!;
    if (key in a) changedAfter[key] = a[key]!;
  }
  return { before: changedBefore, after: changedAfter };
}

/**
 * The person's strings as whole values: "jo@example.com" is found in "Call jo@example.com" but never inside
 * "bjo@example.com" (the exact-match rule of privacy's erasure, src/modules/privacy/README.md).
 */
export function personalPattern(strings: readonly string[]): RegExp | null {
  const usable = [...new Set(strings.map((s) => s.trim()).filter((s) => s.length >= 3))];
  if (!usable.length) return null;
  const escaped = usable
    .sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|");
  return new RegExp(`(?<![\\p{L}\\p{N}_.@+-])(?:${escaped})(?![\\p{L}\\p{N}_@-]|\\.[\\p{L}\\p{N}])`, "giu");
}

/**
 * An event's JSON with the person's data removed: in an event about their own records (`own`), values of
 * personal keys become ERASED; anywhere, their strings (an e-mail, a name, a phone number, an address) are
 * replaced where they stand as whole values or words.
 */
export function erasePersonal(value: Json, pattern: RegExp | null, own: boolean, key = ""): Json {
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((item) => erasePersonal(item, pattern, own, key));
  if (typeof value === "object") {
    const out: { [k: string]: Json } = {};
    for (const [k, inner] of Object.entries(value)) out[k] = erasePersonal(inner, pattern, own, k);
    return out;
  }
  if (typeof value !== "string") return value;
  if (own && key && isPersonalKey(key)) return ERASED;
  return pattern ? value.replace(pattern, ERASED) : value;
}

export type { Json };
