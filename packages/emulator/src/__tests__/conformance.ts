// The emulator against the contract, in every test that talks to it through the shared helpers:
// each HTTP answer (`call`, `authed`) and each frame a test socket receives is validated with
// ajv against @tandem/contract's OpenAPI and AsyncAPI documents. An answer the contract does not
// allow (a field it does not name, a wrong type, an undeclared status) fails the test.
import { CUSTOMER_CHANNEL_PREFIX } from '@tandem/contract'
import { asyncapi, openapi } from '@tandem/contract/spec'
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'vitest'

type Json = Record<string, unknown>

/** A document's schemas as `$defs` of one schema, so ajv resolves every `$ref` among them. */
function defs(id: string, document: Json): Json {
  const schemas = (document.components as { schemas: Json }).schemas
  return { $id: id, $defs: JSON.parse(JSON.stringify(schemas).replaceAll('#/components/schemas/', '#/$defs/')) as Json }
}

const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true })
addFormats(ajv)
ajv.addSchema(defs('rest', openapi))
ajv.addSchema(defs('frames', asyncapi))

interface Operation {
  pattern: RegExp
  method: string
  responses: Record<string, Json>
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete']
const operations: Operation[] = Object.entries(openapi.paths as Record<string, Json>).flatMap(([template, item]) => {
  // `{id}` matches one encoded segment; `:` in `routes:compute` is literal.
  const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`)
  return METHODS.filter((m) => item[m]).map((m) => ({
    pattern,
    method: m.toUpperCase(),
    responses: (item[m] as { responses: Record<string, Json> }).responses,
  }))
})
const responses = (openapi.components as { responses: Record<string, Json> }).responses

/** The schema a response with `status` must match, or a reason it may have none. */
function schemaFor(operation: Operation, status: number): string | { none: string } | undefined {
  let response = operation.responses[String(status)] ?? (status >= 400 ? operation.responses.default : undefined)
  if (!response) return undefined
  const ref = response.$ref as string | undefined
  if (ref) response = responses[ref.split('/').pop()!]!
  const content = response.content as Record<string, { schema: { $ref: string } }> | undefined
  if (!content) return { none: 'no body' }
  // A file's bytes (a download): its type is the document's to say, not a JSON schema's.
  const json = content['application/json']
  if (!json) return { none: 'not JSON' }
  return json.schema.$ref.replace('#/components/schemas/', 'rest#/$defs/')
}

const explain = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ')

/** Problems with one HTTP answer ([] when it conforms, or when the path is not the services' (dev token, …)). */
export function checkResponse(method: string, path: string, status: number, body: unknown, requestId: string | null) {
  const pathname = path.split('?')[0]!
  const candidates = operations.filter((o) => o.pattern.test(pathname))
  if (candidates.length === 0 || method === 'OPTIONS' || method === 'HEAD') return []
  const problems: string[] = []
  if (!requestId) problems.push('no X-Request-Id')
  const operation = candidates.find((o) => o.method === method)
  // A method the path does not have: only an error answer is allowed.
  const schema = operation ? schemaFor(operation, status) : status >= 400 ? 'rest#/$defs/Error' : undefined
  if (schema === undefined) return [...problems, `${method} ${pathname}: status ${status} is not in the contract`]
  if (typeof schema === 'object')
    return body === undefined || schema.none === 'not JSON' ? problems : [...problems, `${status} has a body`]
  if (!ajv.validate(schema, body)) problems.push(`${method} ${pathname} ${status}: ${explain(ajv.errors)}`)
  return problems
}

/** A customer channel's payload schema by event (AsyncAPI `channels.customer.messages`). */
const customerEvents = (asyncapi.channels as Record<string, { messages: Record<string, { payload: Json }> }>).customer!
  .messages

/** Problems with the data of a message on a customer channel (the frame's own schema says `data: any`). */
export function checkCustomerEvent(message: { channel?: unknown; event?: unknown; data?: unknown }): string[] {
  if (typeof message.channel !== 'string' || !message.channel.startsWith(CUSTOMER_CHANNEL_PREFIX)) return []
  const payload = customerEvents[String(message.event)]?.payload
  if (!payload) return [`customer channel event ${String(message.event)} is not in the contract`]
  const schema = String(payload.$ref).replace('#/components/schemas/', 'frames#/$defs/')
  return ajv.validate(schema, message.data) ? [] : [`customer ${String(message.event)}: ${explain(ajv.errors)}`]
}

/** Each channel that declares a member schema (AsyncAPI `channels.*.messages.member`), by its exact address. */
const memberSchemas = new Map(
  Object.values(asyncapi.channels as Record<string, { address: string; messages: Record<string, { payload: Json }> }>)
    .filter((c) => c.messages.member)
    .map((c) => [
      c.address,
      String(c.messages.member!.payload.$ref).replace('#/components/schemas/', 'frames#/$defs/'),
    ]),
)

/** Problems with the members a presence frame carries, on a channel with a member schema. */
function checkMembers(f: { type?: unknown; channel?: unknown; member?: unknown; members?: unknown }): string[] {
  const schema = typeof f.channel === 'string' ? memberSchemas.get(f.channel) : undefined
  if (!schema) return []
  const members = f.type === 'presence.event' ? [f.member] : f.type === 'presence.members' ? f.members : []
  return (Array.isArray(members) ? (members as { data?: unknown }[]) : []).flatMap((m) =>
    ajv.validate(schema, m?.data) ? [] : [`member of ${String(f.channel)}: ${explain(ajv.errors)}`],
  )
}

/** Problems with one server frame. */
export function checkFrame(frame: unknown): string[] {
  const f = frame as { type?: unknown; messages?: unknown; channels?: unknown; channel?: unknown } | null
  const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : [])
  // A push, a history page, or what a subscribe missed.
  const carried =
    f?.type === 'message' ? [f as Json] : [...list(f?.messages), ...list(f?.channels).flatMap((c) => list(c.missed))]
  const events = [...carried.flatMap((m) => checkCustomerEvent(m)), ...(f ? checkMembers(f) : [])]
  if (events.length) return events
  if (ajv.validate('frames#/$defs/ServerFrame', frame)) return []
  const type = (frame as { type?: unknown } | null)?.type
  // oneOf reports every branch: name the frame's own.
  const own = ajv.errors?.filter((e) => !e.schemaPath.includes('oneOf') || e.instancePath !== '') ?? []
  return [`frame ${String(type)}: ${explain(own.length ? own : ajv.errors)}`]
}

const violations: string[] = []

/** Validates an answer: throws at once, with what broke the contract. */
export async function conform(method: string, path: string, response: Response): Promise<Response> {
  // `emu.faults.respondNext` answers off-contract bodies on purpose, and says so.
  if (response.headers.get('x-emulator-fault') === 'respond') return response
  const text = await response.clone().text()
  let body: unknown
  if (text) {
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
  }
  const problems = checkResponse(method, path, response.status, body, response.headers.get('x-request-id'))
  if (problems.length) throw new Error(`contract violation: ${problems.join('; ')}\n${text.slice(0, 500)}`)
  return response
}

/** Records a frame's problems; every test ends by checking there were none. */
export function conformFrame(frame: unknown): void {
  try {
    violations.push(...checkFrame(frame))
  } catch (error) {
    violations.push(`validator failed: ${String(error)}`) // never lose a frame to the check itself
  }
}

/** Fails the test if any frame or answer it saw broke the contract; after each test (setup.ts). */
export function expectConformance(): void {
  const found = violations.splice(0)
  expect(found, 'frames the contract does not allow').toEqual([])
}
