// The one check of a frame (or a part of one) against a `*_FIELDS` line of the generated table
// (src/generated/frame-fields.ts): small enough for a browser bundle, where a JSON Schema
// validator is not.

// A line is split once: clients run this for every frame on the hot receive path.
const parsed = new Map<string, string[][]>()

/**
 * Whether `value` is an object holding every field `fields` names, each of its kind: a JSON type
 * other than number (the generator names none), `id` (a string or a number), `any` (present) or
 * `int<minimum>` (a safe integer, not below the minimum when one is named). Fields the line does
 * not name are not looked at.
 */
export function hasFields(value: unknown, fields: string): boolean {
  if (typeof value !== 'object' || value === null) return false
  let list = parsed.get(fields)
  if (!list) parsed.set(fields, (list = fields ? fields.split(' ').map((f) => f.split(':')) : []))
  for (const [name, kind] of list as [string, string][]) {
    const v = (value as Record<string, unknown>)[name]
    const type = Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v
    if (
      kind === 'any'
        ? v === undefined
        : kind === 'id'
          ? type !== 'string' && type !== 'number'
          : kind.startsWith('int')
            ? !Number.isSafeInteger(v) || (v as number) < Number(kind.slice(3) || -Infinity)
            : type !== kind
    )
      return false
  }
  return true
}
