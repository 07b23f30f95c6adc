// Reading an input file (config, emulator seed, saved plan) with bounds: only a regular file
// (`--config /dev/zero` used to grow to 6.8 GB; a FIFO would block forever), and at most
// MAX_INPUT_BYTES, counted while reading, so a file that grows or lies about its size is still
// refused. The caller turns the refusal into its own error at the file's first line.
import { open, stat } from "node:fs/promises";

/** The largest input file read (config files, seeds, saved plans): 20 MB. */
export const MAX_INPUT_BYTES = 20 * 1024 * 1024;

export type BoundedRead = { ok: true; bytes: Buffer } | { ok: false; reason: string };

export async function readBoundedFile(path: string, maxBytes = MAX_INPUT_BYTES): Promise<BoundedRead> {
  try {
    // stat first: opening a FIFO would wait for a writer.
    const refused = refusal(await stat(path), maxBytes);
    if (refused !== undefined) return { ok: false, reason: refused };
    const handle = await open(path, "r");
    try {
      const info = await handle.stat();
      const again = refusal(info, maxBytes);
      if (again !== undefined) return { ok: false, reason: again };
      const chunks: Buffer[] = [];
      let size = 0;
      for (;;) {
        // Sized to the file (and one byte more, to see its end) rather than 1 MB each: a config
        // naming 4,000 small template files would otherwise allocate 4 GB for the collector.
        const wanted = Math.max(4096, info.size + 1 - size);
        const chunk = Buffer.alloc(Math.min(1024 * 1024, maxBytes + 1 - size, wanted));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        chunks.push(chunk.subarray(0, bytesRead));
        size += bytesRead;
        if (size > maxBytes) return { ok: false, reason: tooLarge(maxBytes) };
        // A regular file reads short only at its end: no second read (one more round trip on
        // libuv's threads per template file) just to be told so.
        if (bytesRead < chunk.length) break;
      }
      return { ok: true, bytes: Buffer.concat(chunks) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EISDIR") return { ok: false, reason: "is a directory" };
    if (code === "ENOENT") return { ok: false, reason: "does not exist" };
    return { ok: false, reason: "cannot be read" };
  }
}

function refusal(info: { isFile(): boolean; isDirectory(): boolean; size: number }, maxBytes: number) {
  if (info.isDirectory()) return "is a directory";
  if (!info.isFile()) return "is not a regular file (a device, a pipe or a socket)";
  if (info.size > maxBytes) return tooLarge(maxBytes);
  return undefined;
}

function tooLarge(maxBytes: number): string {
  return `is larger than ${maxBytes / (1024 * 1024)} MB, the most notiform reads from one file`;
}
