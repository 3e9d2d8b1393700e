/**
 * The one option scanner every command's parser runs over its arguments, reading its
 * options from the command table (command-table-argv.ts): `--name VALUE` and
 * `--name=VALUE`, flags, repeatable options, a row's own `read` (checks, a second value).
 * What differs between commands is only what they say: the rules name the texts of the
 * usage errors (kept word for word from the parsers this scanner replaced) and what an
 * argument that is not an option means to the command (FILE, a path, a program argument).
 */
import { closestName } from "../diagnostics/did-you-mean";
import { optionsByName, type OptionRow } from "./command-table-argv";
import { UsageError } from "./usage-error";

export interface ScanRules {
  /** The arguments that are options: `--x` (most commands), or any `-x` (`luma build`, for `-o`). */
  readonly optionPrefix: "--" | "-";
  /** Whether `--` ends the options (every argument after it is positional). */
  readonly dashDashEnds: boolean;
  /** The text when an option's value is missing (default: `option N needs a value (METAVAR)`). */
  readonly needsValue?: (name: string, row: OptionRow) => string;
  /** The text when a flag is given `=VALUE` (default: `option N takes no value`). */
  readonly flagGivenValue?: (name: string, arg: string) => string;
  /**
   * An option the command does not take: throw (the text may end in `hint`, a did-you-mean
   * or ""), or say `positional` (it is an argument after all) or `stop` (scanning ends here).
   */
  readonly unknown: (name: string, arg: string, hint: string) => "positional" | "stop";
  /** An argument that is not an option. */
  readonly positional: (arg: string) => void;
}

/** What the scan wrote: each given option's `field`, and the argument it stopped at, if one. */
export interface Scanned {
  readonly values: Record<string, unknown>;
  readonly stoppedAt?: string;
}

/** `; did you mean --x?` when `wrong` is a slip for one of `rows`' names, else "". */
export function didYouMeanOption(wrong: string, rows: readonly OptionRow[]): string {
  const close = closestName(wrong, optionsByName(rows).keys());
  return close === undefined ? "" : `; did you mean ${close}?`;
}

/**
 * Scan `argv` for `rows`' options.
 *
 * @example
 *   scanArgv(["--config", "c.json", "app.luma"], rows, { optionPrefix: "--", dashDashEnds: true, unknown, positional })
 *   // → { values: { config: "c.json" } }, positional("app.luma") called
 */
export function scanArgv(argv: readonly string[], rows: readonly OptionRow[], rules: ScanRules): Scanned {
  const byName = optionsByName(rows);
  const values: Record<string, unknown> = {};
  let optionsEnded = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (optionsEnded || !arg.startsWith(rules.optionPrefix)) {
      rules.positional(arg);
      continue;
    }
    if (rules.dashDashEnds && arg === "--") {
      optionsEnded = true;
      continue;
    }
    // Only a long option carries `=VALUE`: `-o=x` is no spelling of `-o`.
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const row = byName.get(name);
    if (row === undefined) {
      const next = rules.unknown(name, arg, didYouMeanOption(name, rows));
      if (next === "stop") return { values, stoppedAt: arg };
      rules.positional(arg);
      continue;
    }
    const needsValue = () => new UsageError(rules.needsValue?.(name, row) ?? `option ${name} needs a value (${row.metavar})`);
    let value: unknown = true;
    if (row.value === "nothing") {
      if (eq !== -1) throw new UsageError(rules.flagGivenValue?.(name, arg) ?? `option ${name} takes no value`);
    } else {
      const more = () => {
        if (i + 1 >= argv.length) throw needsValue();
        return argv[++i];
      };
      const given = eq === -1 ? more() : arg.slice(eq + 1);
      value = row.read ? row.read(given, more) : given;
    }
    if (row.repeatable) ((values[row.field] ??= []) as unknown[]).push(value);
    else values[row.field] = value;
  }
  return { values };
}
