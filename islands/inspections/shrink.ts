// The browser shrinks each photo before it is kept and sent (docs/decisions.md#9 and #17): the EXIF
// orientation applied, at most 2048 px, re-encoded as JPEG (which also drops its metadata, location included).
import { MAX_PHOTO_EDGE } from "../../src/modules/inspections/photos.constants";
import type { LocalPhoto } from "./model";

export const isImageFile = (file: File) => file.type.startsWith("image/");

/** The shrunk JPEG, or null when the browser cannot read the file as an image. */
export async function shrinkPhoto(file: Blob, maxEdge = MAX_PHOTO_EDGE): Promise<Blob | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return null;
  }
  const scale = Math.min(1, maxEdge / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  if (!context) return null;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), "image/jpeg", 0.85));
}

/** Reads the chosen files: images only (others skipped), each shrunk and given a client id. */
export async function readPhotos(
  files: File[],
  inspectionId: number,
): Promise<{ photos: LocalPhoto[]; skipped: number }> {
  const photos: LocalPhoto[] = [];
  let skipped = 0;
  for (const file of files) {
    const blob = isImageFile(file) ? await shrinkPhoto(file) : null;
    if (!blob) {
      skipped++;
      continue;
    }
    photos.push({ clientId: newClientId(), inspectionId, blob });
  }
  return { photos, skipped };
}

/** A photo's id on this device, which the server keeps too (a retried upload changes nothing). */
export function newClientId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
