// The answer lines (src/generated/answer-fields.ts) say what the OpenAPI and AsyncAPI documents
// say: every answer has one, a valid answer fits it, and every field it names, made wrong, is
// refused by ajv on the document and by the line, at the same path.
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import * as lines from '../generated/answer-fields.js'
import {
  ITEM_FIELDS,
  PAGE_FIELDS,
  THREAD_FIELDS,
  hasFields,
  itemFields,
  oneFields,
  wrongField,
  wrongPageField,
} from '../index.js'
import { asyncapi, openapi } from '../spec/index.js'

type Schema = Record<string, unknown> & {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  oneOf?: Schema[]
  enum?: unknown[]
}
const components = (doc: unknown) => (doc as { components: { schemas: Record<string, Schema> } }).components.schemas
const schemas: Record<string, Schema> = { ...components(asyncapi), ...components(openapi) }
const deref = (s: Schema): Schema => (s.$ref ? deref(schemas[s.$ref.split('/').pop()!]!) : s)

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true })
addFormats(ajv)
ajv.addSchema({ $id: 'c', $defs: JSON.parse(JSON.stringify(schemas).replaceAll('#/components/schemas/', '#/$defs/')) })
const valid = (name: string, value: unknown) => ajv.validate(`c#/$defs/${name}`, value)

/** A valid value of `schema`, every optional field present (the test's own, checked by ajv below). */
function sample(schema: Schema): unknown {
  const s = deref(schema)
  if (s.oneOf) return sample(s.oneOf[0]!)
  if (s.const !== undefined) return s.const
  if (s.enum) return s.enum[0]
  // A value no rule of thumb makes (a P-256 key): the schema's own example.
  if (Array.isArray(s.examples)) return s.examples[0]
  const type = [s.type].flat().find((t) => t !== 'null')
  if (type === 'string') {
    if (s.format === 'date-time') return '2024-07-05T10:00:00.000Z'
    if (s.format === 'email') return 'ada@example.com'
    const prefix = /^\^([a-z]+_)/.exec(String(s.pattern ?? ''))?.[1]
    return prefix ? `${prefix}1` : s.pattern === '^[A-Z]{2}$' ? 'US' : 'x'
  }
  if (type === 'integer' || type === 'number') return (s.minimum as number | undefined) ?? 0
  if (type === 'boolean') return true
  if (type === 'array') return Array.from({ length: (s.minItems as number | undefined) ?? 1 }, () => sample(s.items!))
  if (type === 'object')
    return Object.fromEntries(Object.entries(s.properties ?? {}).map(([name, p]) => [name, sample(p)]))
  return null // any JSON value
}

/** The schema name of each line: `PLACE_AUTOCOMPLETE_FIELDS` → `PlaceAutocomplete`. */
const schemaOf = (constant: string) =>
  constant
    .replace(/_FIELDS$/, '')
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())
const named = (Object.entries(lines) as [string, unknown][]).filter(
  (e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'PAGE_FIELDS',
)

/** A value of another kind than the field's (null where null is refused, a number where a string is wanted). */
function wrong(kind: string): unknown {
  // A nullable number is refused text; any other nullable, a number.
  if (kind.endsWith('?')) return /^(int|number)/.test(kind) ? 'wrong' : 42
  return ['number', 'int', 'date'].some((k) => kind.startsWith(k)) || kind.includes('|') || /^[A-Z]/.test(kind)
    ? 'wrong'
    : kind === 'string'
      ? 42
      : null
}

/** `value` with the field at `path` (its first item for `[]`) set to `to`, or deleted. */
function mutate(value: unknown, path: string, to: unknown, remove: boolean): unknown {
  const copy = structuredClone(value) as Record<string, unknown>
  const steps = path.split('.').flatMap((segment) => {
    const [name, ...items] = segment.split('[]')
    return [name!, ...items.map(() => 0)]
  })
  let at: Record<string | number, unknown> = copy
  for (const step of steps.slice(0, -1)) at = at[step] as Record<string | number, unknown>
  const last = steps.at(-1)!
  if (remove) delete at[last]
  else at[last] = to
  return copy
}

describe('answer lines, from the OpenAPI and AsyncAPI documents', () => {
  it('every 2xx answer of every operation has a line, and each page item and channel payload', () => {
    const answers = new Set<string>()
    for (const item of Object.values(openapi.paths as Record<string, Record<string, Schema>>))
      for (const op of Object.values(item))
        for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Schema>)) {
          const ref = (response.content as { 'application/json'?: { schema: Schema } } | undefined)?.[
            'application/json'
          ]?.schema.$ref
          if (/^2/.test(status) && ref) answers.add(ref.split('/').pop()!)
        }
    const have = new Set(named.map(([constant]) => schemaOf(constant)))
    expect([...answers].filter((name) => !have.has(name))).toEqual([])
    for (const name of ['PlaceSuggestion', 'CustomerTyping', 'ResourcePresenceData', 'Thread', 'Agent'])
      expect(have.has(name), name).toBe(true)
  })

  it.each(named)(
    '%s: a valid answer fits, and each field made wrong is refused there, as ajv refuses it',
    (constant, line) => {
      const name = schemaOf(constant)
      const good = sample(schemas[name]!)
      expect(valid(name, good), `${name} sample: ${JSON.stringify(ajv.errors)}`).toBe(true)
      expect(wrongField(good, line)).toBe(undefined)
      for (const field of line.split(' ')) {
        const [path, kind] = field.split(':') as [string, string]
        const optional = path.endsWith('?')
        const at = optional ? path.slice(0, -1) : path
        if (at.endsWith('[]')) continue // an item of a simple array: its kind is checked with the array's first item below
        const bad = kind === 'any' ? mutate(good, at, undefined, true) : mutate(good, at, wrong(kind), false)
        expect(valid(name, bad), `ajv accepts ${field} = ${JSON.stringify(wrong(kind))}`).toBe(false)
        const firstItems = `$.${at}`.replaceAll('[]', '[0]')
        expect(wrongField(bad, line), field).toBe(firstItems)
        if (!optional && kind !== 'any') {
          const absent = mutate(good, at, undefined, true)
          expect(valid(name, absent), `ajv accepts ${name} without ${at}`).toBe(false)
          expect(wrongField(absent, line), `${field} absent`).toBe(firstItems)
        }
      }
      for (const field of line.split(' ').filter((f) => /\[\]:/.test(f))) {
        const [path, kind] = field.split(':') as [string, string]
        const bad = mutate(good, `${path.slice(0, -2)}[]`, wrong(kind), false)
        expect(valid(name, bad), `ajv accepts ${field} = ${JSON.stringify(wrong(kind))}`).toBe(false)
        expect(wrongField(bad, line), field).toBe(`$.${path.replaceAll('[]', '[0]')}`)
      }
    },
  )

  it.each(named)(
    '%s names every field of its schema: a value of another type anywhere is refused',
    (constant, line) => {
      const name = schemaOf(constant)
      const good = sample(schemas[name]!)
      // Every field and item of the sample, with the schema it has (not below a oneOf: the line stops at `object` there).
      const paths: [path: (string | number)[], value: unknown][] = []
      const walk = (schema: Schema, value: unknown, path: (string | number)[]) => {
        const s = deref(schema)
        if (path.length) paths.push([path, value])
        if (s.oneOf) return
        if (Array.isArray(value)) value.forEach((v, i) => walk(s.items!, v, [...path, i]))
        else if (value && typeof value === 'object')
          for (const [k, v] of Object.entries(value)) walk(s.properties![k]!, v, [...path, k])
      }
      walk(schemas[name]!, good, [])
      for (const [path, value] of paths) {
        const bad = structuredClone(good) as Record<string | number, unknown>
        let at = bad
        for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>
        at[path.at(-1)!] = typeof value === 'string' ? 42 : typeof value === 'number' ? '42' : value === null ? 42 : 'x'
        const where = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')
        if (valid(name, bad)) continue // any JSON value
        expect(wrongField(bad, line), `${name}${where} changed`).toBe(`$${where}`)
      }
    },
  )

  it('the page envelope, and each collection of the registry with its item', () => {
    expect(PAGE_FIELDS).toBe('data:array nextCursor:string?')
    const page = { data: [sample(schemas.Conversation!)], nextCursor: null }
    expect(wrongPageField(page, ITEM_FIELDS['support/conversations'])).toBe(undefined)
    expect(wrongPageField({ ...page, nextCursor: 5 }, ITEM_FIELDS['support/conversations'])).toBe('$.nextCursor')
    expect(
      wrongPageField({ data: [...page.data, { id: 1 }], nextCursor: 'c' }, ITEM_FIELDS['support/conversations']),
    ).toBe('$.data[1].id')
    expect(wrongPageField({ nextCursor: null }, THREAD_FIELDS)).toBe('$.data')
    expect(wrongPageField([], THREAD_FIELDS)).toBe('$')
    expect(itemFields('support/conversations/cnv_1/threads')).toBe(THREAD_FIELDS)
    expect(itemFields('support/agents')).toBe(lines.AGENT_FIELDS)
    // What `get(id)` answers: an article's full text where the list has summaries, else the item.
    expect(oneFields('support/docs/articles')).toBe(lines.ARTICLE_FIELDS)
    expect(oneFields('support/conversations')).toBe(lines.CONVERSATION_FIELDS)
    expect(oneFields('support/conversations/cnv_1/threads')).toBe(THREAD_FIELDS)
    expect(oneFields('__proto__')).toBe(undefined)
    for (const path of ['support/nope', '__proto__', 'toString', 'support/conversations//threads'])
      expect(itemFields(path), path).toBe(undefined)
    // A list's page, as the service answers it, fits its page line and its item line alike.
    for (const [path, item] of Object.entries(ITEM_FIELDS)) {
      const itemName = schemaOf(named.find(([, l]) => l === item)![0])
      const one = { data: [sample(schemas[itemName]!)], nextCursor: 'c' }
      expect(wrongPageField(one, item), path).toBe(undefined)
      expect(hasFields(one.data[0], item), path).toBe(true)
    }
  })
})
