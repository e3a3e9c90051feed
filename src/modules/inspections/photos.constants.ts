// Photo limits (docs/decisions.md#9 and #17). Islands import this file: plain values only.

/** The largest upload the API takes, before shrinking: a phone's full-size JPEG fits easily. */
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
/**
 * The most pixels the server decodes: a 50 MP phone camera (8160×6144 rounds to 50) fits; a small file
 * that unpacks to a huge image (16000×16000 is 256 MP, hundreds of MB to decode) is refused from its header.
 */
export const MAX_PHOTO_MEGAPIXELS = 50;
/** How many photos one process decodes at once; the others wait their turn instead of filling memory. */
export const MAX_CONCURRENT_DECODES = 2;
/** Longest edge of a stored photo, in the browser and on the server. */
export const MAX_PHOTO_EDGE = 2048;
/** Longest edge of a thumbnail (WebP). */
export const THUMBNAIL_EDGE = 320;
/** The types the server takes, checked by magic bytes. */
export const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
/** A browser's id for one photo upload: a retry with the same id is a no-op. */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

export const photoUrl = (id: number) => `/api/photos/${id}`;
export const thumbnailUrl = (id: number) => `/api/photos/${id}/thumbnail`;
/** '/api/photos/12' (or an absolute URL ending so) → 12; anything else → null. */
export function photoIdFromUrl(value: string): number | null {
  const match = /^(?:https?:\/\/[^/]+)?\/api\/photos\/(\d{1,10})(?:\/thumbnail)?$/.exec(value);
  return match ? Number(match[1]) : null;
}
