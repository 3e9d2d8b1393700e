/**
 * How the file store opens the files it keeps open and writes in place (`<store>.lock`,
 * `<store>.claims`): never through a symbolic link, and only a regular file. Whoever can
 * write the store's directory could otherwise plant `idem.json.claims -> ~/.bashrc` and
 * have Luma overwrite the link's target with its claim table (or lock some other file).
 * O_NOFOLLOW refuses a link at the last component; the fstat refuses a FIFO, a device or a
 * directory planted under the name. Either is an error naming the path, which the store's
 * open reports as a startup error; the planted entry is left as it is.
 */
import { closeSync, constants, fstatSync, openSync } from "node:fs";

/** O_NOFOLLOW and O_NONBLOCK (a planted FIFO must not block the open) where the platform has them. */
const FLAGS = constants.O_RDWR | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

// A plain Error: the store's open wraps it into its startup error, naming the store as configured.
const refused = (path: string, why: string) => new Error(`${path} is ${why}, which the store does not open (left as it is)`);

/** Opens (creating it, mode 0600) the store's own file `path` for reading and writing. */
export const openOwnFile = (path: string): number => {
  let fd: number;
  try {
    fd = openSync(path, FLAGS, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ELOOP") throw refused(path, "a symbolic link");
    throw e;
  }
  let regular = false;
  try {
    regular = fstatSync(fd).isFile();
  } finally {
    if (!regular) closeSync(fd);
  }
  if (!regular) throw refused(path, "not a regular file");
  return fd;
};
