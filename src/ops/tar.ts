import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import type { Readable, Writable } from "node:stream";

// A minimal POSIX ustar writer and reader for base backups (src/ops/backup.ts): regular files and folders only.
// Written here rather than taken from a package because a live data directory changes while it is read: a file
// is written with the size it had when it was listed (padded with zeros if it shrank, cut if it grew), which
// PostgreSQL's WAL replay then repairs, as pg_basebackup does. GNU tar reads the archives too.

const BLOCK = 512;
const MAX_SIZE = 0o77777777777; // 11 octal digits: 8 GiB, far above PostgreSQL's 1 GiB segment files

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

/** Splits a path into ustar's prefix (155) and name (100) fields. */
function splitName(name: string): { prefix: string; name: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: "", name };
  for (let i = name.lastIndexOf("/"); i > 0; i = name.lastIndexOf("/", i - 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return { prefix, name: rest };
  }
  throw new Error(`path too long for a tar archive: ${name}`);
}

export function tarHeader(entry: {
  name: string;
  type: "file" | "dir";
  size: number;
  mode: number;
  mtime: Date;
}): Buffer {
  if (entry.size > MAX_SIZE) throw new Error(`file too large for a tar archive: ${entry.name}`);
  const header = Buffer.alloc(BLOCK, 0);
  const { prefix, name } = splitName(entry.type === "dir" && !entry.name.endsWith("/") ? `${entry.name}/` : entry.name);
  header.write(name, 0, 100, "utf8");
  header.write(octal(entry.mode & 0o7777, 8), 100, 8, "ascii");
  header.write(octal(0, 8), 108, 8, "ascii");
  header.write(octal(0, 8), 116, 8, "ascii");
  header.write(octal(entry.type === "file" ? entry.size : 0, 12), 124, 12, "ascii");
  header.write(octal(Math.floor(entry.mtime.getTime() / 1000), 12), 136, 12, "ascii");
  header.write("        ", 148, 8, "ascii");
  header.write(entry.type === "file" ? "0" : "5", 156, 1, "ascii");
  header.write("ustar\0", 257, 6, "ascii");
  header.write("00", 263, 2, "ascii");
  header.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return header;
}

/** Writes tar entries to a stream, honouring its backpressure. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private async put(chunk: Buffer): Promise<void> {
    if (!this.out.write(chunk)) await once(this.out, "drain");
  }

  async dir(name: string, mode = 0o700, mtime = new Date()): Promise<void> {
    await this.put(tarHeader({ name, type: "dir", size: 0, mode, mtime }));
  }

  async buffer(name: string, data: Buffer, mode = 0o600, mtime = new Date()): Promise<void> {
    await this.put(tarHeader({ name, type: "file", size: data.length, mode, mtime }));
    await this.put(data);
    await this.pad(data.length);
  }

  /**
   * Adds a file with exactly `size` bytes: what it holds now, cut at `size` or padded with zeros. Returns false
   * when the file vanished before it was opened (a table dropped meanwhile), and then writes nothing.
   */
  async file(name: string, source: string, size: number, mode: number, mtime: Date): Promise<boolean> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(source, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
    try {
      await this.put(tarHeader({ name, type: "file", size, mode, mtime }));
      let written = 0;
      if (size > 0) {
        for await (const chunk of createReadStream("", {
          fd: handle.fd,
          autoClose: false,
          start: 0,
          end: size - 1,
          highWaterMark: 1 << 20,
        })) {
          const data = chunk as Buffer;
          await this.put(data);
          written += data.length;
        }
      }
      if (written < size) await this.put(Buffer.alloc(size - written, 0));
      await this.pad(size);
      return true;
    } finally {
      await handle.close();
    }
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest) await this.put(Buffer.alloc(BLOCK - rest, 0));
  }

  /** The two zero blocks that end an archive. */
  async end(): Promise<void> {
    await this.put(Buffer.alloc(BLOCK * 2, 0));
  }
}

export interface TarEntry {
  name: string;
  type: "file" | "dir" | "other";
  size: number;
  mode: number;
}

const field = (block: Buffer, start: number, length: number) => {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
};
const numberField = (block: Buffer, start: number, length: number) =>
  Number.parseInt(field(block, start, length).trim() || "0", 8);

function parseHeader(block: Buffer): TarEntry {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] as number);
  if (sum !== numberField(block, 148, 8))
    throw new Error("the archive is damaged (a tar header's checksum does not match)");
  const prefix = field(block, 345, 155);
  const name = field(block, 0, 100);
  const flag = String.fromCharCode(block[156] as number);
  const type = flag === "0" || flag === "\0" ? "file" : flag === "5" ? "dir" : "other";
  return {
    name: prefix ? `${prefix}/${name}` : name,
    type,
    size: numberField(block, 124, 12),
    mode: numberField(block, 100, 8),
  };
}

/** Reads exact byte counts from a stream. */
class ByteReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private readonly iterator: AsyncIterator<Buffer>;
  private done = false;

  constructor(stream: Readable) {
    this.iterator = stream[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<boolean> {
    while (this.buffered < n && !this.done) {
      const next = await this.iterator.next();
      if (next.done) this.done = true;
      else {
        this.chunks.push(next.value);
        this.buffered += next.value.length;
      }
    }
    return this.buffered >= n;
  }

  /** Up to n bytes (fewer only at the end of the stream). */
  async read(n: number): Promise<Buffer> {
    await this.fill(n);
    const first = this.chunks[0];
    const all = first && first.length >= n ? first : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(out.length);
    this.chunks = rest.length
      ? [rest, ...(all === first ? this.chunks.slice(1) : [])]
      : all === first
        ? this.chunks.slice(1)
        : [];
    this.buffered -= out.length;
    return out;
  }

  /** Passes the next n bytes to `sink`, chunk by chunk. */
  async pipe(n: number, sink: (chunk: Buffer) => Promise<void>): Promise<void> {
    let left = n;
    while (left > 0) {
      if (!this.buffered && !(await this.fill(1))) throw new Error("the archive is cut short");
      const chunk = this.chunks.shift() as Buffer;
      const part = chunk.subarray(0, left);
      if (part.length < chunk.length) this.chunks.unshift(chunk.subarray(part.length));
      this.buffered -= part.length;
      left -= part.length;
      await sink(part);
    }
  }
}

/**
 * Reads a tar stream through to its end-of-archive blocks, writing nothing: its entries' names, types and sizes
 * (`tar --list`). Throws when it is cut short or a header is damaged.
 */
export async function listTar(stream: Readable): Promise<TarEntry[]> {
  const reader = new ByteReader(stream);
  const entries: TarEntry[] = [];
  for (;;) {
    const block = await reader.read(BLOCK);
    if (block.length < BLOCK) throw new Error("the archive is cut short (no end-of-archive blocks)");
    if (block.every((b) => b === 0)) return entries;
    const entry = parseHeader(block);
    entries.push(entry);
    await reader.pipe(Math.ceil(entry.size / BLOCK) * BLOCK, async () => undefined);
  }
}

/** The target of an entry inside `root`, refusing absolute paths and `..` (an archive never writes outside). */
function inside(root: string, name: string): string {
  const target = path.resolve(root, name);
  if (path.isAbsolute(name) || (target !== root && !target.startsWith(`${root}${path.sep}`)))
    throw new Error(`the archive holds a path outside its folder: ${name}`);
  return target;
}

/**
 * Extracts a tar stream into `root`: folders and regular files only. Entries named in `aside` are not written
 * but returned (the backup's description). Returns the number of files written.
 */
export async function extractTar(
  stream: Readable,
  root: string,
  aside: string[] = [],
): Promise<{ files: number; aside: Map<string, Buffer> }> {
  const reader = new ByteReader(stream);
  const base = path.resolve(root);
  const kept = new Map<string, Buffer>();
  let files = 0;
  let ended = false;
  for (;;) {
    const block = await reader.read(BLOCK);
    if (block.length < BLOCK) break;
    if (block.every((b) => b === 0)) {
      ended = true;
      break;
    }
    const entry = parseHeader(block);
    const padding = Math.ceil(entry.size / BLOCK) * BLOCK - entry.size;
    if (entry.type === "dir") {
      await mkdir(inside(base, entry.name), { recursive: true, mode: entry.mode || 0o700 });
    } else if (entry.type === "file" && aside.includes(entry.name)) {
      kept.set(entry.name, Buffer.from(await reader.read(entry.size)));
      await reader.read(padding);
    } else if (entry.type === "file") {
      const target = inside(base, entry.name);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const out = createWriteStream(target, { mode: entry.mode || 0o600 });
      await reader.pipe(entry.size, async (chunk) => {
        if (!out.write(chunk)) await once(out, "drain");
      });
      out.end();
      await once(out, "close");
      await reader.read(padding);
      files++;
    } else {
      throw new Error(`the archive holds an entry Haven does not restore (a link or device): ${entry.name}`);
    }
  }
  if (!ended) throw new Error("the archive is cut short (no end-of-archive blocks)");
  return { files, aside: kept };
}
