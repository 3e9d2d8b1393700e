/**
 * The two things Luma adds to TypeBox's global registries, registered once, lazily (never
 * at import time): the `@format` checks, and the `LumaEnum` kind.
 *
 * `enum["a", "b"]` must be `{"type":"string","enum":["a","b"]}` in JSON Schema (spec §2);
 * TypeBox's own enum is an `anyOf` of consts, so Luma's enum is a custom kind whose JSON is
 * exactly the spec's and whose check TypeBox's compiler calls through the registry.
 */
import { Kind, Type, TypeRegistry, type TSchema, type SchemaOptions } from "@sinclair/typebox";
import { ensureFormatsRegistered } from "./formats";

export const LUMA_ENUM_KIND = "LumaEnum";

interface EnumSchema extends TSchema {
  enum: string[];
}

let registered = false;

export function ensureTypeBoxRegistry(): void {
  if (registered) return;
  ensureFormatsRegistered();
  if (!TypeRegistry.Has(LUMA_ENUM_KIND)) {
    TypeRegistry.Set<EnumSchema>(LUMA_ENUM_KIND, (schema, value) => typeof value === "string" && schema.enum.includes(value));
  }
  registered = true;
}

/** A string restricted to `values`, as plain JSON Schema. */
export const lumaEnum = (values: readonly string[], options: SchemaOptions): TSchema =>
  Type.Unsafe<string>({ type: "string", enum: [...values], ...options, [Kind]: LUMA_ENUM_KIND });
