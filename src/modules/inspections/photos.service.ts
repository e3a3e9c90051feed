import { createHash } from "node:crypto";
import { HttpError, ValidationError } from "../../http/errors.js";
import {
  CLIENT_ID_PATTERN,
  MAX_CONCURRENT_DECODES,
  MAX_PHOTO_BYTES,
  MAX_PHOTO_EDGE,
  MAX_PHOTO_MEGAPIXELS,
  PHOTO_TYPES,
  THUMBNAIL_EDGE,
  photoUrl,
  thumbnailUrl,
} from "./photos.constants.js";
import type { PhotoMeta, PhotosRepository } from "./photos.repository.js";

export interface StoredPhoto {
  id: number;
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
}

export class PhotoTooLargeError extends HttpError {
  constructor() {
    super(413, `A photo may be at most ${MAX_PHOTO_BYTES / 1024 / 1024} MB`);
  }
}

/** Megapixels as people say them: 8160×6144 is "50", 16000×16000 is "256". */
export const megapixels = (width: number, height: number) => Math.round((width * height) / 1_000_000);
/** sharp's own ceiling, a backstop behind the header check: anything that rounds to the limit. */
const MAX_INPUT_PIXELS = (MAX_PHOTO_MEGAPIXELS + 0.5) * 1_000_000 - 1;

/**
 * Runs at most `limit` tasks at once; the others wait in arrival order. A finishing task hands its
 * place straight to the next one waiting.
 */
export function concurrencyLimit(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < limit) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

// One queue per process: a burst of uploads decodes a few at a time instead of all at once.
const decodeSlot = concurrencyLimit(MAX_CONCURRENT_DECODES);

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(;[\w=.+-]+)*;base64,/i;

/** The bytes of a data URL ('data:image/png;base64,…'); 400 when it is not one, 413 when too large. */
export function bytesOfDataUrl(value: string, field = "photo"): Buffer {
  const head = DATA_URL.exec(value.slice(0, 200));
  if (!head)
    throw new ValidationError("A photo must be an image data URL", {
      [field]: "Must be a base64 image data URL (data:image/…;base64,…)",
    });
  const base64 = value.slice(head[0].length);
  // Refuse before decoding: base64 is 4 characters per 3 bytes.
  if ((base64.length * 3) / 4 > MAX_PHOTO_BYTES + 3) throw new PhotoTooLargeError();
  if (!/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/.test(base64))
    throw new ValidationError("A photo must be an image data URL", { [field]: "The base64 data is not valid" });
  return Buffer.from(base64, "base64");
}

const toStored = (photo: PhotoMeta): StoredPhoto => ({
  id: photo.id,
  url: photoUrl(photo.id),
  thumbnailUrl: thumbnailUrl(photo.id),
  width: photo.width,
  height: photo.height,
});

/** What PhotosService uses; src/container.ts builds them. */
export interface PhotosDeps {
  photos: PhotosRepository;
}

/**
 * Photos of inspection entries (docs/decisions.md#9 and #17): the real type from the magic bytes,
 * the EXIF orientation applied, at most 2048 px, no metadata kept (location included), a 320 px WebP
 * thumbnail, and each distinct upload stored once.
 */
export class PhotosService {
  private readonly photos: PhotosRepository;

  constructor(deps: PhotosDeps) {
    this.photos = deps.photos;
  }

  async ingest(input: Buffer | string, clientId?: string, field = "photo"): Promise<StoredPhoto> {
    if (clientId !== undefined && !CLIENT_ID_PATTERN.test(clientId)) {
      throw new ValidationError("The photo's client id is not valid", {
        clientId: "Must be 8 to 100 letters, digits, - or _",
      });
    }
    // A retried upload: the answer of the first one, whatever the bytes.
    if (clientId) {
      const known = await this.photos.findByClientId(clientId);
      if (known) return toStored(known);
    }
    const original = typeof input === "string" ? bytesOfDataUrl(input, field) : input;
    if (original.length > MAX_PHOTO_BYTES) throw new PhotoTooLargeError();
    if (!original.length) throw new ValidationError("The photo is empty", { [field]: "The photo is empty" });
    // file-type and sharp load with the first photo: the server and every `haven` command start faster.
    const { fileTypeFromBuffer } = await import("file-type");
    const type = await fileTypeFromBuffer(original);
    if (!type || !(PHOTO_TYPES as readonly string[]).includes(type.mime)) {
      throw new ValidationError("Only JPEG, PNG or WebP photos are accepted", {
        [field]: "Only JPEG, PNG or WebP photos are accepted",
      });
    }
    const sha256 = createHash("sha256").update(original).digest("hex");
    const stored =
      (await this.photos.findByHash(sha256)) ??
      (await this.photos.insertOnce({ sha256, ...(await this.shrink(original, type.mime, field)) }));
    if (clientId) await this.photos.rememberClientId(clientId, stored.id);
    return toStored(stored);
  }

  /** The stored (shrunk) image, for viewers and PDFs. */
  async load(id: number): Promise<{ mimeType: string; bytes: Buffer } | null> {
    return (await this.photos.loadBytes(id)) ?? null;
  }

  async loadThumbnail(id: number): Promise<{ mimeType: string; bytes: Buffer } | null> {
    const row = await this.photos.loadThumbnail(id);
    return row ? { mimeType: "image/webp", bytes: row.bytes } : null;
  }

  /** The ids among `ids` that are stored photos. */
  existing(ids: number[]): Promise<Set<number>> {
    return this.photos.existing(ids);
  }

  /**
   * Rotates by EXIF, caps the longest edge, drops every metadata block (sharp keeps none unless asked),
   * and makes the thumbnail. PDFs take JPEG and PNG only, so a WebP is stored as JPEG; a PNG stays PNG.
   */
  private async shrink(original: Buffer, mime: string, field: string) {
    const { default: sharp } = await import("sharp");
    const damaged = () =>
      new ValidationError("The photo could not be read", { [field]: "The image data is damaged or incomplete" });
    // The header alone says how big the decoded image would be: refuse before decoding a single pixel.
    const { width, height } = await sharp(original)
      .metadata()
      .catch(() => ({ width: 0, height: 0 }));
    if (!width || !height) throw damaged();
    const size = megapixels(width, height);
    if (size > MAX_PHOTO_MEGAPIXELS) {
      const message = `Photo is too large: ${size} megapixels; the limit is ${MAX_PHOTO_MEGAPIXELS}`;
      throw new ValidationError(message, { [field]: message });
    }
    return decodeSlot(async () => {
      try {
        const pipeline = sharp(original, { failOn: "error", limitInputPixels: MAX_INPUT_PIXELS })
          .rotate()
          .resize({ width: MAX_PHOTO_EDGE, height: MAX_PHOTO_EDGE, fit: "inside", withoutEnlargement: true });
        const output =
          mime === "image/png" ? pipeline.png({ compressionLevel: 8 }) : pipeline.jpeg({ quality: 85, mozjpeg: true });
        const { data: bytes, info } = await output.toBuffer({ resolveWithObject: true });
        const thumbnail = await sharp(bytes)
          .resize({ width: THUMBNAIL_EDGE, height: THUMBNAIL_EDGE, fit: "inside", withoutEnlargement: true })
          .webp({ quality: 70 })
          .toBuffer();
        return {
          mimeType: mime === "image/png" ? "image/png" : "image/jpeg",
          width: info.width,
          height: info.height,
          bytes,
          thumbnail,
        };
      } catch {
        throw damaged();
      }
    });
  }
}
