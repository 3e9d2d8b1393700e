/**
 * Waiting for work still running when something ends, for a bounded time. An ending — a
 * run stopped by a signal, a server shutting down, a connection closing — owes the work in
 * flight a chance to finish (claims released, trace events and cancellations written), but
 * must not hang on work that never settles.
 */

/** Resolves once `work` settled (either way) or `ms` passed, whichever comes first. */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work.then(() => {}, () => {}), new Promise<void>((done) => (timer = setTimeout(done, ms)))]);
  clearTimeout(timer);
}

/** The promises still running that an ending waits for. */
export class WorkInFlight {
  private readonly work = new Set<Promise<unknown>>();

  /** Tracks `work` until it settles; returns it unchanged (its rejection still reaches the caller). */
  track<T>(work: Promise<T>): Promise<T> {
    this.work.add(work);
    const done = () => void this.work.delete(work);
    work.then(done, done);
    return work;
  }

  /** Resolves once all work tracked now has settled, or after `ms`. */
  settled(ms: number): Promise<void> {
    return this.work.size === 0 ? Promise.resolve() : settleWithin(Promise.allSettled([...this.work]), ms);
  }
}
