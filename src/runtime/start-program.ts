/**
 * From a checked program to a finished run, in the order the spec requires: everything that
 * can reject the program (config, tool modules, registry, runtime-only rules) happens before
 * the first statement, so a rejected program has had no side effect (exit code 2).
 */
import type { Program } from "../syntax/ast";
import { runProgram } from "./interpreter/run-program";
import { exitProcess, installExitGuard } from "./base/exit-guard";
import { strayError } from "./run/stray-error";
import { stopOnSignal } from "./run/stop-on-signal";
import { redirectConsoleToStderr } from "./run/console-to-stderr";
import { createRunLifecycle } from "./run/run-lifecycle";
import { armDeadline } from "./run/run-deadline";
import { openProgram, programHostOf } from "./open-program";
import type { StartOptions } from "./start-options";

// The start-up's public face: its options (start-options.ts) and its opening step (open-program.ts).
export type { ApproveToolCall, BuildMode, BuiltAgentStart, PluggedIn, RunFlags, RunHost, StartOptions, TestHooks } from "./start-options";
export { openProgram, programHostOf, type OpenProgram } from "./open-program";

export async function startProgram(program: Program, opts: StartOptions): Promise<void> {
  // From here to the end of the run, tool module code cannot end the process (exit-guard.ts):
  // a stray exit or throw stops the run through its lifecycle, which releases what it holds.
  const lifecycle = createRunLifecycle();
  const unguard = installExitGuard((thrown) => lifecycle.stop(strayError(thrown, lifecycle.inFlight())));
  // A handler's console.log is a debug line, not program output (console-to-stderr.ts).
  const restoreConsole = redirectConsoleToStderr(opts.stderr);
  // Ctrl-C / SIGTERM stop the run the same way: claims released, trace written, 130 / 143.
  const unlisten = stopOnSignal(lifecycle, exitProcess);
  const deadline = opts.testRun?.deadline && armDeadline(lifecycle, opts.testRun.deadline);
  try {
    // A test's deadline covers its start-up too (a tool module whose loading never settles):
    // what a stopped start-up opens later is left to the end of the `luma test` process.
    const opening = openProgram(program, opts, lifecycle);
    const open = await (deadline ? lifecycle.run(opening) : opening);
    let runError: unknown;
    try {
      await lifecycle.run(
        runProgram(program, {
          ...programHostOf(open, opts),
          args: opts.args,
          stdout: opts.stdout,
          stdoutText: opts.stdoutText,
          stderr: opts.stderr,
          stdin: opts.stdin,
          stopped: deadline ? deadline.stopped : lifecycle.stopped,
        }),
      );
    } catch (e) {
      runError = e;
      throw e;
    } finally {
      await open.close(runError);
    }
  } finally {
    deadline?.disarm();
    unlisten();
    restoreConsole();
    unguard();
  }
}
