// The documented requests of every operation, read from the OpenAPI document (`x-tandem-examples`),
// and the credentials each is sent with: the conformance cases (rest-cases.ts) break them, and
// prism.test.ts sends them through Prism.
import { openapi, type ExampleCaller, type RequestExample } from '@tandem/contract/spec'
import { DEV_APP } from '../../defaults.js'
import type { Emulator } from '../../types.js'

export type Json = Record<string, unknown>

export interface RestRequest {
  method: string
  path: string
  /** Name and value pairs, in order: a name may come twice. */
  query: [string, string][]
  headers: Record<string, string>
  body: Record<string, unknown> | undefined
  caller: ExampleCaller
}

export interface Documented {
  operationId: string
  template: string
  method: string
  example: RequestExample
  request: RestRequest
  /** The operation's parameters (path-level ones first), `$ref`s resolved. */
  params: Json[]
  /** The request body's schema (`$ref`), when the operation takes one. */
  body: Json | undefined
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const
const parameters = (openapi.components as Record<string, Record<string, Json>>).parameters!
const param = (p: Json): Json => (typeof p.$ref === 'string' ? parameters[p.$ref.split('/').pop()!]! : p)

/** Every example of every operation, in document order; throws on an operation without one. */
export function documented(): Documented[] {
  const out: Documented[] = []
  for (const [template, item] of Object.entries(openapi.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined
      if (!operation) continue
      // Not JSON (tus uploads, file downloads): their own tests hold them to the document (__tests__/uploads).
      if (operation['x-tandem-raw'] === true) continue
      const operationId = operation.operationId as string
      const examples = operation['x-tandem-examples'] as RequestExample[] | undefined
      if (!examples?.length) throw new Error(`${operationId} documents no request (x-tandem-examples)`)
      const params = [...((item.parameters as Json[]) ?? []), ...((operation.parameters as Json[]) ?? [])].map(param)
      const content = (operation.requestBody as { content: Record<string, { schema: Json }> } | undefined)?.content
      for (const example of examples) {
        out.push({
          operationId,
          template,
          method: method.toUpperCase(),
          example,
          params,
          body: content?.['application/json']?.schema,
          request: {
            method: method.toUpperCase(),
            path: fill(template, example.params ?? {}),
            query: Object.entries(example.query ?? {}),
            headers: { ...example.headers },
            body: example.body,
            caller: example.caller,
          },
        })
      }
    }
  }
  return out
}

export const fill = (template: string, params: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `missing-${name}`))

/** The dev app's raw key, as a server sends it: `Authorization: Bearer <keyId>:<secret>`. */
export const RAW_KEY = `${DEV_APP.keys[0]!.id}:${DEV_APP.keys[0]!.secret}`

/**
 * What goes after `Bearer `: the raw key, or a token minted for the caller (one per caller);
 * undefined for `anonymous` (no Authorization header at all).
 */
export function credentials(emu: () => Emulator): (caller: ExampleCaller) => Promise<string | undefined> {
  const tokens = new Map<string, Promise<string>>()
  return (caller) => {
    if (caller === 'raw-key') return Promise.resolve(RAW_KEY)
    if (caller === 'anonymous') return Promise.resolve(undefined)
    const key = JSON.stringify(caller)
    let token = tokens.get(key)
    const { scope, subject } = caller
    if (!token) tokens.set(key, (token = emu().mintToken({ scope, ...(subject ? { subject } : {}) })))
    return token
  }
}

/** The request's URL below the base: its path and query, repeats kept. */
export const target = (r: RestRequest): string => {
  const query = new URLSearchParams(r.query).toString()
  return `${r.path}${query ? `?${query}` : ''}`
}
