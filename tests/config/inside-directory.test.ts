import { describe, expect, test } from "bun:test";
import { isInsideDirectory } from "../../src/config/inside-directory";

describe("§10 'inside the project directory' (dependency_root, strict project confinement)", () => {
  const cases: [string, boolean][] = [
    ["/proj", true],
    ["/proj/", true],
    ["/proj/a.ts", true],
    ["/proj/..cache/a.ts", true], // a name starting with two dots is a file of the project
    ["/proj/..", false],
    ["/proj/.../x", true],
    ["/proj/a/../../b", false],
    ["/", false],
    ["/other/a.ts", false],
    ["/projx/a.ts", false], // a sibling sharing the prefix is outside
  ];
  for (const [path, inside] of cases) {
    test(`${path} is ${inside ? "inside" : "outside"} /proj`, () => {
      expect(isInsideDirectory("/proj", path)).toBe(inside);
    });
  }
});
