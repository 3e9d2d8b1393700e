/**
 * How many times each tool's handler ran in this run: the `calls("tool")` builtin reads it
 * (`luma test` asserts exactly-once behaviour, retries and cache hits with it).
 *
 * Counted at the registry, where the pipeline fetches the handler it is about to run: a
 * cache hit, an idempotent replay or a refused call never reaches the handler and is not
 * counted; each retry is. The count is per opened program, so each test (a fresh start)
 * begins at zero.
 */
import type { ToolHandler } from "../steps/step";

export interface HandlerRunCount {
  /** Wraps a registry's `handler` lookup so every run of a returned handler is counted. */
  wrap<R extends { handler(name: string): ToolHandler | undefined }>(registry: R): R;
  runs(tool: string): number;
}

export function createHandlerRunCount(): HandlerRunCount {
  const counts = new Map<string, number>();
  const counted = new Map<string, ToolHandler>();
  return {
    wrap(registry) {
      const lookup = registry.handler.bind(registry);
      return Object.assign(Object.create(registry) as typeof registry, {
        handler(name: string): ToolHandler | undefined {
          const inner = lookup(name);
          if (inner === undefined) return undefined;
          let wrapped = counted.get(name);
          if (wrapped === undefined) {
            wrapped = (input, signal, needs, ctx) => {
              counts.set(name, (counts.get(name) ?? 0) + 1);
              return inner(input, signal, needs, ctx);
            };
            counted.set(name, wrapped);
          }
          return wrapped;
        },
      });
    },
    runs: (tool) => counts.get(tool) ?? 0,
  };
}
