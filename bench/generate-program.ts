/**
 * Generates a realistic Luma program of about `lines` lines for the benchmarks: schemas
 * with annotations, tool contracts (the default handlers calculate and text_stats),
 * agents with methods, top-level functions and code that calls them. It parses, checks
 * and runs (the top-level code calls only a few of the functions, so a run is short).
 */
export function generateProgram(lines: number): string {
  const out: string[] = [
    "// generated benchmark program",
    "schema CalcResult {",
    "  result: float",
    "}",
    "schema TextStats {",
    "  characters: int",
    "  words: int",
    "}",
    "tool calculate(",
    "  a: float @range(0, 1000000),",
    "  b: float @range(0, 1000000),",
    '  operation: enum["add", "multiply"] @desc("Operation to perform")',
    ") -> CalcResult {",
    '  side_effects: "none"',
    "}",
    "tool text_stats(text: string @length(0, 10000)) -> TextStats {",
    '  side_effects: "none"',
    "}",
  ];
  let i = 0;
  while (out.length < lines - 6) {
    out.push(
      `schema Report${i} {`,
      `  title: string @desc("Title of report ${i}") @length(1, 200)`,
      "  score: int @range(0, 100)",
      '  tags?: string[] @items(0, 5)',
      '  lang?: enum["en", "tr"] @default("en")',
      "}",
      "",
      `agent Worker${i} {`,
      "  tools: [text_stats, calculate]",
      "  tool_timeout: 5000",
      "",
      `  fn measure(text: string) -> Report${i} {`,
      "    stats = tool text_stats({ text: text })",
      "    if stats.words > 3 {",
      "      bonus = tool calculate({ a: stats.words, b: 2, operation: \"multiply\" })",
      "    } else {",
      "      bonus = null",
      "    }",
      "    total = 0",
      "    for w in [1, 2, 3] {",
      "      total = total + w * 2",
      "    }",
      `    return { title: "report {stats.words} {bonus}", score: total }`,
      "  }",
      "",
      "  fn twice(text: string) -> int {",
      "    first = measure(text)",
      "    second = measure(text + \" again\")",
      "    first.score + second.score",
      "  }",
      "}",
      "",
      `fn helper${i}(n: int) -> int {`,
      "  if n <= 1 {",
      "    return 1",
      "  }",
      `  n * helper${i}(n - 1)`,
      "}",
      "",
    );
    i++;
  }
  out.push(
    'r = Worker0.twice("the quick brown fox")',
    "f = helper0(5)",
    'print("total {r}, factorial {f}")',
  );
  return out.join("\n") + "\n";
}

/** The same program, long enough to take at least `bytes` bytes (the large-source figures and tests). */
export function generateProgramOfSize(bytes: number): string {
  const perLine = Buffer.byteLength(generateProgram(1000)) / 1000;
  return generateProgram(Math.ceil((bytes / perLine) * 1.05));
}
