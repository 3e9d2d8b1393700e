/**
 * The one child visitor (`language/ast-children.ts`) misses nothing: on a program that uses
 * every statement and expression kind, the walkers built on it (`forEachStmt`,
 * `forEachExpr`, `flattenBody`) reach exactly the nodes a blind walk over the AST's objects
 * finds, in source order. The kind lists are typed as records of the AST's kinds, so a new
 * kind does not compile here until this program uses it.
 */
import { describe, expect, test } from "bun:test";
import type { Expr, Stmt } from "../../src/syntax/ast";
import { parse } from "../../src/syntax/parse";
import { flattenBody, forEachExpr, forEachStmt } from "../../src/language/walk";
import { nestedBlocks, pushExprChildren, pushStmtExprs } from "../../src/language/ast-children";

const STMT_KINDS: Record<Stmt["kind"], true> = {
  Assign: true, If: true, For: true, While: true, Break: true, Continue: true,
  AssignInto: true, Return: true, Try: true, ExprStmt: true, Assert: true,
  Score: true, Parallel: true,
};
const EXPR_KINDS: Record<Expr["kind"], true> = {
  Num: true, Str: true, Bool: true, Null: true, Array: true, Object: true, Name: true, Member: true,
  Index: true, Call: true, Lambda: true, Binary: true, Unary: true, ToolCall: true, Ask: true, DbCall: true,
  ParallelFor: true,
};

const SOURCE = `fn g(x: int) -> int {
  t: int = 1
  y = [1, "a{x}b", true, null, { k: -x }]
  y[0] = x.f
  o.f = not x
  if x > 1 {
    a = f(x, 2)
    m = map(y, (v) => v + x)
  } else {
    b = 3
  }
  for i in y {
    continue
  }
  while x < 2 {
    break
  }
  try {
    r = tool t({ n: x })
  } catch e {
    print(e)
  }
  z = ask "q {x}" -> int
  w = query q({ a: 1 })
  assert x == 1, "m"
  score "s" x == 1
  p = parallel for d in y limit 2 {
    d + 1
  }
  parallel {
    m = 1
  }
  return x
}
`;

/** Every node of the given kinds under `root`, found by looking at every object (the kind names the node), depth first in key order. */
type Node = { kind: string; span: { start: number; end: number } };

function blindWalk(root: unknown, kinds: Record<string, true>): Node[] {
  const out: Node[] = [];
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") {
      const kind = (v as { kind?: unknown }).kind;
      if (typeof kind === "string" && Object.hasOwn(kinds, kind)) out.push(v as Node);
      for (const [key, child] of Object.entries(v)) if (key !== "span" && !key.endsWith("Span")) visit(child);
    }
  };
  visit(root);
  return out;
}

const bySpan = (a: { span: { start: number; end: number } }, b: { span: { start: number; end: number } }) =>
  a.span.start - b.span.start || b.span.end - a.span.end;

describe("the one child visitor", () => {
  const program = parse(SOURCE, "t.luma").program!;
  const body = (program.decls[0] as { body: Stmt[] }).body;

  test("the program uses every statement and expression kind", () => {
    expect(new Set(blindWalk(body, STMT_KINDS).map((n) => n.kind))).toEqual(new Set(Object.keys(STMT_KINDS)));
    expect(new Set(blindWalk(body, EXPR_KINDS).map((n) => n.kind))).toEqual(new Set(Object.keys(EXPR_KINDS)));
  });

  test("forEachStmt reaches every statement, parent before children, in source order", () => {
    const seen: Stmt[] = [];
    forEachStmt(body, (s) => seen.push(s));
    expect(seen).toEqual([...blindWalk(body, STMT_KINDS)].sort(bySpan) as unknown as Stmt[]);
  });

  test("forEachExpr and flattenBody reach every expression once", () => {
    const seen: Expr[] = [];
    forEachExpr(body, (e) => seen.push(e));
    const all = blindWalk(body, EXPR_KINDS) as unknown as Expr[];
    expect(seen.length).toBe(all.length);
    expect(new Set(seen)).toEqual(new Set(all));
    expect(flattenBody(body).exprKinds.get("Name")).toEqual(seen.filter((e) => e.kind === "Name"));
  });

  test("each node's direct children are what the blind walk finds one level down", () => {
    // One level down: the expressions met before any other expression or statement.
    const direct = (node: object): Expr[] => {
      const out: Expr[] = [];
      const visit = (v: unknown) => {
        if (Array.isArray(v)) v.forEach(visit);
        else if (v && typeof v === "object") {
          const kind = (v as { kind?: unknown }).kind;
          if (typeof kind === "string" && Object.hasOwn(EXPR_KINDS, kind)) out.push(v as Expr);
          else if (!(typeof kind === "string" && Object.hasOwn(STMT_KINDS, kind))) Object.values(v).forEach(visit);
        }
      };
      Object.entries(node).forEach(([key, child]) => key !== "span" && !key.endsWith("Span") && visit(child));
      return out;
    };
    forEachStmt(body, (s) => {
      const exprs: Expr[] = [];
      pushStmtExprs(s, exprs);
      expect(new Set(exprs)).toEqual(new Set(direct(s)));
      // A `parallel for` that is a statement's whole value lends it its loop, a nested `for`.
      const value = s.kind === "Assign" || s.kind === "Return" ? s.value : s.kind === "ExprStmt" ? s.expr : undefined;
      expect(nestedBlocks(s).flat()).toEqual(
        value?.kind === "ParallelFor" ? [value.loop] : Object.entries(s).filter(([, v]) => Array.isArray(v)).flatMap(([, v]) => v as Stmt[]),
      );
    });
    forEachExpr(body, (e) => {
      const children: Expr[] = [];
      pushExprChildren(e, children);
      expect(new Set(children)).toEqual(new Set(direct(e)));
      expect(children.reverse()).toEqual([...children].sort(bySpan));
    });
  });
});
