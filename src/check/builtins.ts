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
  int: { min: 1, max: 1 },
  float: { min: 1, max: 1 },
  bool: { min: 1, max: 1 },
  round: { min: 1, max: 2 },
  fixed: { min: 2, max: 2 },
  range: { min: 1, max: 2 },
  sum: { min: 1, max: Infinity },
  min: { min: 1, max: Infinity },
  max: { min: 1, max: Infinity },
  exit: { min: 0, max: 1 },
  split: { min: 2, max: 2 },
  join: { min: 2, max: 2 },
  trim: { min: 1, max: 1 },
  lower: { min: 1, max: 1 },
  upper: { min: 1, max: 1 },
  contains: { min: 2, max: 2 },
  starts_with: { min: 2, max: 2 },
  ends_with: { min: 2, max: 2 },
  replace: { min: 3, max: 3 },
  slice: { min: 2, max: 3 },
  calls: { min: 1, max: 1 },
};

export const isBuiltin = (name: string): boolean => Object.hasOwn(BUILTINS, name);

/** "2", "1 to 2", "at least 1" — the expected count in an arity message. */
export function arityText({ min, max }: Arity): string {
  if (max === Infinity) return `at least ${min}`;
  return min === max ? String(min) : `${min} to ${max}`;
}
