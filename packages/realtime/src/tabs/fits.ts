// One shape check for what reaches a tab from elsewhere: another tab's message, or a frame its
// client sends up to the hub. A shape lists fields as `name` (a string), `name:kind`, and either
// with a trailing `?` when the field may be absent.

const isString = (v: unknown): v is string => typeof v === 'string'
const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null

const KINDS: Record<string, (v: unknown) => boolean> = {
  string: isString,
  int: Number.isInteger,
  id: (v) => isString(v) || Number.isFinite(v),
  strings: (v) => Array.isArray(v) && v.every(isString),
  /** A subscribe's channels, and a connect's resume: what the hub reads of them. */
  channels: (v) => Array.isArray(v) && v.every((e) => isObject(e) && isString(Reflect.get(e, 'channel'))),
  resume: (v) => isObject(v) && isString(Reflect.get(v, 'connectionId')),
}

type Field = [name: string, kind: string, optional: boolean]

// Shapes are split once: a frame is checked on every relay.
const split = new Map<string, Field[]>()

function fieldsOf(shape: string): Field[] {
  let fields = split.get(shape)
  if (!fields)
    split.set(
      shape,
      (fields = (shape ? shape.split(' ') : []).map((f) => {
        const [name = '', kind = 'string'] = f.replace('?', '').split(':')
        return [name, kind, f.endsWith('?')]
      })),
    )
  return fields
}

/** Whether `value` is an object with a `type` that `shapes` names, and every field of that shape. */
export function fitsType(value: unknown, shapes: Map<string, string>): boolean {
  if (!isObject(value)) return false
  const type: unknown = Reflect.get(value, 'type')
  const shape = isString(type) ? shapes.get(type) : undefined
  return (
    shape !== undefined &&
    fieldsOf(shape).every(([name, kind, optional]) => {
      const v: unknown = Reflect.get(value, name)
      return (optional && v === undefined) || KINDS[kind]!(v)
    })
  )
}
