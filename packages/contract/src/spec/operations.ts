// The OpenAPI document's repeated parts: the standard headers, the error answers, and `op()`,
// which turns an operation's answers, parameters and body into its OpenAPI object.
import { LIST_RULES } from '../list-rules.js'
import { integer, ref, string, type Schema } from './helpers.js'

const header = (description: string, schema: Schema = integer({ minimum: 0 })) => ({ description, schema })
export const HEADERS = {
  'X-Request-Id': header('Quote it when reporting a problem (echoes a valid `X-Request-Id` sent).', string()),
  'RateLimit-Limit': header("The bucket's size: requests per window of the caller's plan."),
  'RateLimit-Remaining': header('Requests left before the bucket is empty.'),
  'RateLimit-Reset': header('Seconds until the bucket is full again.'),
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
  description?: string
}

export function op(
  operationId: string,
  tag: string,
  summary: string,
  { answers, parameters = [], body, write = false, query = false, description }: Operation,
): Schema {
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
    parameters: [...parameters, ...(write ? [{ $ref: '#/components/parameters/idempotencyKey' }] : [])],
    ...(body ? { requestBody: { required: true, content: json(ref(body)) } } : {}),
    responses: { ...responses, ...ERROR_RESPONSES },
  }
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
export const query = (name: string, schema: Schema, description?: string, required = false): Schema => ({
  name,
  in: 'query',
  required,
  schema,
  ...(description ? { description } : {}),
})
export const pathParam = (name: string, schema: Schema = string({ minLength: 1 })): Schema => ({
  name,
  in: 'path',
  required: true,
  schema,
})
export const PAGE = [p('limit'), p('cursor')]
