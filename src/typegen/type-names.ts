/**
 * Names in the generated file. A tool's types are named after the tool in PascalCase
 * (`db_write` → `DbWriteInput`); every name must be unique, or the file would not compile —
 * so a clash (a schema called `CalculateInput` next to tool `calculate`) is reported as a
 * LumaError instead of emitting a broken file.
 */
import { startupError } from "../diagnostics/luma-error";

export function pascalCase(name: string): string {
  return name
    .split("_")
    .filter((part) => part !== "")
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join("");
}

/** Records who owns each generated name; the second owner of a name is an error. */
export class NameRegistry {
  private readonly owners = new Map<string, string>();

  claim(name: string, owner: string): string {
    const earlier = this.owners.get(name);
    if (earlier) {
      throw startupError(`Cannot generate tool types: the type name '${name}' is used by both ${earlier} and ${owner}.`, { catalogCode: "E0612" });
    }
    this.owners.set(name, owner);
    return name;
  }
}
