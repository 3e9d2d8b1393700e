/**
 * `max_concurrency` (spec §10): at most N calls run inside one tool module at a time — its
 * tool handlers and datasource bridges together. A call over the limit waits its turn (FIFO);
 * one whose AbortSignal fires while waiting leaves the queue without running.
 *
 * A handler with a free slot is called synchronously, so a plain-value handler keeps the
 * pipeline's synchronous fast path.
 */

export class Semaphore {
  private active = 0;
  private readonly waiting: { grant: () => void; reject: (e: unknown) => void; signal?: AbortSignal; onAbort?: () => void }[] = [];

  constructor(readonly limit: number) {}

  get inUse(): number {
    return this.active;
  }

  tryAcquire(): boolean {
    if (this.active >= this.limit) return false;
    this.active++;
    return true;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((grant, reject) => {
      const waiter: (typeof this.waiting)[number] = { grant, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.waiting.push(waiter);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.active--;
      return;
    }
    if (next.onAbort) next.signal?.removeEventListener("abort", next.onAbort);
    next.grant(); // the slot passes straight to the next caller
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any function, whatever its parameters
type AnyFunction = (...args: any[]) => unknown;

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  v !== null && (typeof v === "object" || typeof v === "function") && typeof (v as { then?: unknown }).then === "function";

/**
 * An Error made in a VM context is not `instanceof Error` here, and the pipeline would lose
 * its message; it is carried into a host Error with the same name, message and stack. Error-shaped
 * objects (a LumaToolError-like `code` + `retryable`) pass unchanged.
 */
export function hostError(e: unknown): unknown {
  if (e instanceof Error || e === null || typeof e !== "object") return e;
  const shape = e as { code?: unknown; retryable?: unknown; name?: unknown; message?: unknown };
  if (typeof shape.code === "string" && typeof shape.retryable === "boolean") return e;
  if (Object.prototype.toString.call(e) !== "[object Error]") return e;
  const error = new Error(String(shape.message));
  error.name = String(shape.name ?? "Error");
  // Its stack too: where in the module it was thrown (a crashed handler's file:line).
  const stack = (e as { stack?: unknown }).stack;
  if (typeof stack === "string") error.stack = stack;
  return error;
}

const signalIn = (args: unknown[]): AbortSignal | undefined => args.find((a): a is AbortSignal => a instanceof AbortSignal);

/**
 * `fn` behind `semaphore`. The pipeline hands a handler an AbortSignal unless its `length` is
 * exactly 1; the wrapper always asks for one (length 1 becomes 2), since a call that times
 * out while it waits for a slot must leave the queue — the handler itself still gets what it
 * declared and ignores the rest.
 */
export function limitCalls<F extends AnyFunction>(fn: F, semaphore: Semaphore): F {
  const run = (self: unknown, args: unknown[]): unknown => {
    let out: unknown;
    try {
      out = fn.apply(self, args);
    } catch (e) {
      semaphore.release();
      throw hostError(e);
    }
    if (!isThenable(out)) {
      semaphore.release();
      return out;
    }
    return Promise.resolve(out).then(
      (value) => {
        semaphore.release();
        return value;
      },
      (e) => {
        semaphore.release();
        throw hostError(e);
      },
    );
  };
  const limited = function (this: unknown, ...args: unknown[]): unknown {
    if (semaphore.tryAcquire()) return run(this, args);
    return semaphore.acquire(signalIn(args)).then(() => run(this, args));
  };
  Object.defineProperty(limited, "length", { value: fn.length === 1 ? 2 : fn.length });
  Object.defineProperty(limited, "name", { value: fn.name });
  return limited as F;
}
