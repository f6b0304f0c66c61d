import { isObject } from '@tandem/contract'
import { hasFields } from '@tandem/contract/frame-fields'
// What reaches a tab from elsewhere (another tab's message, a frame its client sends up to the hub)
// is checked with the contract's one shape check (`hasFields`), against a line per `type`.

/** The lines by type, in a Map (a type read off the wire may be `constructor`). */
export const byType = <Type extends string>(lines: Record<Type, string>): ReadonlyMap<string, string> =>
  new Map(Object.entries(lines))

/** Whether `value` has a `type` that `lines` names, and every field of that type's line. */
export function fitsType(value: unknown, lines: ReadonlyMap<string, string>): boolean {
  const type: unknown = isObject(value) ? Reflect.get(value, 'type') : undefined
  const line = typeof type === 'string' ? lines.get(type) : undefined
  return line !== undefined && hasFields(value, line)
}
