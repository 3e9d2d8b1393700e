/**
 * CST → AST for what only `luma eval` reads (docs/eval.md): `eval "name" over "data.jsonl" { … }`
 * blocks at the top level of a file, and the `score "name" expr` statement (a statement like
 * `assert`: it parses in any block, and the checker keeps it inside an eval's).
 *
 * The eval's name, its dataset's path and a score's name are plain strings: they name things
 * in reports and on disk, so they cannot depend on values computed at run time.
 */
import type * as ohm from "ohm-js";
import type { EvalDecl, Stmt } from "./ast";
import { spanOf, toAst } from "./parse-context";
import { plainString } from "./to-ast-tests";

type Node = ohm.Node;

export const evalActions: ohm.ActionDict<unknown> = {
  EvalDecl(_kw: Node, name: Node, _over: Node, dataset: Node, block: Node): EvalDecl {
    return {
      kind: "Eval",
      name: plainString(name, "an eval name"),
      nameSpan: spanOf(name),
      dataset: plainString(dataset, "a dataset path"),
      datasetSpan: spanOf(dataset),
      body: toAst(block) as Stmt[],
      span: spanOf(this),
    };
  },
  ScoreStmt(_kw: Node, _sameLine: Node, name: Node, value: Node): Stmt {
    return { kind: "Score", name: plainString(name, "a score name"), nameSpan: spanOf(name), value: toAst(value), span: spanOf(this) };
  },
};
