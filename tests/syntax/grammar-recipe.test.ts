import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { grammarPath, recipePath, renderRecipeModule } from "../../scripts/gen-grammar-recipe";

describe("§1 Grammar recipe", () => {
  test("src/syntax/grammar-recipe.generated.ts is up to date with grammar.ohm (run scripts/gen-grammar-recipe.ts)", () => {
    const expected = renderRecipeModule(readFileSync(grammarPath, "utf8"));
    expect(readFileSync(recipePath, "utf8")).toBe(expected);
  });
});
