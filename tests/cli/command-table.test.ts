/**
 * The one command table (src/cli/command-table-argv.ts) and what is derived from it: every
 * option a command declares is parsed by that command, the dispatcher knows every command
 * word, an unknown option that is a slip for a declared one gets a did-you-mean, `--help`
 * lists each command's declared options, and `luma completion bash|zsh|fish` completes them
 * (the bash script is run in a real bash with simulated COMP_WORDS).
 */
import { describe, expect, test } from "bun:test";
import { COMMAND_TABLE, COMMAND_WORDS, type CommandName, type OptionRow } from "../../src/cli/command-table-argv";
import { parseArgv, UsageError } from "../../src/cli/argv";
import { completionScript } from "../../src/cli/completion-script";
import { runLuma } from "../support/luma-binary";

/** An argv each command parses without options, and the kind it parses to. */
const BASES: Record<CommandName, string[]> = {
  run: ["app.luma"],
  check: ["check", "a.luma"],
  test: ["test"],
  eval: ["eval"],
  init: ["init"],
  explain: ["explain", "E0201"],
  fmt: ["fmt", "x.luma"],
  build: ["build", "p.luma", "-o", "out"],
  mcp: ["mcp", "f.luma", "--http", "127.0.0.1:1"],
  chat: ["chat", "f.luma", "--agent", "A"],
  serve: ["serve", "f.luma"],
  "mcp-import": ["mcp", "import", "server"],
  lsp: ["lsp"],
  runs: ["runs"],
  "runs-show": ["runs", "show", "id"],
  "runs-answer": ["runs", "answer", "--run-id", "r", "--json", "{}"],
  approve: ["approve", "--run-id", "r"],
  deny: ["deny", "--run-id", "r"],
  "store-reset": ["store", "reset"],
  completion: ["completion", "bash"],
  ui: ["ui"],
};

/** A value the row accepts. */
const valueFor = (row: OptionRow): string[] =>
  row.value === "nothing" ? [] : row.value === "choice" ? [row.metavar!.split("|").at(-1)!] : row.name === "--timeout" ? ["10"] : row.name === "--format" ? ["junit", "r.xml"] : (EVAL_VALUES[row.name] ?? ["v"]);

/** Values `luma eval`'s checked options accept. */
const EVAL_VALUES: Record<string, string[]> = { "--min": ["route=0.9"], "--model": ["A=B"], "--concurrency": ["4"] };

const usageError = (argv: string[]): string => {
  try {
    parseArgv(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(" ")}`);
};

describe("§15 one command table: parsing is derived from it", () => {
  const commands = Object.keys(COMMAND_TABLE) as CommandName[];

  test.each(commands)("`%s` parses to its own kind, and takes every option it declares (both spellings)", (name) => {
    const base = BASES[name];
    expect(parseArgv(base).kind).toBe(name);
    for (const row of COMMAND_TABLE[name].options) {
      for (const spelling of [row.name, ...(row.aliases ?? [])]) {
        const parsed = parseArgv([...base, spelling, ...valueFor(row)]) as unknown as Record<string, unknown>;
        expect({ spelling, kind: parsed.kind }).toEqual({ spelling, kind: name });
        if (row.field !== "stdio") expect({ spelling, set: parsed[row.field] !== undefined }).toEqual({ spelling, set: true });
      }
    }
  });

  test("no command declares two options under one name", () => {
    for (const [name, entry] of Object.entries(COMMAND_TABLE)) {
      const names = entry.options.flatMap((r: OptionRow) => [r.name, ...(r.aliases ?? [])]);
      expect({ name, names: [...new Set(names)] }).toEqual({ name, names });
    }
  });

  test("the dispatcher's words are the table's first words (and the help/version aliases)", () => {
    const first = Object.values(COMMAND_TABLE).flatMap((e) => (e.words ? [e.words.split(" ")[0]] : []));
    expect([...COMMAND_WORDS].sort()).toEqual([...new Set([...first, "help", "version"])].sort());
    // A word the dispatcher does not know would be taken for `luma FILE`.
    for (const word of COMMAND_WORDS) {
      let kind = "usage error";
      try {
        kind = parseArgv([word]).kind;
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
      }
      expect({ word, kind }).not.toEqual({ word, kind: "run" });
    }
  });

  test.each([
    [["--replya", "app.luma"], "unknown option --replya; did you mean --replay?"],
    [["check", "--fromat", "json", "a.luma"], "unknown option --fromat; did you mean --format?"],
    [["test", "--filtr", "x"], "unknown option --filtr for luma test; did you mean --filter?"],
    [["approve", "--run-id", "r", "--stpe", "1"], "luma approve does not take --stpe; did you mean --step?"],
    [["mcp", "f.luma", "--agnet", "a"], "unknown option --agnet for luma mcp; did you mean --agent?"],
    [["build", "p.luma", "-o", "o", "--taget", "t"], "unknown option --taget for luma build (it takes -o OUT, --tool-module, --config, --target); did you mean --target?"],
    [["fmt", "--chek", "x"], "unknown option --chek for luma fmt (it takes --check); did you mean --check?"],
    [["store", "reset", "--ys"], "luma store reset does not take '--ys' (only --yes and --config PATH); did you mean --yes?"],
    // Nothing close: no guess.
    [["test", "--verbose"], "unknown option --verbose for luma test"],
  ])("an unknown option that is a slip for a declared one says which: %p", (argv, message) => {
    expect(usageError(argv as string[])).toBe(message as string);
  });

  test("luma completion needs one of bash, zsh, fish", () => {
    expect(usageError(["completion"])).toBe("luma completion needs a SHELL (bash, zsh, fish)");
    expect(usageError(["completion", "tcsh"])).toBe("luma completion writes scripts for bash, zsh, fish (got 'tcsh')");
    expect(usageError(["completion", "bash", "zsh"])).toBe("unexpected argument 'zsh' (luma completion takes one SHELL)");
  });
});

describe("§15 --help lists each command's declared options", () => {
  const help = runLuma(["--help"]).stdout;
  const flagsOnUsageLine = (words: string): string[] => {
    const line = help.split("\n").find((l) => l.startsWith(`  luma ${words} `))!;
    expect(line).toBeDefined();
    return [...new Set([...line.slice(`  luma ${words} `.length).matchAll(/(?<![\w-])--?[a-z][a-z-]*/g)].map((m) => m[0]))].sort();
  };
  test.each(["test", "build", "mcp", "mcp-import", "store-reset", "fmt", "runs", "approve", "deny"] as const)("the usage line of `%s` names exactly its options", (name) => {
    const entry = COMMAND_TABLE[name];
    const shown = flagsOnUsageLine(name === "mcp" ? "mcp FILE.luma" : name === "runs" ? "runs [show ID]" : entry.words);
    // Each option by one of its spellings (`-o` for `--output`).
    const declared = entry.options.map((r: OptionRow) => [r.name, ...(r.aliases ?? [])].find((s) => shown.includes(s)) ?? r.name);
    expect(shown).toEqual([...declared].sort());
  });
});

describe("§15 luma completion bash|zsh|fish is derived from the table", () => {
  const bash = runLuma(["completion", "bash"]);

  test("the binary prints each script (exit 0); bash reads the bash one without a syntax error", () => {
    expect(bash.exitCode).toBe(0);
    expect(runLuma(["completion", "zsh"]).stdout).toStartWith("#compdef luma\n");
    expect(runLuma(["completion", "fish"]).exitCode).toBe(0);
    const r = Bun.spawnSync(["bash", "-n"], { stdin: Buffer.from(bash.stdout) });
    expect(r.stderr.toString()).toBe("");
    expect(r.exitCode).toBe(0);
  });

  /** What bash completes for the words typed so far (the last one is being typed). */
  const complete = (...words: string[]): string[] => {
    const quoted = words.map((w) => `'${w}'`).join(" ");
    const script = `${bash.stdout}\nCOMP_WORDS=(luma ${quoted}); COMP_CWORD=${words.length}; _luma; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = Bun.spawnSync(["bash", "-c", script]);
    return r.stdout.toString().split("\n").filter(Boolean).sort();
  };

  test.each([
    [["ch"], ["chat", "check"]],
    [["--rep"], ["--replay"]],
    [["check", "--"], ["--format"]],
    [["check", "--format", ""], ["json", "text"]],
    [["mcp", "im"], ["import"]],
    [["mcp", "import", "--"], ["--config"]],
    [["runs", "show", "id", "--format", ""], ["json", "table"]],
    [["store", ""], ["reset"]],
    [["build", "p.luma", "-"], ["--config", "--output", "--target", "--tool-module", "-o"]],
    [["app.luma", "--config", ""], []],
  ])("bash: luma %p completes to %p", (words, expected) => {
    expect(complete(...(words as string[]))).toEqual(expected as string[]);
  });

  test("fish: every option of every command has its line, with its doc", () => {
    const fish = completionScript("fish");
    for (const entry of Object.values(COMMAND_TABLE)) {
      for (const row of entry.options as readonly OptionRow[]) expect(fish).toContain(`-l ${row.name.slice(2)}`);
    }
    expect(fish).toContain("-l format -x -a 'text json' -d 'json: one object {\"diagnostics\":[…]} on stdout, for editors and CI'");
    expect(fish).toContain("-l run-id -x -d 'the run\\'s id in the journal: resumes it when it exists'");
  });
});
