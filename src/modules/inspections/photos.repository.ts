import type { Knex } from "knex";

export interface PhotoMeta {
  id: number;
  mimeType: string;
  width: number;
  height: number;
}

export interface NewPhoto {
  sha256: string;
  mimeType: string;
  width: number;
  height: number;
  bytes: Buffer;
  thumbnail: Buffer;
}

const META = ["id", "mime_type as mimeType", "width", "height"];

/** Photos and their upload client ids (tables photos, photo_uploads). */
export class PhotosRepository {
  constructor(private readonly db: Knex) {}

  findByHash(sha256: string): Promise<PhotoMeta | undefined> {
    return this.db("photos").where({ sha256 }).first(META);
  }

  async findByClientId(clientId: string): Promise<PhotoMeta | undefined> {
    return this.db("photo_uploads as u")
      .join("photos as p", "p.id", "u.photo_id")
      .where("u.client_id", clientId)
      .first(META.map((c) => `p.${c}`));
  }

  /** Inserts the photo unless the same bytes are stored already; either way answers the stored row. */
  async insertOnce(photo: NewPhoto): Promise<PhotoMeta> {
    await this.db("photos")
      .insert({
        sha256: photo.sha256,
        mime_type: photo.mimeType,
        width: photo.width,
        height: photo.height,
        byte_size: photo.bytes.length,
        bytes: photo.bytes,
        thumbnail: photo.thumbnail,
      })
      .onConflict("sha256")
      .ignore();
    return (await this.findByHash(photo.sha256))!;
  }

  async rememberClientId(clientId: string, photoId: number): Promise<void> {
    await this.db("photo_uploads").insert({ client_id: clientId, photo_id: photoId }).onConflict("client_id").ignore();
  }

  loadBytes(id: number): Promise<{ mimeType: string; bytes: Buffer } | undefined> {
    return this.db("photos").where({ id }).first("mime_type as mimeType", "bytes");
  }

  loadThumbnail(id: number): Promise<{ bytes: Buffer } | undefined> {
    return this.db("photos").where({ id }).first("thumbnail as bytes");
  }

  /** The ids among `ids` that exist. */
  async existing(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows: { id: number }[] = await this.db("photos").whereIn("id", ids).select("id");
    return new Set(rows.map((r) => r.id));
  }
}
