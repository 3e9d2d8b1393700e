/**
 * Who holds a claim or a run lease, told by the holder's own token, so that a store can
 * check on this machine whether the holder still runs — without trusting its heartbeat.
 *
 * A heartbeat is a timer on the owner's main thread: a handler that blocks that thread (a
 * synchronous SDK, a big parse, `Atomics.wait`, a busy loop) stops it, and the lease runs
 * out while the owner is alive and about to do its side effect. So every fencing token
 * carries its owner: `<random>~<pid>~<start>~<host>`, where `<start>` is the process's
 * start time in clock ticks since boot (`/proc/<pid>/stat`, field 22). A token whose lease
 * has passed still holds its key when `holderRunsHere` says its process runs on this
 * machine: same host name, that pid alive with that same start time (so a reused pid is
 * not mistaken for the owner), and not stopped (SIGSTOP, a debugger) nor a zombie — a
 * stopped process is stalled, not working, and loses its lease as before.
 *
 * What this does not cover: an owner on another machine (or where /proc cannot be read, or
 * in another container with another host name) is judged by its lease alone. The stores
 * shared between machines (postgres, redis) therefore also renew off the main thread
 * (off-thread-renewal.ts); on the file and sqlite stores a blocked owner in another
 * container loses its key once the lease passes. The random part alone
 * keeps the token a fencing token; the rest is plain text (a pid, a tick count, the host
 * name), never a secret.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

const SEP = "~";
/** LUMA_TEST_HOST (tests only): the host name this process's tokens carry, so one machine can play two. */
const HOST = process.env.LUMA_TEST_HOST || hostname();

/** What /proc says of a pid: its state letter and start time; undefined when unreadable. */
const procStat = (pid: number | "self"): { state: string; start: string } | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: split after it.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0], start: fields[19] };
  } catch {
    return undefined;
  }
};

let ownStamp: string | undefined;

/** `~<pid>~<start>~<host>` of this process, read once. */
const stamp = (): string => {
  ownStamp ??= [, process.pid, procStat("self")?.start ?? "", HOST].join(SEP);
  return ownStamp;
};

/** A fencing token that names this process as its owner. */
export const ownedToken = (random: string): string => random + stamp();

/**
 * Whether the token's owner is another process that runs on this machine now (see above).
 * False for this process's own tokens: the caller knows which of its claims it holds.
 */
export const holderRunsHere = (token: string): boolean => {
  const parts = token.split(SEP);
  if (parts.length < 4) return false;
  const pid = Number(parts[1]);
  const start = parts[2];
  if (parts.slice(3).join(SEP) !== HOST || !Number.isInteger(pid) || pid <= 0 || pid === process.pid || start === "") return false;
  const now = procStat(pid);
  return now !== undefined && now.start === start && !"TtZXx".includes(now.state);
};
