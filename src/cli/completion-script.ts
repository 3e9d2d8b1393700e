/**
 * `luma completion bash|zsh|fish`: a shell completion script written from the command
 * table (command-table-argv.ts), so a new command or option completes the day it is
 * declared. It offers the command words, each command's options (a second word such as
 * `mcp import` picks that command's), the choices of a choice option (`--format text|json`)
 * and, through the shell's default, file names everywhere else. bash gets a `complete -F`
 * function; zsh runs the same function through its bash compatibility (`bashcompinit`);
 * fish gets `complete` lines carrying each option's doc line.
 */
import { COMMAND_TABLE, type CommandEntry, type CompletionShell, type OptionRow } from "./command-table-argv";

/** An exhaustive switch's default: adding a shell or a value kind fails to compile until handled. */
const assertNever = (x: never): never => {
  throw new Error(`unhandled case ${String(x)}`);
};

/** What `luma --help` and `luma --version` complete to beside the commands. */
const TOP_LEVEL_OPTIONS = ["--help", "--version"];

const entries: readonly CommandEntry[] = Object.values(COMMAND_TABLE);
const RUN: CommandEntry = COMMAND_TABLE.run;
/** The first words (`check`, `mcp`, `store`…), in table order, once each. */
const firstWords = (): string[] => [...new Set(entries.filter((e) => e.words).map((e) => e.words.split(" ")[0]))];
/** The second words under a first word (`import` under `mcp`). */
const secondWords = (first: string): string[] => entries.filter((e) => e.words.startsWith(`${first} `)).map((e) => e.words.split(" ")[1]);
const names = (rows: readonly OptionRow[]): string[] => rows.flatMap((r) => [r.name, ...(r.aliases ?? [])]);
/** The words a choice option's value may be (`text|json` → text, json). */
const choices = (row: OptionRow): string[] => (row.metavar ?? "").split("|");

export function completionScript(shell: CompletionShell): string {
  switch (shell) {
    case "bash":
      return bashScript();
    case "zsh":
      return `#compdef luma\n# zsh completion for luma, written by \`luma completion zsh\` from its command table.\n# Load it with: source <(luma completion zsh)\nautoload -U +X bashcompinit && bashcompinit\n${bashFunction()}`;
    case "fish":
      return fishScript();
    default:
      return assertNever(shell);
  }
}

function bashScript(): string {
  return `# bash completion for luma, written by \`luma completion bash\` from its command table.\n# Load it with: source <(luma completion bash)\n${bashFunction()}`;
}

/** One `case` arm per command: its options, and its second words while the second word is typed. */
function bashFunction(): string {
  const arms = entries
    .filter((e) => e.words)
    .map((e) => {
      const second = secondWords(e.words);
      const more = second.length ? ` [[ $COMP_CWORD -eq 2 ]] && words="${second.join(" ")} $words";` : "";
      return `    "${e.words}") words="${names(e.options).join(" ")}";${more} ;;`;
    });
  // `luma store` has no options of its own: only its second word.
  for (const first of firstWords()) {
    if (!entries.some((e) => e.words === first)) arms.push(`    "${first}") [[ $COMP_CWORD -eq 2 ]] && words="${secondWords(first).join(" ")}" ;;`);
  }
  const valueOptions = entries.flatMap((e) => e.options.filter((r) => r.value !== "nothing").map((r) => ({ words: e.words, row: r })));
  const patterns = (rows: typeof valueOptions) => rows.flatMap(({ words, row }) => names([row]).map((n) => `"${words} ${n}"`)).join("|");
  const valueArms = [
    ...valueOptions.filter((o) => o.row.value === "choice").map((o) => `    ${patterns([o])}) words="${choices(o.row).join(" ")}" ;;`),
    `    ${patterns(valueOptions.filter((o) => o.row.value !== "choice"))}) words="" ;;`,
  ];
  const pairs = entries.filter((e) => e.words.includes(" ")).map((e) => `"${e.words}"`);
  return `_luma() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd=\${COMP_WORDS[1]} words=""
  if [[ $COMP_CWORD -gt 2 ]]; then
    case "$cmd \${COMP_WORDS[2]}" in ${pairs.join("|")}) cmd="$cmd \${COMP_WORDS[2]}" ;; esac
  fi
  [[ $COMP_CWORD -eq 1 ]] && cmd=""
  case "$cmd" in
${arms.join("\n")}
    *) cmd=""; words="${names(RUN.options).join(" ")}" ;;
  esac
  [[ $COMP_CWORD -eq 1 ]] && words="${firstWords().join(" ")} ${TOP_LEVEL_OPTIONS.join(" ")} $words"
  # After an option that takes a value: its choices, or nothing (the default completes files).
  case "$cmd $prev" in
${valueArms.join("\n")}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _luma luma
`;
}

/** A fish single-quoted string. */
const fishQuote = (text: string): string => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;

function fishScript(): string {
  const words = firstWords();
  const lines = [
    "# fish completion for luma, written by `luma completion fish` from its command table.",
    "# Load it with: luma completion fish | source",
  ];
  // Spelled out in each condition: fish evaluates a condition later, where no variable of this script is set.
  const noCommand = `not __fish_seen_subcommand_from ${words.join(" ")}`;
  for (const first of words) {
    const entry = entries.find((e) => e.words === first) ?? entries.find((e) => e.words.startsWith(`${first} `))!;
    lines.push(`complete -c luma -n ${fishQuote(noCommand)} -a ${first} -d ${fishQuote(entry.summary)}`);
    const second = secondWords(first);
    if (second.length) {
      const cond = `__fish_seen_subcommand_from ${first}; and not __fish_seen_subcommand_from ${second.join(" ")}`;
      for (const s of second) lines.push(`complete -c luma -n ${fishQuote(cond)} -a ${s} -d ${fishQuote(entries.find((e) => e.words === `${first} ${s}`)!.summary)}`);
    }
  }
  for (const opt of TOP_LEVEL_OPTIONS) lines.push(`complete -c luma -n ${fishQuote(noCommand)} -l ${opt.slice(2)}`);
  for (const e of entries) {
    const [first, second] = e.words.split(" ");
    const siblings = first ? secondWords(first) : [];
    const cond = !e.words
      ? noCommand
      : second
        ? `__fish_seen_subcommand_from ${first}; and __fish_seen_subcommand_from ${second}`
        : `__fish_seen_subcommand_from ${first}${siblings.length ? `; and not __fish_seen_subcommand_from ${siblings.join(" ")}` : ""}`;
    for (const row of e.options) lines.push(`complete -c luma -n ${fishQuote(cond)} ${fishOption(row)} -d ${fishQuote(row.doc)}`);
  }
  return lines.join("\n") + "\n";
}

/** `-l name` (and `-s o` for a short alias) and what follows: files (-r -F), a word (-x), choices. */
function fishOption(row: OptionRow): string {
  const spelled = [`-l ${row.name.slice(2)}`, ...(row.aliases ?? []).filter((a) => /^-[a-z]$/.test(a)).map((a) => `-s ${a.slice(1)}`)].join(" ");
  switch (row.value) {
    case "nothing":
      return spelled;
    case "file":
      return `${spelled} -r -F`;
    case "text":
      return `${spelled} -x`;
    case "choice":
      return `${spelled} -x -a ${fishQuote(choices(row).join(" "))}`;
    default:
      return assertNever(row.value);
  }
}
