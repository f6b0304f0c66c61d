import { DEV } from './dev/index.js'
import { isRecord } from './is-object.js'
// The SDK's one shape check: a value against a line of the generated tables (frames in
// src/generated/frame-fields.ts, REST answers and channel payloads in src/generated/answer-fields.ts).
// Small enough for a browser bundle, where a JSON Schema validator is not.
//
// A line is fields separated by one space, each `path:kind`:
//
// - path: a field name (`offset`), or a dotted path into nested objects (`author.type`); `[]` after
//   a name stands for each item of that array (`suggestions[].mainText`, `coordinates[][]`). A `?`
//   at the end of the path makes the field optional: checked only when present
//   (`distanceMeters?:number`). A nested path is checked in each object its parent reaches; a parent
//   that is absent, null or not an object is its own field's business (`author:object`), and `[]`
//   over something that is not an array checks nothing (`suggestions:array` says it must be one).
// - kind: `string`, `boolean`, `object` (not null, not an array), `array`, `null`, `number` (finite:
//   JSON's 1e400 parses as Infinity), `int` or `int<minimum>` (a safe integer, at least the minimum:
//   `int0`, `int1`), `id` (a string or a number), `date` (a string `Date.parse` reads), `any` (any
//   value, present), or else the values allowed, separated by `|` (`active|pending|closed`; one
//   value alone is a constant, `Feature`). A `?` at the end also allows null (`string?`, `date?`).
//
// Fields the line does not name are not looked at. Nested names, and names on Object.prototype
// (`constructor`, `__proto__`), are read only as own fields. A value that throws when read (a getter, a revoked
// Proxy: JSON has neither) does not fit.

/** The kinds by code; any other kind is an enum (`values`). `int<min>` is `int` with its `min`. */
const KINDS = ['any', 'string', 'boolean', 'number', 'object', 'array', 'null', 'id', 'date', 'int']

/** One field of a line, compiled once. */
interface Field {
  /** The path as tokens (`suggestions[].mainText` → `suggestions`, `[]`, `mainText`); `name` alone for a plain field. */
  path: string[]
  name: string | undefined
  /** The index of its kind in KINDS; -1 for an enum. */
  code: number
  min: number
  values: string[]
  optional: boolean
  nullable: boolean
}

/** Each line compiled once: clients check every frame with the same few lines on the hot receive path. */
const compiled = new Map<string, Field[]>()

function field(spec: string): Field {
  const [, path = '', optional, kind = '', nullable] = /^([^:?]+)(\?)?:([^?]+)(\?)?$/.exec(spec) ?? []
  // A generated line always reads; this says so to whoever writes a new one by hand.
  if (!kind)
    throw new TypeError((DEV && process.env.NODE_ENV !== 'production' && `hasFields: not path:kind: ${spec}`) || spec)
  const int = /^int(-?\d+)?$/.exec(kind)
  const tokens = path.replaceAll('[]', '.[]').split('.')
  // A name every object inherits (`constructor`) goes the walk's way, which reads own fields only.
  const plain = tokens.length === 1 && !(path in Object.prototype)
  return {
    path: tokens,
    name: plain ? path : undefined,
    code: int ? 9 : KINDS.indexOf(kind),
    min: Number(int?.[1] ?? -Infinity),
    values: kind.split('|'),
    optional: !!optional,
    nullable: !!nullable,
  }
}

function fits(f: Field, v: unknown): boolean {
  if (v === undefined) return f.optional
  if (v === null && f.nullable) return true
  switch (f.code) {
    case 0:
      return true
    case 1:
      return typeof v == 'string'
    case 2:
      return typeof v == 'boolean'
    case 3:
      return Number.isFinite(v)
    case 4:
      return isRecord(v)
    case 5:
      return Array.isArray(v)
    case 6:
      return v === null
    case 7:
      return typeof v == 'string' || typeof v == 'number'
    case 8:
      return typeof v == 'string' && !isNaN(Date.parse(v))
    case 9:
      return Number.isSafeInteger(v) && (v as number) >= f.min
  }
  return f.values.includes(v as string)
}

/**
 * Where `f` does not fit under `v` from token `i` on (`.suggestions[2].mainText`; `` at `v` itself),
 * or undefined. A name is read in an object only (an own field); `[]` goes through an array's items.
 */
function walk(f: Field, v: unknown, i: number): string | undefined {
  const token = f.path[i]
  let r: string | undefined
  if (token === undefined) return fits(f, v) ? undefined : ''
  if (token === '[]') {
    if (Array.isArray(v))
      for (let k = 0; k < v.length; k++) if ((r = walk(f, v[k], i + 1)) !== undefined) return `[${k}]${r}`
  } else if (isRecord(v) && (r = walk(f, Object.hasOwn(v, token) ? v[token] : undefined, i + 1)) !== undefined)
    return `.${token}${r}`
  return undefined
}

/**
 * The first field of `value` that is not as the line `fields` says, as a path (`$.suggestions[2].mainText`;
 * `$` when `value` is not an object at all), or `undefined` when it fits.
 */
export function wrongField(value: unknown, fields: string): string | undefined {
  let list = compiled.get(fields)
  if (!list) compiled.set(fields, (list = fields ? fields.split(' ').map(field) : []))
  try {
    if (!isRecord(value)) return '$'
    for (const f of list) {
      // A plain field (every frame's) is read here; a path walks.
      const r = f.name === undefined ? walk(f, value, 0) : fits(f, value[f.name]) ? undefined : `.${f.name}`
      if (r !== undefined) return `$${r}`
    }
  } catch {
    return '$'
  }
  return undefined
}

/** Whether `value` is an object that fits the line `fields` (see the syntax above). */
export const hasFields = (value: unknown, fields: string): boolean => wrongField(value, fields) === undefined
