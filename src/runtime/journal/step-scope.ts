/**
 * Deterministic step ids: a step's position in the run, so that a resumed run finds each
 * receipt again by asking the same question at the same place.
 *
 *   main/3                  the 3rd step of top-level code
 *   main/Flow.run#2/1       the 1st step inside the call of Flow.run that was main's 2nd step
 *   main/Flow.run#2/1.req2  that step is an `ask`: its 2nd provider request
 *   …/1.req2.call1          the 1st tool call the model asked for in the answer to it
 *   now#4                   the 4th now() reading of the run (journal-wide, in call order)
 *
 * Each function activation has a scope; every step and every user function or method call
 * made in it takes the scope's next number. The interpreter runs one statement at a time,
 * so numbers follow the program's order, and a resumed run given the same results numbers
 * its steps the same way. (Native tool calls of one model answer may run concurrently: they
 * are numbered by their place in the answer, not by when they start.) Paths are written
 * only when a step asks for its id; a call costs one small object.
 */
export class StepScope {
  seq = 0;
  private path: string | undefined = undefined;

  constructor(
    readonly parent: StepScope | undefined,
    readonly label: string,
    readonly ordinal: number,
  ) {}

  pathText(): string {
    return (this.path ??= this.parent === undefined ? this.label : `${this.parent.pathText()}/${this.label}#${this.ordinal}`);
  }

  /** The id of the next step made in this scope. */
  nextStep(): string {
    return `${this.pathText()}/${++this.seq}`;
  }

  /** The scope of a user function or method called from this one. */
  child(label: string): StepScope {
    return new StepScope(this, label, ++this.seq);
  }
}

export const topLevelScope = (): StepScope => new StepScope(undefined, "main", 0);

/**
 * The root scope of one call from outside the program (a `luma serve` request, a `luma mcp`
 * tools/call, a `luma chat` line through a method): `call-N/…`, N counting this process's
 * calls. Rooted at `main`, every call's first tool call would be `main/A.m#1/1`, and the
 * handlers' `ctx.idempotencyKey` (`<runId>/<stepId>`, the run id this process's) would be
 * one key for all of them: a downstream API would drop the second request's write as a retry.
 */
let outsideCalls = 0;
export const outsideCallScope = (): StepScope => new StepScope(undefined, `call-${++outsideCalls}`, 0);

/** The id of an `ask`'s n-th provider request, and of the i-th tool call of its answer. */
export const askRequestId = (askStep: string, n: number): string => `${askStep}.req${n}`;
/** The handoff an answer asked for (ask/handoffs.ts): one per request at most. */
export const handoffId = (requestStep: string): string => `${requestStep}.handoff`;
export const nativeCallId = (requestStep: string, i: number): string => `${requestStep}.call${i}`;
