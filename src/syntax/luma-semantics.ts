/**
 * The one Ohm operation, `ast`, that turns a Luma CST into the AST of `ast.ts`. Its
 * actions live in one file per part of the language; rules without an action (single
 * child alternatives such as `Decl`, `Stmt`, `Primary`) pass their child through.
 */
import type * as ohm from "ohm-js";
import { lumaGrammar } from "./luma-grammar";
import { declarationActions } from "./to-ast-declarations";
import { expressionActions } from "./to-ast-expressions";
import { statementActions } from "./to-ast-statements";
import { testActions } from "./to-ast-tests";
import { evalActions } from "./to-ast-evals";
import { typeActions } from "./to-ast-types";

let semantics: ohm.Semantics | undefined;

export function lumaSemantics(): ohm.Semantics {
  semantics ??= lumaGrammar()
    .createSemantics()
    .addOperation("ast", { ...declarationActions, ...statementActions, ...expressionActions, ...typeActions, ...testActions, ...evalActions });
  return semantics;
}
