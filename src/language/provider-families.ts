/**
 * The provider families a `model` block's `provider:` key may name (spec §5): the one list of
 * their names. It lives here, below check and runtime, because both read it — the model key
 * table (`keys/model-keys.ts`) offers exactly these values, and the runtime's table of
 * families (`runtime/providers/families.ts`) is typed `Record<ProviderName, ProviderFamily>`,
 * so a name here without its folder there does not compile.
 */

export const PROVIDER_NAMES = ["openai", "openai-compatible", "azure", "anthropic", "gemini", "mcp"] as const;

export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The names as a doc line says them: `"a", "b" or "c"`. */
export function providerNamesInProse(): string {
  const quoted = PROVIDER_NAMES.map((name) => `"${name}"`);
  return `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}
