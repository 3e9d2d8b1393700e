/**
 * Test harness for the interpreter: parse a source text, run it against small fakes of
 * the schema table and the tool pipeline, and collect stdout/stderr lines, the tool calls
 * made and the error thrown.
 *
 * The fake schema table knows primitive, array and enum types and the declared schemas'
 * required fields, field types and `@range` (with `@severity("soft")`) — enough to observe
 * VALUE_INVALID and soft warnings; the real compiler is tested in tests/schema.
 */
import { parse } from "../../src/syntax/parse";
import type { Program, SchemaDecl, TypeRef } from "../../src/syntax/ast";
import type { SchemaTable, ValidationIssue, ValidationResult, ValidationTarget } from "../../src/schema/schema-table-types";
import type { ToolCallRequest, ToolInvoker } from "../../src/runtime/tools/tool-invoker-types";
import { runProgram, type InterpreterHost } from "../../src/runtime/interpreter/run-program";
import { LumaError } from "../../src/diagnostics/luma-error";

export type ToolFake = (input: any, req: ToolCallRequest) => unknown;

export function fakeSchemaTable(program: Program): SchemaTable {
  const schemas = new Map<string, SchemaDecl>();
  for (const d of program.decls) if (d.kind === "Schema") schemas.set(d.name, d);

  function check(type: TypeRef, v: unknown, path: string, out: ValidationIssue[]): void {
    const fail = (what: string, rule = "type") =>
      out.push({ path, rule, message: `${path} must be ${what}.`, severity: "hard" });
    switch (type.kind) {
      case "PrimType": {
        const ok = {
          any: true,
          string: typeof v === "string",
          bool: typeof v === "boolean",
          int: Number.isInteger(v),
          float: typeof v === "number",
        }[type.name];
        if (!ok) fail(type.name === "int" ? "integer" : type.name);
        return;
      }
      case "EnumType":
        if (!type.values.includes(v as string)) fail(`one of ${type.values.join(", ")}`, "enum");
        return;
      case "ArrayType":
        if (!Array.isArray(v)) return void fail("array");
        v.forEach((item, i) => check(type.element, item, `${path}[${i}]`, out));
        return;
      case "NamedType": {
        const decl = schemas.get(type.name);
        if (!decl || typeof v !== "object" || v === null || Array.isArray(v)) return void fail(`object`);
        for (const field of decl.fields) {
          const fv = (v as Record<string, unknown>)[field.name];
          const fpath = `${path}.${field.name}`;
          if (fv === undefined) {
            if (!field.optional) out.push({ path: fpath, rule: "required", message: `${fpath} is required.`, severity: "hard" });
            continue;
          }
          check(field.type, fv, fpath, out);
          const range = field.annotations.find((a) => a.name === "range");
          const soft = field.annotations.some((a) => a.name === "severity" && a.args[0]?.value === "soft");
          if (range && typeof fv === "number" && fv > (range.args[1].value as number)) {
            out.push({ path: fpath, rule: "@range", message: `${fpath} must be <= ${range.args[1].value} (@range).`, severity: soft ? "soft" : "hard" });
          }
        }
      }
    }
  }

  return {
    named: () => undefined,
    typeOf: () => ({}) as never,
    toolInput: () => ({}) as never,
    validate(target: ValidationTarget, value: unknown, direction, root): ValidationResult {
      const issues: ValidationIssue[] = [];
      check(target as TypeRef, value, root, issues);
      const soft = direction === "output" ? issues.filter((i) => i.severity === "soft") : [];
      const hard = issues.filter((i) => !soft.includes(i));
      return { ok: hard.length === 0, value, hard, soft };
    },
  };
}

export interface RunResult {
  out: string[];
  err: string[];
  calls: ToolCallRequest[];
  error?: LumaError;
}

export interface RunOptions {
  args?: string[];
  tools?: Record<string, ToolFake>;
  now?: () => Date;
}

export function parseOk(source: string, file = "test.luma"): Program {
  const { program, diagnostics } = parse(source, file);
  if (!program) throw new Error(`parse failed: ${diagnostics.map((d) => d.message).join("; ")}`);
  return program;
}

export async function runSource(source: string, opts: RunOptions = {}): Promise<RunResult> {
  const file = "test.luma";
  const program = parseOk(source, file);
  const result: RunResult = { out: [], err: [], calls: [] };
  const tools: ToolInvoker = {
    async call(req) {
      result.calls.push(req);
      const fake = opts.tools?.[req.tool];
      if (!fake) throw new LumaError({ code: "TOOL_NOT_FOUND", message: `no fake for ${req.tool}` });
      return fake(req.input, req);
    },
  };
  const host: InterpreterHost = {
    args: opts.args ?? [],
    schemas: fakeSchemaTable(program),
    tools,
    stdout: (line) => result.out.push(line),
    stderr: (line) => result.err.push(line),
    sourceOf: (f) => (f === file ? source : undefined),
    now: opts.now,
  };
  try {
    await runProgram(program, host);
  } catch (e) {
    if (!(e instanceof LumaError)) throw e;
    result.error = e;
  }
  return result;
}

/** Run and return stdout; fail the test with the error when the run fails. */
export async function output(source: string, opts: RunOptions = {}): Promise<string[]> {
  const r = await runSource(source, opts);
  if (r.error) throw new Error(`unexpected ${r.error.toLine()}`);
  return r.out;
}

/** Run and return the error the run must fail with. */
export async function failure(source: string, opts: RunOptions = {}): Promise<LumaError & { out: string[] }> {
  const r = await runSource(source, opts);
  if (!r.error) throw new Error(`expected an error; stdout: ${r.out.join("\n")}`);
  return Object.assign(r.error, { out: r.out });
}
