/**
 * What a run is started with (`startProgram`, `openProgram`), split by who decides it: the
 * person's command-line flags, the host process (working directory, environment, output,
 * the terminal), test and benchmark hooks, and a built agent's build-time decisions.
 *
 * Each part is set in one place — the flags by `cli/argv.ts` (`luma FILE`, a built agent's
 * argv) or the library caller, the host by `cli/main.ts`, the hooks only by `luma test` and
 * the tests, the build mode only by `cli/run-built-agent.ts`, the plugged-in parts (the MCP
 * client) by the composition root — so a reader of a field knows
 * where its value comes from, and a new option lands in the part of the one who sets it.
 */
import type { LoadedConfig } from "../config/config-types";
import type { AskRunnerDeps } from "./ask/create-ask-runner";
import type { Transport } from "./providers/transport";
import type { LoadedModule } from "./module-loading/loaded-module";
import type { ModulePolicy } from "./module-policy/module-policy";
import type { RunDeadline } from "./run/run-deadline";
import type { OpenRemoteTools, ToolStubs } from "./tools/registry/registry-types";
import type { AskValue } from "./tools/tool-invoker-types";
import type { StdinSource } from "./interpreter/runtime-context";

/** What the person running the program chose: `luma FILE [ARGS…]` and its run-time flags. */
export interface RunFlags {
  file: string;
  args: string[];
  toolModules: string[];
  configPath?: string;
  trace?: string;
  /** `--record FILE`: save every provider exchange of `ask` to a cassette (extension). */
  record?: string;
  /** `--replay FILE`: answer provider requests from a cassette, offline (extension). */
  replay?: string;
  /** `--journal PATH`: the run's journal, a SQLite file (durable runs). */
  journal?: string;
  /** `--run-id ID`: resume (or start) this run of the journal. */
  runId?: string;
  /** `--usage`: print the per-model token (and cost) table on stderr when the run ends. */
  usage?: boolean;
}

/** Asks whether write tool `tool` may run with `args` (already redacted and cut); true = yes. */
export type ApproveToolCall = (tool: string, args: string, withinMs?: number, writes?: boolean) => Promise<boolean>;

/** What the host process gives the run: where it is, its environment, its output, its terminal. */
export interface RunHost {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: (line: string) => void;
  /** Text as it is, no newline added: where `stream ask` writes as the answer arrives. */
  stdoutText?: (text: string) => void;
  stderr: (line: string) => void;
  /** Every trace event as it happens (`luma chat` shows tool calls as they end), beside --trace. */
  observe?: (event: object) => void;
  sourceOf: (file: string) => string | undefined;
  /** stdin is an interactive terminal: `tool_policy: "approval"` may ask there, through `approve`. */
  interactive: boolean;
  /**
   * Asks a person whether a write tool may run (the CLI's terminal prompt, cli/approval-prompt.ts);
   * used only when `interactive`. Absent: nobody can approve, the call is refused.
   */
  approve?: ApproveToolCall;
  /**
   * Asks a person for a value (the CLI's terminal prompt, cli/value-prompt.ts): a client
   * tool's answer, an approval's note. Used only when `interactive`; absent: nobody is asked.
   */
  askValue?: AskValue;
  /** Standard input for `read_line` / `read_all` (the CLI's, cli/stdin-reader.ts); absent: empty. */
  stdin?: StdinSource;
}

/** Set only by `luma test` and by tests and benchmarks: seams, never a user's flag. */
export interface TestHooks {
  /**
   * `luma test`: the ask transport that answers offline (runtime/testing), and fresh stores;
   * `deadline` stops the test's run once it passes (run/run-deadline.ts); `toolStubs`
   * answer the stubbed tools' calls in place of their handlers (testing/tool-stubs.ts).
   */
  testRun?: { offline: Transport; deadline?: RunDeadline; toolStubs?: ToolStubs };
  /** Test and benchmark hooks for `ask`: transport, retry sleep, response size cap. */
  askHooks?: Pick<AskRunnerDeps, "transport" | "sleep" | "maxResponseBytes">;
}

/** Set only when a built agent (`luma build`, src/build) runs: what its build decided. */
export interface BuildMode {
  /** A built agent: its config and tool modules come from memory. */
  builtAgent?: BuiltAgentStart;
}

/**
 * What a built agent decided at build time. Paths that a program run resolves against the
 * program's directory resolve against the working directory instead: the build machine's
 * directories do not exist where the agent runs.
 */
export interface BuiltAgentStart {
  /** The embedded config, or the `--config` file given at run time (absolute path). */
  loadConfig(configPath: string | undefined): Promise<LoadedConfig>;
  loadModules(policy: ModulePolicy | undefined): Promise<LoadedModule[]>;
  /** The embedded config's `replay` cassette, carried in the agent: it answers unless `--config` replaces that config. */
  replay?: { text: string };
}

/** What the composition root plugs in: implementations the runtime declares but does not import. */
export interface PluggedIn {
  /** The MCP client (mcp/open-mcp-tools.ts): needed only by a program that declares an `mcp:` tool. */
  openRemoteTools?: OpenRemoteTools;
}

/** A program opened to answer many calls instead of running once (`luma serve`, `luma mcp`, `luma chat`). */
export interface ManyCalls {
  /** The command serving the calls: with a journal, each call is a journal run of its own (journal/call-runs.ts). */
  servedBy?: "luma serve" | "luma mcp" | "luma chat";
}

/** Everything a run is started with: each part from the one who sets it. */
export interface StartOptions extends RunFlags, RunHost, TestHooks, BuildMode, PluggedIn, ManyCalls {}
