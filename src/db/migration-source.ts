import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Knex } from "knex";

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../migrations");

/**
 * Knex's own loader uses require() on .ts files, which breaks under vitest. This source lists the
 * folder and loads each file with a dynamic import, which works under tsx, vitest and node alike.
 */
export class FolderMigrationSource implements Knex.MigrationSource<string> {
  constructor(private readonly dir = MIGRATIONS_DIR) {}

  async getMigrations(): Promise<string[]> {
    return readdirSync(this.dir)
      .filter((file) => /^\d{14}_[\w-]+\.ts$/.test(file))
      .sort();
  }

  getMigrationName(migration: string): string {
    return migration;
  }

  async getMigration(migration: string): Promise<Knex.Migration> {
    return import(pathToFileURL(path.join(this.dir, migration)).href);
  }
}

/** A migration's name as people read it: the file name without its extension. */
export function migrationLabel(name: string): string {
  return name.replace(/\.[cm]?[jt]s$/, "");
}
