// Presence member data checked against the AsyncAPI document: a channel that declares a `member`
// message (`channels.*.messages.member`, e.g. resource presence's `ResourcePresenceData`) gets its
// members' data checked with the shared ajv instance, like every other input. The table is read
// from the document at startup: a channel the contract gains is checked without a line here.
import { asyncapi } from '@tandem/contract/spec'
import { FRAMES, retarget, specAjv, type Json, type ValidateFunction } from './ajv.js'
import { pickIssue } from './issue.js'

interface MemberSchema {
  /** The channel address as a pattern (`{param}` is one or more channel-name characters other than `:`). */
  address: RegExp
  validate: ValidateFunction
}

let table: MemberSchema[] | undefined

/** The channels that declare a member schema, compiled (once per process; called at startup). */
export function memberChecks(): readonly MemberSchema[] {
  if (table) return table
  const ajv = specAjv()
  const channels = (asyncapi.channels ?? {}) as Record<string, { address?: string; messages?: Record<string, Json> }>
  table = Object.values(channels).flatMap(({ address, messages }) => {
    const payload = messages?.member?.payload as Json | undefined
    if (typeof address !== 'string' || !payload) return []
    return [{ address: addressPattern(address), validate: ajv.compile(retarget(payload, FRAMES)) }]
  })
  return table
}

/** `support:customer:{customerId}` → /^support:customer:[^:]+$/ (the rest of the address literal). */
function addressPattern(address: string): RegExp {
  const parts = address.split(/\{[^}]+\}/).map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('[^:]+')}$`)
}

/**
 * What is wrong with `data` as a member of `channel`, in words naming the field (`"data.typing"
 * must have at most 20 items`), or undefined when it is sound or the channel declares no schema.
 */
export function memberProblem(channel: string, data: unknown): string | undefined {
  const check = memberChecks().find((c) => c.address.test(channel))
  if (!check || check.validate(data)) return undefined
  const issue = pickIssue(check.validate.errors)
  return `"${issue.field ? `data.${issue.field}` : 'data'}" ${issue.message}.`
}
