import { isObject } from '@tandem/contract'
// One shape check for what reaches a tab from elsewhere: another tab's message, or a frame its
// client sends up to the hub. A shape lists fields as `name` (a string), `name:kind`, and either
// with a trailing `?` when the field may be absent.

const isString = (v: unknown): v is string => typeof v === 'string'

const KINDS = new Map<string, (v: unknown) => boolean>([
  ['string', isString],
  ['int', Number.isInteger],
  ['id', (v) => isString(v) || Number.isFinite(v)],
  ['strings', (v) => Array.isArray(v) && v.every(isString)],
  // A subscribe's channels, and a connect's resume: what the hub reads of them.
  ['channels', (v) => Array.isArray(v) && v.every((e) => isObject(e) && isString(Reflect.get(e, 'channel')))],
  ['resume', (v) => isObject(v) && isString(Reflect.get(v, 'connectionId'))],
])

type Field = [name: string, kind: string, optional: boolean]
export type Shapes = Map<string, Field[]>

/** The shapes by type, split once (a frame is checked on every relay). */
export const shapes = <Type extends string>(byType: Record<Type, string>): Shapes =>
  new Map(
    Object.entries<string>(byType).map(([type, shape]) => [
      type,
      (shape ? shape.split(' ') : []).map((f): Field => {
        const [name = '', kind = 'string'] = f.replace('?', '').split(':')
        return [name, kind, f.endsWith('?')]
      }),
    ]),
  )

/** Whether `value` is an object with a `type` that `byType` names, and every field of that shape. */
export function fitsType(value: unknown, byType: Shapes): boolean {
  if (!isObject(value)) return false
  const type: unknown = Reflect.get(value, 'type')
  const fields = isString(type) ? byType.get(type) : undefined
  return !!fields?.every(([name, kind, optional]) => {
    const v: unknown = Reflect.get(value, name)
    return (optional && v === undefined) || KINDS.get(kind)!(v)
  })
}
