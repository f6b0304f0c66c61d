// An ajv error, in words a caller can act on: which field (`customer.email`, `waypoints[0].lat`)
// and what is wrong with it. Shared by the REST and socket checks, so both say the same thing.
import {
  CHANNEL_NAME,
  CHANNEL_NAME_RULE,
  IDEMPOTENCY_KEY,
  IDEMPOTENCY_KEY_RULE,
  PRESENCE_NAME,
  PRESENCE_NAME_RULE,
  TEXT_OR_FILES_RULE,
} from '@tandem/contract'
import type { ErrorObject } from 'ajv/dist/2020.js'

export interface Issue {
  /** Dotted path below the checked value; '' is the value itself. */
  field: string
  message: string
  /** The broken keyword (`maxLength`, `pattern`, …). */
  keyword: string
  /** True when the value broke the channel-name rule (answered as `invalid_channel`). */
  channel: boolean
}

/** Patterns with a sentence of their own. */
const RULES: Record<string, string> = {
  [CHANNEL_NAME.source]: CHANNEL_NAME_RULE,
  [IDEMPOTENCY_KEY.source]: IDEMPOTENCY_KEY_RULE,
  [PRESENCE_NAME.source]: PRESENCE_NAME_RULE,
  '\\S': 'must not be blank',
}
const FORMATS: Record<string, string> = {
  email: 'an email address',
  'date-time': 'an RFC 3339 date-time such as 2025-01-01T00:00:00Z',
}
const TYPES: Record<string, string> = { integer: 'an integer', number: 'a number', object: 'a JSON object' }

/**
 * The one error to report. ajv lists a failed `oneOf`'s branches, then the `oneOf`: the deepest
 * error wins, and at equal depth one in a field beats a missing field, so `{ placeId: '' }` is
 * told its placeId is empty rather than that `lat` (of the other branch) is missing.
 */
export function pickIssue(errors: readonly ErrorObject[] | null | undefined): Issue {
  let best: Issue | undefined
  let score = -1
  for (const error of errors ?? []) {
    if (error.keyword === 'oneOf' && best) continue
    const issue = describe(error)
    const depth = issue.field === '' ? 0 : issue.field.split(/[.[]/).length
    const s = depth * 2 + (issue.keyword === 'required' ? 0 : 1)
    if (s > score) [best, score] = [issue, s]
  }
  return best ?? { field: '', message: 'is not valid', keyword: 'unknown', channel: false }
}

function describe(e: ErrorObject): Issue {
  const p = e.params as Record<string, unknown>
  const at = fieldOf(e.instancePath)
  const child = (name: unknown) => (at ? `${at}.${String(name)}` : String(name))
  const issue = (message: string, field = at): Issue => ({
    field,
    message,
    keyword: e.keyword,
    channel: e.keyword === 'pattern' && p.pattern === CHANNEL_NAME.source,
  })
  switch (e.keyword) {
    case 'required':
      return issue('is required', child(p.missingProperty))
    case 'additionalProperties':
      return issue('is not a field the contract names here', child(p.additionalProperty))
    case 'maxLength':
      return issue(`must be at most ${String(p.limit)} characters`)
    case 'minLength':
      return issue(`must be at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`)
    case 'maxItems':
      return issue(`must have at most ${String(p.limit)} items`)
    case 'minItems':
      return issue(`must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`)
    case 'maximum':
    case 'minimum':
      return issue(`must be ${e.keyword === 'maximum' ? 'at most' : 'at least'} ${String(p.limit)}`)
    case 'pattern':
      return issue(RULES[String(p.pattern)] ?? `must match ${String(p.pattern)}`)
    case 'format':
      return issue(`must be ${FORMATS[String(p.format)] ?? `a ${String(p.format)}`}`)
    case 'enum':
      return issue(`must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`)
    case 'not':
      // The contract's one `not`: a message of blank text and no file (attachment-schemas.ts).
      return issue(TEXT_OR_FILES_RULE)
    case 'const':
      return issue(`must be ${JSON.stringify(p.allowedValue)}`)
    case 'type': {
      const types = String(p.type).split(',')
      return issue(`must be ${types.map((t) => TYPES[t] ?? `a ${t}`).join(' or ')}`)
    }
    default:
      return issue(e.message ?? 'is not valid')
  }
}

/** `/customer/email` → `customer.email`; `/waypoints/0/lat` → `waypoints[0].lat`. */
export function fieldOf(pointer: string): string {
  let out = ''
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part
  }
  return out
}
