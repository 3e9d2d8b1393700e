/** A minimal checked-program AST declaring the given tools and datasources (the registry reads only names). */
import type { Decl, Program, Span } from "../../src/syntax/ast";

const span: Span = { file: "test.luma", start: 0, end: 0 };

export function programDeclaring(tools: string[], datasources: string[] = [], file = "test.luma"): Program {
  const toolDecls: Decl[] = tools.map((name) => ({
    kind: "Tool",
    name,
    params: [],
    returns: { kind: "NamedType", name: "Result", span },
    options: [],
    needs: [],
    span,
    nameSpan: span,
  }));
  const datasourceDecls: Decl[] = datasources.map((name) => ({ kind: "Datasource", name, entries: [], span, nameSpan: span }));
  return { kind: "Program", file, decls: [...toolDecls, ...datasourceDecls], body: [], span };
}
