/**
 * Files as Telegram keeps them: what the bot uploaded or the user sent gets a file_id that can be
 * sent again, asked for with getFile and downloaded from /file/bot<token>/<file_path>.
 */
import type { Message, PhotoSize } from "grammy/types";
import { pngSize } from "../../render/png.js";
import type { UploadedFile } from "./requestDecoding.js";

interface StoredFile {
  bytes?: Buffer;
  path: string;
  size?: number;
}

/** The files as snapshot() saves them. */
export interface SavedFiles {
  counter: number;
  files: [string, { path: string; size?: number; base64?: string }][];
}

export class StoredFiles {
  private counter = 0;
  private readonly files = new Map<string, StoredFile>();

  /** Registers an uploaded or sent file and returns its file_id (an id already known is kept). */
  store(kind: string, bytes: Buffer | undefined, existingId?: string): string {
    if (existingId !== undefined && this.files.has(existingId)) return existingId;
    const id = existingId ?? `fake-${kind}-${++this.counter}`;
    this.files.set(id, {
      ...(bytes ? { bytes, size: bytes.length } : {}),
      path: `${kind}s/file_${this.counter}.${kind === "photo" ? "jpg" : "dat"}`,
    });
    return id;
  }

  /** Every file as plain JSON (bytes in base64), and back: a restart keeps the file_ids the bot holds. */
  snapshot(): SavedFiles {
    return {
      counter: this.counter,
      files: [...this.files.entries()].map(([id, f]) => [id, { path: f.path, ...(f.size !== undefined ? { size: f.size } : {}), ...(f.bytes ? { base64: f.bytes.toString("base64") } : {}) }]),
    };
  }

  restore(saved: SavedFiles): void {
    this.counter = Math.max(this.counter, saved.counter);
    for (const [id, f] of saved.files) {
      this.files.set(id, { path: f.path, ...(f.size !== undefined ? { size: f.size } : {}), ...(f.base64 !== undefined ? { bytes: Buffer.from(f.base64, "base64") } : {}) });
    }
  }

  get(fileId: string): StoredFile | undefined {
    return this.files.get(fileId);
  }

  bytes(fileId: string): Buffer | undefined {
    return this.files.get(fileId)?.bytes;
  }

  /** The bytes behind a download path (getFile's file_path). */
  bytesAt(path: string): Buffer | undefined {
    for (const f of this.files.values()) if (f.path === path) return f.bytes;
    return undefined;
  }

  /**
   * A photo the user sends: stores the bytes and returns the message's `photo` sizes, largest
   * last. Every size's file_id is kept (one set of bytes for all), so the bot can send, group or
   * getFile any of them.
   */
  storeUserPhoto(bytes: Buffer): PhotoSize[] {
    const fileId = this.store("photo", bytes);
    const sizes = photoSizes(
      { file_id: fileId, file_unique_id: uniqueIdOf(fileId), file_size: bytes.length },
      imageSize(bytes) ?? { width: 800, height: 800 },
    );
    const { path } = this.files.get(fileId)!;
    for (const s of sizes) if (!this.files.has(s.file_id)) this.files.set(s.file_id, { bytes, size: bytes.length, path: path.replace(/(\.\w+)$/, `_${s.width}$1`) });
    return sizes;
  }

  /**
   * The media part of a Message for a send or edit of `kind` (photo, document, ...): `value` is
   * the request's field (a file_id or `attach://`), `upload` the file uploaded with it.
   */
  media(kind: string, value: unknown, upload: UploadedFile | undefined): { fields: Partial<Message>; file?: UploadedFile } {
    const existingId = typeof value === "string" && !value.startsWith("attach://") ? value : undefined;
    const bytes = upload?.bytes ?? (existingId ? this.files.get(existingId)?.bytes : undefined);
    const fileId = this.store(kind, bytes, existingId);
    const file = bytes ? { bytes, ...(upload?.filename ? { filename: upload.filename } : {}) } : undefined;
    const base = { file_id: fileId, file_unique_id: uniqueIdOf(fileId), ...(bytes ? { file_size: bytes.length } : {}) };
    let fields: Partial<Message>;
    switch (kind) {
      case "photo": {
        const size = imageSize(bytes) ?? { width: 800, height: 800 };
        fields = { photo: photoSizes(base, size) };
        break;
      }
      case "document":
        fields = {
          document: {
            ...base,
            file_name: upload?.filename ?? "document.dat",
            mime_type: upload?.filename?.endsWith(".pdf") ? "application/pdf" : "application/octet-stream",
          },
        };
        break;
      default:
        fields = { [kind]: { ...base } } as Partial<Message>;
    }
    return { fields, ...(file ? { file } : {}) };
  }
}

export function uniqueIdOf(fileId: string): string {
  return `u${Buffer.from(fileId).toString("base64url").slice(-12)}`;
}

/** Reads width/height from a PNG header or a JPEG frame header (SOFn), if the bytes are one. */
export function imageSize(bytes: Buffer | undefined): { width: number; height: number } | undefined {
  if (!bytes) return undefined;
  const png = pngSize(bytes);
  if (png) return png;
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  // JPEG: walk the marker segments to the first start-of-frame (C0-CF except C4 DHT, C8, CC DAC).
  let pos = 2;
  while (pos + 9 < bytes.length) {
    if (bytes[pos] !== 0xff) return undefined;
    const marker = bytes[pos + 1]!;
    if (marker === 0xff) {
      pos++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2; // markers without a length
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(pos + 5), width: bytes.readUInt16BE(pos + 7) };
    }
    pos += 2 + bytes.readUInt16BE(pos + 2);
  }
  return undefined;
}

/** Telegram returns several scaled sizes of an uploaded photo, the largest last. */
function photoSizes(base: { file_id: string; file_unique_id: string; file_size?: number }, size: { width: number; height: number }): PhotoSize[] {
  const longest = Math.max(size.width, size.height, 1);
  const limits = [90, 320, 800, 1280].filter((l) => l < longest);
  const sizes = limits.map((l, i) => ({
    file_id: `${base.file_id}-${i}`,
    file_unique_id: `${base.file_unique_id}${i}`,
    width: Math.round((size.width * l) / longest),
    height: Math.round((size.height * l) / longest),
  }));
  const fullWidth = Math.round((size.width * Math.min(longest, 2560)) / longest);
  const fullHeight = Math.round((size.height * Math.min(longest, 2560)) / longest);
  return [...sizes, { ...base, width: fullWidth, height: fullHeight }];
}
