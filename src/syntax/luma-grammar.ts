/**
 * The compiled Luma grammar, built once on first use from the generated recipe.
 *
 * `ohm.makeRecipe` replays a precompiled grammar, which is far cheaper than compiling
 * `grammar.ohm` text; keeping it lazy means importing the parser costs nothing until a
 * program is actually parsed.
 */
import * as ohm from "ohm-js";
import { grammarRecipe } from "./grammar-recipe.generated";

// Exported by ohm-js at run time, but missing from its type declarations.
const { makeRecipe } = ohm as unknown as { makeRecipe(recipe: string): ohm.Grammar };

let grammar: ohm.Grammar | undefined;

export function lumaGrammar(): ohm.Grammar {
  grammar ??= makeRecipe(grammarRecipe);
  return grammar;
}
