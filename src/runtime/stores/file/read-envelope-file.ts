/**
 * How the file store opens and reads its envelope: bounded, and only a regular file.
 *
 * The envelope's path is configured, and whoever can write the store's directory can put
 * anything under that name. Read as a plain `readFileSync(path)`, a symbolic link to
 * /dev/zero cost 38 s and 16.8 GB before failing, and a FIFO blocked start-up forever (the
 * open waits for a writer, out of reach of SIGTERM's handler). So:
 *   - O_NOFOLLOW: a symbolic link at the last component is refused (ELOOP), never followed;
 *   - O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer;
 *   - fstat on the open descriptor: a FIFO, a device, a socket or a directory is refused;
 *   - a size cap (MAX_ENVELOPE_BYTES, docs/stores.md): a larger file is refused from its
 *     fstat size, and the read itself stops one byte past the cap, so a file that grows
 *     while being read is refused too, never read whole.
 * A refusal is an EnvelopeRefused naming what is wrong; the store turns it into its error
 * (at start-up: the program does not run) and leaves the entry as it is.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/**
 * The largest envelope the store reads (and writes): 64 MiB, about 440,000 plain records
 * of the size docs/stores.md measures. The whole file is rewritten on every completion, so
 * a store anywhere near it is already far past what the file backend is for.
 */
export const MAX_ENVELOPE_BYTES = 64 * 1024 * 1024;

const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Why an entry at the envelope's path is not read; `problem` completes "Idempotency store X …". */
export class EnvelopeRefused extends Error {
  constructor(readonly problem: string) {
    super(problem);
  }
}

const kindOf = (s: ReturnType<typeof fstatSync>): string =>
  s.isFIFO() ? "a FIFO" : s.isCharacterDevice() || s.isBlockDevice() ? "a device" : s.isDirectory() ? "a directory" : s.isSocket() ? "a socket" : "not a regular file";

const tooLarge = (bytes: number | string): string =>
  `is ${bytes} bytes, more than a file store reads (${MAX_ENVELOPE_BYTES} bytes)`;

/**
 * Opens the envelope at `path` and reads it whole: its descriptor (open; the caller keeps
 * or closes it) and its text; undefined when there is no file.
 */
export const readEnvelopeFile = (path: string): { fd: number; text: string } | undefined => {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw new EnvelopeRefused("is a symbolic link, which the store does not follow");
    throw e;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new EnvelopeRefused(`is ${kindOf(stat)}, not a regular file`);
    if (stat.size > MAX_ENVELOPE_BYTES) throw new EnvelopeRefused(tooLarge(stat.size));
    // One byte more than fstat says, so the end is seen in one pass; a file that grows
    // meanwhile gets a larger buffer, up to one byte past the cap.
    let buf = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      if (length === buf.length) {
        if (length > MAX_ENVELOPE_BYTES) throw new EnvelopeRefused(`grew past ${MAX_ENVELOPE_BYTES} bytes while being read`);
        const larger = Buffer.allocUnsafe(Math.min(buf.length * 2, MAX_ENVELOPE_BYTES + 1));
        buf.copy(larger, 0, 0, length);
        buf = larger;
      }
      const n = readSync(fd, buf, length, buf.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return { fd, text: buf.toString("utf8", 0, length) };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
};
