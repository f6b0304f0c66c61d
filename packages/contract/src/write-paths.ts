// Which write a request is, by the OpenAPI document's paths (src/generated/write-paths.ts): what a
// durable outbox files a write under (its lane, the resource it changes) and checks a stored write
// against before it is sent again, so a stored path can only ever be one of the contract's writes.
import { WRITE_PATHS, WRITE_PATH_PARAMS, type WriteOperation } from './generated/write-paths.js'
import { MAX_ID, SERVICES, type ServiceName } from './wire.js'

export { WRITE_PATHS, WRITE_PATH_PARAMS, type WriteOperation }

export interface WriteMatch {
  operation: WriteOperation
  /** The operation's path under the service (`/v1/me/conversations/{id}/messages`). */
  template: string
  /**
   * The resource the write changes: the service and the path up to and including its first path
   * parameter (`support /v1/me/conversations/cnv_1`), or the collection a create adds to
   * (`support /v1/me/conversations`). Writes of one lane are applied in order.
   */
  lane: string
}

const patterns = new Map<string, RegExp>()

/** One path segment as `encodeURIComponent(value)` makes it, `value` fitting the parameter's schema. */
function fits(name: string, segment: string): boolean {
  let value: string
  try {
    value = decodeURIComponent(segment)
  } catch {
    return false
  }
  // Encoded exactly once: no `/`, `?`, `#` or `%2e%2e` a URL parser would split or resolve away.
  if (encodeURIComponent(value) !== segment || value === '.' || value === '..') return false
  const rule = WRITE_PATH_PARAMS[name] ?? {}
  if (value.length < (rule.minLength ?? 1) || value.length > (rule.maxLength ?? MAX_ID)) return false
  if (rule.pattern === undefined) return true
  let re = patterns.get(rule.pattern)
  if (!re) patterns.set(rule.pattern, (re = new RegExp(rule.pattern, 'u')))
  return re.test(value)
}

/**
 * The contract's write that `method path` on `service` is (`path` under the service, as a client's
 * request gives it), or undefined for anything else: a read, a path of no write, a parameter that
 * is not one encoded segment of its schema (`..`, a `/`, a query or fragment).
 *
 * @example
 * ```ts
 * matchWrite('support', 'POST', '/v1/me/conversations/cnv_1/messages')?.lane // 'support /v1/me/conversations/cnv_1'
 * matchWrite('support', 'POST', '/v1/conversations/../../../dev/token') // undefined
 * ```
 */
export function matchWrite(service: string, method: string, path: string): WriteMatch | undefined {
  if (!(SERVICES as readonly string[]).includes(service) || typeof path !== 'string') return undefined
  const segments = path.split('/')
  for (const operation of WRITE_PATHS[service as ServiceName]) {
    const parts = operation.template.split('/')
    if (operation.method !== method || parts.length !== segments.length) continue
    let first = parts.length - 1
    const same = parts.every((part, i) => {
      if (!part.startsWith('{')) return part === segments[i]
      first = Math.min(first, i)
      return fits(part.slice(1, -1), segments[i]!)
    })
    if (same)
      return { operation, template: operation.template, lane: `${service} ${segments.slice(0, first + 1).join('/')}` }
  }
  return undefined
}
