// Negative inputs, generated from a schema: for each constraint a valid input meets (`required`,
// `additionalProperties`, `maxLength`, `minLength`, `pattern`, `format`, `enum`, `maximum`,
// `minimum`, `maxItems`, `minItems`, `uniqueItems`), one copy of it that breaks that constraint, and, where one
// exists, nothing else. ajv (allErrors) confirms each break, so a generator bug cannot pass quietly.
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

export type Json = Record<string, unknown>
export type Path = (string | number)[]

export interface Mutation {
  keyword: string
  /** Where the input changed: the field the refusal must name. */
  path: Path
  /** The new value; `REMOVE` deletes the field. */
  value: unknown
  /** The schema pattern that was broken (to tell a channel name from other text). */
  pattern?: string
  /** False when no value breaks this constraint alone (an empty string breaks `\S` too). */
  alone: boolean
  /** A field missing from a `oneOf` branch: it is missing from the others too, so any may be named. */
  ambiguous?: boolean
}

export const REMOVE = Symbol('remove')

const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true })
addFormats(ajv)
const compiled = new Map<string, ReturnType<typeof ajv.compile>>()
/** The keywords a scalar value breaks in `schema` (a schema without `$ref`s). */
function broken(schema: Json, value: unknown): string[] {
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (!validate) compiled.set(key, (validate = ajv.compile(schema)))
  return validate(value) ? [] : (validate.errors ?? []).map((e) => e.keyword)
}

const SCALAR_KEYWORDS = ['maxLength', 'minLength', 'pattern', 'format', 'enum', 'maximum', 'minimum']

/**
 * Every single-constraint break of `value` under `schema`. `resolve` follows a `$ref`. A `oneOf`
 * is walked through the branch `value` matches (the first whose required fields it has).
 */
export function mutations(schema: Json, value: unknown, resolve: (s: Json) => Json, path: Path = []): Mutation[] {
  const s = resolve(schema)
  if (Array.isArray(s.oneOf)) {
    const branches = (s.oneOf as Json[]).map(resolve)
    const branch = branches.find((b) => hasRequired(b, value)) ?? branches[0]!
    return mutations(branch, value, resolve, path).map((m) =>
      m.keyword === 'required' ? { ...m, ambiguous: true } : m,
    )
  }
  if (isObject(value) && s.type === 'object') return objectMutations(s, value, resolve, path)
  if (Array.isArray(value)) return arrayMutations(s, value, resolve, path)
  const out: Mutation[] = []
  for (const keyword of SCALAR_KEYWORDS) {
    if (s[keyword] === undefined) continue
    const found = breakScalar(s, value, keyword)
    if (found) out.push({ keyword, path, ...found, ...(keyword === 'pattern' ? { pattern: s.pattern as string } : {}) })
  }
  return out
}

function objectMutations(s: Json, value: Json, resolve: (s: Json) => Json, path: Path): Mutation[] {
  const out: Mutation[] = []
  for (const name of (s.required as string[] | undefined) ?? [])
    if (name in value) out.push({ keyword: 'required', path: [...path, name], value: REMOVE, alone: true })
  if (s.additionalProperties === false)
    out.push({ keyword: 'additionalProperties', path: [...path, 'unexpected'], value: 1, alone: true })
  for (const [name, property] of Object.entries((s.properties as Record<string, Json> | undefined) ?? {}))
    if (value[name] !== undefined) out.push(...mutations(property, value[name], resolve, [...path, name]))
  return out
}

function arrayMutations(s: Json, value: unknown[], resolve: (s: Json) => Json, path: Path): Mutation[] {
  const out: Mutation[] = []
  const first = value[0]
  if (typeof s.maxItems === 'number' && first !== undefined)
    out.push({ keyword: 'maxItems', path, value: Array(s.maxItems + 1).fill(first), alone: true })
  if (typeof s.minItems === 'number' && s.minItems > 0)
    out.push({ keyword: 'minItems', path, value: value.slice(0, s.minItems - 1), alone: true })
  if (s.uniqueItems === true && first !== undefined)
    out.push({
      keyword: 'uniqueItems',
      path,
      value: [first, first],
      alone: typeof s.maxItems !== 'number' || s.maxItems >= 2,
    })
  if (s.items && first !== undefined) out.push(...mutations(s.items as Json, first, resolve, [...path, 0]))
  return out
}

/** A value breaking `keyword` of the scalar schema `s`: alone when one can be found. */
function breakScalar(s: Json, valid: unknown, keyword: string): { value: unknown; alone: boolean } | undefined {
  let fallback: unknown
  for (const candidate of candidates(s, valid, keyword)) {
    const keywords = broken(s, candidate)
    if (!keywords.includes(keyword)) continue
    if (keywords.every((k) => k === keyword)) return { value: candidate, alone: true }
    fallback ??= candidate
  }
  return fallback === undefined ? undefined : { value: fallback, alone: false }
}

function candidates(s: Json, valid: unknown, keyword: string): unknown[] {
  const text = typeof valid === 'string' ? valid : String(valid)
  const pad = (n: number) => text.padStart(n, text[0] ?? 'a')
  switch (keyword) {
    case 'maxLength':
      return [pad((s.maxLength as number) + 1), 'a'.repeat((s.maxLength as number) + 1)]
    case 'minLength':
      return [text.slice(0, (s.minLength as number) - 1), ' '.repeat((s.minLength as number) - 1)]
    case 'pattern': {
      const middle = Math.floor(text.length / 2)
      const spaced = text.length > 1 ? `${text.slice(0, middle)} ${text.slice(middle + 1)}` : ' '
      return [spaced, ' '.repeat(Math.max(1, text.length)), `${text}#`, '..', '#']
    }
    case 'format':
      return ['not-an-address', '2025-13-45', 'yesterday at noon']
    case 'enum':
      return ['bogus', 'BOGUS-VALUE']
    case 'maximum':
      return [(s.maximum as number) + 1, (s.maximum as number) + 0.5]
    case 'minimum':
      return [(s.minimum as number) - 1, (s.minimum as number) - 0.5]
    default:
      return []
  }
}

function hasRequired(branch: Json, value: unknown): boolean {
  if (!isObject(value)) return branch.type !== 'object'
  return ((branch.required as string[] | undefined) ?? []).every((name) => name in value)
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A deep copy of `input` with `mutation` applied. */
export function apply<T>(input: T, mutation: Mutation): T {
  const copy = structuredClone(input) as unknown as Json
  let target: Json = copy
  for (const key of mutation.path.slice(0, -1)) target = target[key as string] as Json
  const last = mutation.path[mutation.path.length - 1]!
  if (mutation.value === REMOVE) delete target[last as string]
  else target[last as string] = mutation.value
  return copy as unknown as T
}

/** `['customer', 'email']` → `customer.email`; `['waypoints', 0, 'lat']` → `waypoints[0].lat`. */
export const fieldName = (path: Path): string =>
  path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${key}` : key), '')
