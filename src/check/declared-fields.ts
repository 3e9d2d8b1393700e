/**
 * Every field and parameter a program declares — schema fields, tool/query/command
 * parameters, fn and method parameters — for rules that look at annotations wherever
 * they are written.
 */
import type { Field, Program } from "../syntax/ast";
import { assertNever } from "../syntax/assert-never";

export function forEachDeclaredField(program: Program, visit: (field: Field) => void): void {
  for (const decl of program.decls) {
    switch (decl.kind) {
      case "Schema":
        decl.fields.forEach(visit);
        break;
      case "Tool":
      case "Query":
      case "Command":
      case "Fn":
        decl.params.forEach(visit);
        break;
      case "Agent":
        for (const m of decl.methods) m.params.forEach(visit);
        break;
      case "Union":
      case "Model":
      case "Datasource":
        break;
      default:
        assertNever(decl);
    }
  }
}
