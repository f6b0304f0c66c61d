// The shape lines of what a client reads over REST, and of the channel payloads it keeps
// (src/generated/answer-fields.ts), in has-fields.ts's syntax: every answer schema of every
// operation, each list's item, and the socket payloads the SDK stores. Unlike the frame lines
// (flat, required fields only, on the hot receive path), these state the whole answer: optional
// fields, nulls, enums, finite numbers, dates, nested objects and each item of an array.

/** Kinds `hasFields` reserves: an enum value may not be one of them. */
const RESERVED = /^(any|string|boolean|number|object|array|null|id|date|int-?\d*)$/

const constName = (schema) => `${schema.replace(/(?<=.)[A-Z]/g, '_$&').toUpperCase()}_FIELDS`

/**
 * @param {object} openapi the OpenAPI document (as built from src/spec)
 * @param {object} asyncapi the AsyncAPI document
 * @param {string} collectionsSource src/collections.ts, whose `Collections` interface names the registry's paths
 */
export function answerFields(openapi, asyncapi, collectionsSource) {
  const schemas = { ...asyncapi.components.schemas, ...openapi.components.schemas }
  const deref = (s) => (s.$ref ? deref(schemas[s.$ref.split('/').pop()]) : s)
  const refName = (s) => s.$ref?.split('/').pop()

  const enumOf = (values) => {
    for (const v of values)
      if (typeof v !== 'string' || !/^[^\s:?|]+$/.test(v) || RESERVED.test(v))
        throw new Error(`enum value ${JSON.stringify(v)} cannot be written in a line`)
    return values.join('|')
  }
  const kindOf = (schema) => {
    const s = deref(schema)
    if (s.oneOf || s.anyOf) return (s.oneOf ?? s.anyOf).every((b) => deref(b).type === 'object') ? 'object' : 'any'
    const types = [s.type].flat()
    const nullable = types.includes('null') && types.length === 2 ? '?' : ''
    const type = types.filter((t) => !nullable || t !== 'null')
    if (s.const !== undefined) return enumOf([s.const]) + nullable
    if (s.enum) return enumOf(s.enum) + nullable
    if (String(type) === 'string,number') return 'id'
    if (type.length > 1) throw new Error(`no kind for type ${type}`)
    const [t] = type
    if (t === undefined) return 'any'
    if (t === 'string') return (s.format === 'date-time' ? 'date' : 'string') + nullable
    if (t === 'integer') return `int${s.minimum ?? ''}${nullable}`
    if (['number', 'boolean', 'object', 'array'].includes(t)) return t + nullable
    throw new Error(`no kind for type ${t}`)
  }

  /** `path:kind` for the value at `path`, then its nested fields and items. */
  const emit = (schema, path, optional, out) => {
    const kind = kindOf(schema)
    if (kind === 'any' && optional) return // anything, or nothing: no check
    out.push(`${path}${optional ? '?' : ''}:${kind}`)
    nested(schema, path, out)
  }
  const nested = (schema, path, out) => {
    const s = deref(schema)
    if (s.oneOf || s.anyOf) return // `object` at most: the branches are told apart by whoever reads them
    const required = s.required ?? []
    for (const [name, p] of Object.entries(s.properties ?? {}))
      emit(p, path ? `${path}.${name}` : name, !required.includes(name), out)
    if (s.items) {
      const kind = kindOf(s.items)
      if (kind !== 'any') out.push(`${path}[]:${kind}`)
      nested(s.items, `${path}[]`, out)
    }
  }
  const line = (name) => {
    const out = []
    nested(schemas[name], '', out)
    return out.join(' ')
  }

  // Every 2xx answer of every operation, where it is answered; then each page's item.
  const answered = new Map()
  for (const [path, item] of Object.entries(openapi.paths))
    for (const [method, op] of Object.entries(item)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const name = refName(response.content?.['application/json']?.schema ?? {})
        if (!name || !/^2\d\d$/.test(status)) continue
        if (!answered.has(name)) answered.set(name, new Set())
        answered.get(name).add(`${method.toUpperCase()} ${path}`)
      }
    }
  const pages = [...answered.keys()].filter((name) => name.endsWith('Page'))
  const envelope = (name) => Object.keys(schemas[name].properties).join()
  for (const name of pages)
    if (envelope(name) !== 'data,nextCursor') throw new Error(`${name} is not a { data, nextCursor } page`)
  const items = new Map(pages.map((page) => [page, refName(schemas[page].properties.data.items)]))
  const socket = ['CustomerTyping', 'ResourcePresenceData']
  // What a push carries, decrypted: the service worker checks it (isPushPayload).
  const pushed = ['PushPayload']
  const named = [...new Set([...answered.keys(), 'PlaceSuggestion', ...items.values(), ...socket, ...pushed])]

  // The registry's paths (collections.ts), each with the item its list answers.
  const registry = collectionsSource
    .match(/export interface Collections \{([^}]*)\n\}/)[1]
    .match(/^ {2}'[^']+'/gm)
    .map((key) => key.trim().slice(1, -1))
  const services = openapi.components.parameters.service.schema
  const serviceNames = deref(services).enum
  const itemOf = new Map()
  /** What `GET <collection>/{id}` answers, where it is not the list's item (an article's full text). */
  const oneOf = new Map()
  for (const [path, item] of Object.entries(openapi.paths)) {
    const answer = refName(item.get?.responses?.[200]?.content?.['application/json']?.schema ?? {})
    const collection = path.replace(/^\/([^/]+)\/v1\//, '$1/')
    for (const service of collection.startsWith('{service}/') ? serviceNames : [undefined]) {
      const at = service ? collection.replace('{service}', service) : collection
      if (items.has(answer)) itemOf.set(at, items.get(answer))
      else if (answer && at.endsWith('/{id}')) oneOf.set(at.slice(0, -'/{id}'.length), answer)
    }
  }
  const ones = registry
    .filter((path) => oneOf.has(path) && oneOf.get(path) !== itemOf.get(path))
    .map((path) => `  ${JSON.stringify(path)}: ${constName(oneOf.get(path))},\n`)
  const table = registry.map((path) => {
    const item = itemOf.get(path)
    if (!item) throw new Error(`no list answers the collection ${path}`)
    return `  ${JSON.stringify(path)}: ${constName(item)},\n`
  })
  // `support/conversations/<id>/threads` is no key of the table: itemFields() (src/answers.ts) names its line.
  if (itemOf.get('support/conversations/{id}/threads') !== 'Thread') throw new Error('threads are not a ThreadPage')

  // What each event of the customer's channel carries: its `data` fits the line of its payload.
  const customerEvents = Object.values(asyncapi.channels.customer.messages).map(
    (m) => `  ${m.name}: ${constName(refName(m.payload))},\n`,
  )

  const pageOf = (name) => [...items].find(([, item]) => item === name)?.[0]
  const doc = (name) =>
    `/** \`${name}\`: ${
      answered.has(name)
        ? [...answered.get(name)].join(', ')
        : socket.includes(name)
          ? 'a channel payload'
          : pushed.includes(name)
            ? 'what a push carries (a service worker reads it)'
            : pageOf(name)
              ? `each item of \`${pageOf(name)}\``
              : 'a part of an answer'
    }. */\n`
  return [
    '',
    "import type { Collections } from '../collections.js'\n",
    "import type { CustomerEventName } from '../customer.js'\n\n",
    '// Lines for `hasFields` and `wrongField` (their syntax: has-fields.ts). What a client reads over\n',
    '// REST, whole: optional fields (`name?:`), nulls (`kind?`), enums (`a|b`), dates, nested objects\n',
    '// (`a.b`) and the items of arrays (`a[].b`).\n\n',
    '/** The envelope of every list page. */\n',
    `export const PAGE_FIELDS = ${JSON.stringify(
      line(pages[0])
        .split(' ')
        .filter((f) => !f.startsWith('data[]'))
        .join(' '),
    )}\n\n`,
    ...named.map((name) => `${doc(name)}export const ${constName(name)} = ${JSON.stringify(line(name))}\n`),
    '\n/** The item of each collection of the registry (`ItemOf<P>`): what each `data[]` of its list pages fits. */\n',
    `export const ITEM_FIELDS = {\n${table.join('')}} as const satisfies Record<keyof Collections, string>\n`,
    '/** What `get(id)` answers (`OneOf<P>`), where it is not the item of the list. */\n',
    `export const ONE_FIELDS = {\n${ones.join('')}} as const satisfies Partial<Record<keyof Collections, string>>\n`,
    "/** What each event of a customer's channel carries (asyncapi.json, channel `customer`): its `data` fits the line. */\n",
    `export const CUSTOMER_EVENT_FIELDS = {\n${customerEvents.join('')}} as const satisfies Record<CustomerEventName, string>\n`,
  ].join('')
}
