// The OpenAPI document's repeated parts: the standard headers, the error answers, and `op()`,
// which turns an operation's answers, parameters and body into its OpenAPI object.
import { LIST_RULES } from '../list-rules.js'
import { RATE_LIMIT_BUCKETS, RATE_LIMIT_HEADERS } from '../wire.js'
import { examplesOf, type RequestExample } from './examples.js'
import { integer, ref, string, type Schema } from './helpers.js'

const header = (description: string, schema: Schema = integer({ minimum: 0 })) => ({ description, schema })
export const HEADERS = {
  'X-Request-Id': header('Quote it when reporting a problem (echoes a valid `X-Request-Id` sent).', string()),
  'RateLimit-Limit': header(
    "The bucket's size: requests per window of the plan (the app's, or a customer's own: `Tandem-RateLimit-Bucket`).",
  ),
  'RateLimit-Remaining': header('Requests left before the bucket is empty.'),
  'RateLimit-Reset': header('Seconds until the bucket is full again.'),
  [RATE_LIMIT_HEADERS.bucket]: header(
    "Which bucket the `RateLimit-*` headers describe: `app` (the app's plan, shared by its agents and servers) or " +
      "`customer` (a customer token's own, drawn on before the app's): the one closer to empty, or the one a 429 " +
      'came from. Absent from older services: read it as `app`.',
    string({ enum: [...RATE_LIMIT_BUCKETS] }),
  ),
  'Retry-After': header('Seconds to wait before retrying.'),
}
export const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]))
/** On every answer, success or error. */
export const STANDARD_HEADERS = headerRefs([
  'X-Request-Id',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  RATE_LIMIT_HEADERS.bucket,
])

export const json = (schema: Schema) => ({ 'application/json': { schema } })
const ok = (schema: string, description: string) => ({
  description,
  headers: STANDARD_HEADERS,
  content: json(ref(schema)),
})

export const ERROR_RESPONSES = {
  default: { $ref: '#/components/responses/Error' },
  429: { $ref: '#/components/responses/RateLimited' },
}

/** One operation: its answers (status → schema name, or null for no body) and the error answers. */
interface Operation {
  /** Status → the schema of its body, or null for none. */
  answers: Record<number, string | null>
  parameters?: Schema[]
  body?: string
  /** Takes an `Idempotency-Key`. */
  write?: boolean
  /** A POST that changes nothing (`x-tandem-query`; QUERY_POSTS lists them). */
  query?: boolean
  /**
   * A write worth nothing later (`x-tandem-ephemeral`: a customer's typing): a durable outbox never
   * keeps it, so it is not in WRITE_PATHS; offline it fails as a read does.
   */
  ephemeral?: boolean
  description?: string
}

export function op(
  operationId: string,
  tag: string,
  summary: string,
  { answers, parameters = [], body, write = false, query = false, ephemeral = false, description }: Operation,
): Schema {
  const examples = examplesOf(operationId)
  const responses: Record<string, Schema> = {}
  for (const [status, schema] of Object.entries(answers)) {
    responses[status] =
      schema === null ? { description: 'Done.', headers: STANDARD_HEADERS } : ok(schema, `${summary} (${status})`)
  }
  return {
    operationId,
    tags: [tag],
    summary,
    ...(description ? { description } : {}),
    ...(query ? { 'x-tandem-query': true } : {}),
    ...(ephemeral ? { 'x-tandem-ephemeral': true } : {}),
    parameters: [...parameters, ...(write ? [{ $ref: '#/components/parameters/idempotencyKey' }] : [])],
    ...(body ? { requestBody: { required: true, content: bodyContent(body, examples) } } : {}),
    responses: { ...responses, ...ERROR_RESPONSES },
    'x-tandem-examples': examples,
  }
}

/** The body's schema, with the examples' bodies as its `examples` (the linter checks them against it). */
function bodyContent(body: string, examples: RequestExample[]): Schema {
  const named: Record<string, Schema> = {}
  examples.forEach((e, i) => {
    if (e.body) named[`example${i + 1}`] = { summary: e.summary, value: e.body }
  })
  return { 'application/json': { schema: ref(body), ...(examples.some((e) => e.body) ? { examples: named } : {}) } }
}

/** The socket's schemas that REST does not use. */
export const without = (schemas: Record<string, Schema>, ...names: string[]) =>
  Object.fromEntries(Object.entries(schemas).filter(([name]) => !names.includes(name)))

/** A list operation with its order and filter rules (`x-tandem-list`), from LIST_RULES. */
export const withList = (path: string, operation: Schema): Schema => ({
  ...operation,
  'x-tandem-list': LIST_RULES[path],
})

export const p = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` })
/**
 * A query parameter, its serialisation stated rather than left to defaults: `form` style,
 * exploded, never empty. So `?status=active&status=closed` gives a scalar twice and `?cursor=` an
 * empty value: the service refuses both (400 `invalid_parameter`), and the SDK never sends either.
 */
export const query = (name: string, schema: Schema, description?: string, required = false): Schema => ({
  name,
  in: 'query',
  required,
  style: 'form',
  explode: true,
  allowEmptyValue: false,
  // The schema says "not empty" too, for tools that skip `allowEmptyValue` (Prism 5 does).
  schema: schema.type === 'string' && schema.minLength === undefined ? { ...schema, minLength: 1 } : schema,
  ...(description ? { description } : {}),
})
export const pathParam = (name: string, schema: Schema = string({ minLength: 1 })): Schema => ({
  name,
  in: 'path',
  required: true,
  schema,
})
export const PAGE = [p('limit'), p('cursor')]
