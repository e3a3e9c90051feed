import type { Knex } from "knex";

// The address the running site announces (its PUBLIC_URL), kept where the CLI can read it: each web process writes
// it at start (src/boot.ts). A `haven` command that e-mails or prints a link uses PUBLIC_URL when it is given one,
// else the address the site announced, and refuses when neither is known: a link to localhost:3000 e-mailed from a
// shell without the site's settings reaches nobody (docs/decisions.md#47).

const KEY = "public_url";

/** Records the address this web process announces (the last web process to start wins). */
export async function recordSiteAddress(db: Knex, url: string): Promise<void> {
  await db("site_settings").insert({ key: KEY, value: url, updated_at: db.fn.now() }).onConflict("key").merge();
}

/** The address a web process announced, and when; null when none has (or the schema predates it). */
export async function announcedSiteAddress(db: Knex): Promise<{ url: string; at: Date } | null> {
  try {
    const row = await db("site_settings").where({ key: KEY }).first("value", "updated_at");
    return row ? { url: String(row.value), at: new Date(row.updated_at) } : null;
  } catch (error) {
    // undefined_table: a database not yet migrated to it.
    if ((error as { code?: string }).code === "42P01") return null;
    throw error;
  }
}

export interface SiteAddress {
  url: string;
  /** PUBLIC_URL given to this command, or the address a running web process announced. */
  source: "PUBLIC_URL" | "announced";
  /** The announced address when PUBLIC_URL was given and differs from it. */
  differs?: { url: string; at: Date };
}

/** Where links point: PUBLIC_URL when set here, else the announced address; null when neither is known. */
export async function siteAddress(db: Knex, source: NodeJS.ProcessEnv): Promise<SiteAddress | null> {
  const given = source.PUBLIC_URL?.trim().replace(/\/+$/, "");
  const announced = await announcedSiteAddress(db);
  if (given)
    return {
      url: given,
      source: "PUBLIC_URL",
      ...(announced && announced.url !== given ? { differs: announced } : {}),
    };
  return announced ? { url: announced.url, source: "announced" } : null;
}

/** The one line a command refuses with when it cannot know the site's address. */
export const NO_SITE_ADDRESS =
  "cannot tell the site's address for the link, so nothing was sent or changed: PUBLIC_URL is not set here and no running Haven web process has recorded its own (each does at start); set PUBLIC_URL to the address people reach Haven at, or run the command where the site runs (docker compose exec web haven …)";
