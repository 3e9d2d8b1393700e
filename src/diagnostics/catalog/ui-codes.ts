/**
 * `luma ui` (issue #31 §1): the start-up errors of the local web app — where it listens, what
 * it reads. Each stops `luma ui` before it serves anything (exit 2).
 */
import type { CatalogEntry } from "./catalog-entry";

const UI_ENTRIES = [
  {
    code: "E1501",
    title: "luma ui on a non-loopback address without LUMA_UI_TOKEN",
    explanation:
      "`luma ui` listens on 127.0.0.1 by default. Any other address (`--http 0.0.0.0:8080`, a LAN address) lets other machines decide waiting calls, so it needs a token: set LUMA_UI_TOKEN, and open the page once with `?token=…` (or send `Authorization: Bearer …`). Without the token every request is refused with 401.",
    example: "luma ui --journal runs.sqlite --http 0.0.0.0:8080   (LUMA_UI_TOKEN unset)",
  },
  {
    code: "E1502",
    title: "--http is not HOST:PORT",
    explanation: "`--http` takes a host and a port, `127.0.0.1:4780` or `[::1]:4780`; the port is 0–65535 (0: any free port, printed at start).",
    example: "luma ui --http localhost",
  },
  {
    code: "E1503",
    title: "luma ui has nothing to show",
    explanation:
      "`luma ui` reads journals (`--journal PATH`, repeatable, or `journal` in luma.config.json) and trace files (`--trace FILE`, repeatable). Pass at least one, or run it where luma.config.json names a journal.",
    example: "luma ui   (no --journal, no --trace, no journal in luma.config.json)",
  },
  {
    code: "E1504",
    title: "a trace file to show does not exist",
    explanation: "`luma ui --trace FILE` reads a trace file written by `luma … --trace FILE` (JSON lines); the file must exist when `luma ui` starts (a run may still be writing it).",
    example: "luma ui --trace missing.jsonl",
  },
  {
    code: "E1505",
    title: "luma ui cannot listen on the address",
    explanation: "The address of `--http` could not be bound: the port is in use, or the host is not an address of this machine. Pick another port (`--http 127.0.0.1:0` takes any free one).",
    example: "luma ui --journal runs.sqlite --http 127.0.0.1:80",
  },
] as const satisfies readonly CatalogEntry[];

/** The codes of this list, literal: part of the catalog's `DiagnosticCode`. */
export type UiCode = (typeof UI_ENTRIES)[number]["code"];

export const uiCodes: CatalogEntry[] = [...UI_ENTRIES];
