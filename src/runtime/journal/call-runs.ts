/**
 * One journal run per call from outside the program (issue #26 §4): a `luma serve` request
 * (a JSON method call, a chat turn), a `luma mcp` tools/call, a `luma chat` line. The journal
 * the config names opens once for the process; each call takes a run of its own in it — a
 * fresh run id, its own lease, its steps numbered from its own root, its end recorded as
 * finished, failed or pending — so `luma runs` and `luma ui` list every call, and no call
 * replays another's steps (as one process-wide run would: every call's first tool call
 * would be the same step).
 *
 * The tool pipeline and the ask flow were made with one journal for the whole opening; they
 * read it at each step, and under `CallRuns` that read is the journal of the call the step
 * belongs to: an `AsyncLocalStorage` carries it through every await of the call (its tool
 * calls, its model requests, agents it calls as tools, `parallel` branches). Outside any
 * call — nothing runs there in a served program — there is no journal.
 *
 * A call may name its run (`runId`): a chat turn that paused for its client is continued
 * under the same run on whichever process gets the client's answer, and replays what the
 * first attempt did (serve/durable-chat-turns.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { LumaConfig } from "../../config/config-types";
import { openJournal, type OpenedJournal, type OpenJournalContext } from "./open-journal";
import { RunJournal } from "./run-journal";
import { newRunId, TEST_LEASE_MS } from "./start-run";

export interface CallRunOptions {
  /** The run to start or continue; absent, a fresh id. */
  runId?: string;
  /** Hears the run's id once it holds the lease, before anything runs (a response header, a log line). */
  started?: (runId: string) => void;
  /** Only go on with `runId` if the journal holds it waiting (a chat turn paused for its client), never start it. */
  continuing?: boolean;
}

export class CallRuns {
  private readonly current = new AsyncLocalStorage<RunJournal>();

  constructor(
    private readonly opened: OpenedJournal,
    /** The program file as given: `luma runs` shows it for each call's run. */
    private readonly program: string,
  ) {}

  /** The journal run of the call being made now; undefined outside every call. */
  journal(): RunJournal | undefined {
    return this.current.getStore();
  }

  /** Runs `call` as one journal run, recording how it ended (finished, failed, pending). */
  async run<T>(call: (ownRun: boolean) => Promise<T>, opts: CallRunOptions = {}): Promise<T> {
    const runId = opts.runId ?? newRunId();
    // Nothing resumes a served call from a person's recorded decision: a call that needs one
    // with nobody to ask is refused, as without a journal.
    const journal = await RunJournal.start(this.opened.backend, this.opened.codec, { runId, program: this.program, leaseMs: TEST_LEASE_MS, waitsForPeople: false, continuing: opts.continuing });
    opts.started?.(runId);
    let result: T;
    try {
      result = await this.current.run(journal, () => call(true));
    } catch (e) {
      const pending = (e as { phase?: string }).phase === "pending";
      await journal.end(pending ? "pending" : "failed").catch(() => {}); // the call's own error wins
      throw e;
    }
    await journal.end("finished");
    return result;
  }

  /** Closes the journal: after every call ended. */
  close(): Promise<void> {
    return Promise.resolve(this.opened.backend.close());
  }
}

/**
 * How a host runs one outside call: as a journal run of its own when the program has a
 * journal, else as it is. `ownRun` tells the call which: in a run of its own its steps are
 * numbered from `main`, as a resumed run numbers them again; without one, apart from every
 * other call of the process (step-scope.ts `outsideCallScope`).
 */
export type CallRun = <T>(call: (ownRun: boolean) => Promise<T>, opts?: CallRunOptions) => Promise<T>;

export const unjournaledCall: CallRun = (call) => call(false);

/** The process's journal for its calls' runs (`luma serve`, `luma mcp`, `luma chat`), when the config names one. */
export async function openCallRuns(config: LumaConfig, ctx: OpenJournalContext, program: string): Promise<CallRuns | undefined> {
  const opened = await openJournal(config, ctx);
  return opened && new CallRuns(opened, program);
}
