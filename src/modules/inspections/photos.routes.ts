import express, { type RequestHandler, type Router } from "express";
import { z } from "zod";
import { NotFoundError, ValidationError } from "../../http/errors.js";
import { idParams } from "../../http/fields.js";
import { requireStaffApi } from "../../http/guards.js";
import { body, params } from "../../http/validate.js";
import { MAX_PHOTO_BYTES } from "./photos.constants.js";
import type { PhotosService } from "./photos.service.js";
import { createRouter } from "../../http/router.js";

/** Entries may embed photos as data URLs (staff-side §3): room for a chunk of five with a few each. */
export const LARGE_JSON_LIMIT = 50 * 1024 * 1024;

/**
 * Body parsers for the photo and entry calls, mounted in app.ts before the app-wide 1 MB JSON parser
 * (which then leaves the parsed body alone): image bytes as a raw body, and JSON that may carry data URLs.
 * The session guard runs later, so a caller without a session cookie gets nothing big parsed.
 */
export function photoBodyParsers(): RequestHandler[] {
  return [
    express.raw({ type: ["image/*", "application/octet-stream"], limit: MAX_PHOTO_BYTES }),
    express.json({ limit: LARGE_JSON_LIMIT }),
  ].map(
    (parser): RequestHandler =>
      (req, res, next) => {
        const ours = req.path === "/api/photos" || req.path.startsWith("/api/inspection-categories");
        // Only a live staff session (checked before the parsers) may send a body this large.
        return ours && req.staffUser ? parser(req, res, next) : next();
      },
  );
}

const photoParams = idParams;
const dataUrlBody = z.object({
  data: z.string({ message: "data must be an image data URL" }).min(1, "data must be an image data URL"),
  clientId: z.string().optional(),
});

// A photo never changes under its id: let the browser keep it (privately, it is staff-only).
const IMMUTABLE = "private, max-age=31536000, immutable";

/** What the photo API uses; src/app.ts passes it (docs/architecture.md "Modules and layers"). */
export interface PhotosApiDeps {
  photos: PhotosService;
}

export function photosApi(deps: PhotosApiDeps): Router {
  const router = createRouter();
  router.use("/photos", requireStaffApi);

  /**
   * Upload one photo: the image bytes as the body (Content-Type image/jpeg, image/png or image/webp;
   * the client id in X-Client-Id), or JSON `{ data: "data:image/…;base64,…", clientId }`.
   */
  router.post("/photos", async (req, res) => {
    let stored: Awaited<ReturnType<typeof deps.photos.ingest>>;
    if (Buffer.isBuffer(req.body)) {
      const clientId = req.get("x-client-id") ?? undefined;
      stored = await deps.photos.ingest(req.body, clientId);
    } else if (req.is("application/json")) {
      const input = body(req, dataUrlBody);
      stored = await deps.photos.ingest(input.data, input.clientId, "data");
    } else {
      throw new ValidationError("Send the photo as image bytes or as JSON with a data URL", {
        photo: "Content-Type must be image/jpeg, image/png, image/webp or application/json",
      });
    }
    res.status(201).json(stored);
  });

  router.get("/photos/:id", async (req, res) => {
    const { id } = params(req, photoParams);
    const photo = await deps.photos.load(id);
    if (!photo) throw new NotFoundError("Photo not found");
    res.set("Cache-Control", IMMUTABLE).type(photo.mimeType).send(photo.bytes);
  });

  router.get("/photos/:id/thumbnail", async (req, res) => {
    const { id } = params(req, photoParams);
    const photo = await deps.photos.loadThumbnail(id);
    if (!photo) throw new NotFoundError("Photo not found");
    res.set("Cache-Control", IMMUTABLE).type(photo.mimeType).send(photo.bytes);
  });
  return router;
}
