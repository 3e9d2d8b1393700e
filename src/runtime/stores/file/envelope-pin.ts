/**
 * Which version of the envelope file the file store holds in memory, told by the file's
 * identity instead of by reading its header.
 *
 * The store keeps the descriptor of the version it last read or wrote open. While that
 * descriptor is open the inode cannot be freed, so its number cannot be reused by a newer
 * file; and every writer replaces the envelope by renaming a new file over it (durable-write.ts),
 * which gives the path a new inode. So "the path still names the inode we hold" is exactly
 * "no one wrote the envelope since" — one stat, where reading the header took open + read +
 * close. A file deleted, moved aside or replaced by hand reads as changed too; so does one
 * written in place (by hand: no writer does that), by its size, mtime and ctime, as far as
 * the filesystem's timestamps can tell (reading the header could not see damage past its
 * first bytes either).
 *
 * The fields are compared as bigints: exact on filesystems with 64-bit inode numbers.
 *
 * Letting go of a replaced version drops the last reference to an unlinked inode, so the
 * kernel frees it in that close (~85 µs on ext4 here): the cost a plain rename-over pays
 * inside the rename, moved, not added. (Closing it off-thread was measured slower: the free
 * then contends with the next write's fsync for the journal.)
 */
import { closeSync, fstatSync, statSync, type BigIntStats } from "node:fs";
import { readEnvelopeFile } from "./read-envelope-file";

export class EnvelopePin {
  private fd: number | undefined = undefined;
  private held: BigIntStats | undefined = undefined;

  /** Holds `fd`, the version now in memory (fully written and in place), and lets go of the one held before. */
  hold(fd: number): void {
    this.release();
    try {
      this.held = fstatSync(fd, { bigint: true });
      this.fd = fd;
    } catch {
      closeQuietly(fd); // unknown identity: the next check reads the file again
    }
  }

  /** Whether `path` names the held version, unchanged (false when nothing is held or the path is gone). */
  isCurrent(path: string): boolean {
    const held = this.held;
    if (held === undefined) return false;
    const now = statSync(path, { bigint: true, throwIfNoEntry: false });
    return (
      now !== undefined && now.ino === held.ino && now.dev === held.dev && now.size === held.size && now.mtimeNs === held.mtimeNs && now.ctimeNs === held.ctimeNs
    );
  }

  /**
   * The text at `path`, read through a descriptor that is then held (the version about to be
   * in memory); undefined, holding nothing, when there is no file. Opened and read bounded,
   * a regular file only (read-envelope-file.ts): anything else throws EnvelopeRefused.
   */
  readAndHold(path: string): string | undefined {
    const read = readEnvelopeFile(path);
    if (read === undefined) {
      this.release();
      return undefined;
    }
    this.hold(read.fd);
    return read.text;
  }

  release(): void {
    if (this.fd === undefined) return;
    closeQuietly(this.fd);
    this.fd = undefined;
    this.held = undefined;
  }
}

const closeQuietly = (fd: number): void => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
};
