/**
 * `thread()` and `thread(id)` (issue #26 §1). `thread()` is a new in-memory thread, made at
 * once. `thread(id)` opens a stored one: reading the store may wait on the network, so the
 * call is an asynchronous one (`calls.ts` takes it here, and the async analysis counts it as
 * suspending); without a `"threads"` store the program was refused at start-up (E0660), so the
 * error below is for embedders that bypass start-up.
 */
import type { Span } from "../../syntax/ast";
import type { BuiltinTable } from "./builtins";
import { stringArg } from "./builtin-args";
import { errorAt } from "./runtime-errors";
import type { Runtime } from "./runtime-context";
import { openStoredThread, ThreadHandle } from "./thread-values";
import type { Value } from "./values";

export const THREAD_BUILTINS = {
  thread: {
    run(args, rt, span) {
      if (args.length > 0) throw errorAt(rt.sourceOf, "RUNTIME_ERROR", "thread(id) opens a stored thread and must be awaited", span);
      return new ThreadHandle(undefined, undefined) as unknown as Value;
    },
  },
} satisfies BuiltinTable;

/** Whether a call of builtin `name` with `argCount` arguments waits (the async analysis asks). */
export const builtinSuspends = (name: string, argCount: number): boolean => name === "thread" && argCount > 0;

export async function openThreadCall(rt: Runtime, args: Value[], span: Span): Promise<Value> {
  const id = stringArg(rt, "thread", args[0], span);
  if (id === "") throw errorAt(rt.sourceOf, "RUNTIME_ERROR", "thread() expects a non-empty id", span);
  const store = rt.host.threads?.store;
  if (!store) throw errorAt(rt.sourceOf, "RUNTIME_ERROR", 'thread(id) needs a "threads" store in luma.config.json', span);
  return (await openStoredThread(store, id)) as unknown as Value;
}
