/** §7 builtins and their arities (`print` takes any number of values). */
export interface Arity {
  min: number;
  max: number;
}

export const BUILTINS: Readonly<Record<string, Arity>> = {
  print: { min: 0, max: Infinity },
  len: { min: 1, max: 1 },
  str: { min: 1, max: 1 },
  json: { min: 1, max: 1 },
  keys: { min: 1, max: 1 },
  now: { min: 0, max: 0 },
  calls: { min: 1, max: 1 },
};

export const isBuiltin = (name: string): boolean => Object.hasOwn(BUILTINS, name);

/** "2", "1 to 2", "at least 1" — the expected count in an arity message. */
export function arityText({ min, max }: Arity): string {
  if (max === Infinity) return `at least ${min}`;
  return min === max ? String(min) : `${min} to ${max}`;
}
