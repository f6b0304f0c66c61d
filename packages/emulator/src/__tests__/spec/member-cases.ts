// The presence member cases, generated from the AsyncAPI document: every channel that declares a
// `member` message (resource presence: `ResourcePresenceData`), its valid example, and each
// constraint of the member schema broken once. Sent as `presence.enter` data, each must be
// refused `bad_request` naming `data.<field>`.
import { asyncapi } from '@tandem/contract/spec'
import { apply, fieldName, mutations, type Json } from './negative-cases.js'

export interface MemberCase {
  name: string
  channel: string
  data: unknown
  /** The field the refusal names: `data.typing`, `data.locks[0].ttlMs`, or `data` itself. */
  field: string
  alone: boolean
}

/** A valid member per member schema, with every constrained field filled in (so each can break). */
const EXAMPLES: Record<string, unknown> = {
  ResourcePresenceData: {
    name: 'Ana',
    viewing: ['cnv_1', 'cnv_2'],
    typing: ['cnv_1'],
    locks: [{ id: 'cnv_1', acquiredAt: 1_700_000_000_000, ttlMs: 60_000 }],
  },
}

const schemas = (asyncapi.components as Record<string, Record<string, Json>>).schemas!
const resolve = (s: Json): Json => {
  const ref = s.$ref
  return typeof ref === 'string' ? resolve(schemas[ref.split('/').pop()!]!) : s
}

/** Every channel with a member schema: its valid member, and the cases breaking one constraint each. */
export function memberCases(): { valid: { channel: string; data: unknown }[]; cases: MemberCase[] } {
  const valid: { channel: string; data: unknown }[] = []
  const cases: MemberCase[] = []
  const channels = asyncapi.channels as Record<string, { address: string; messages: Record<string, Json> }>
  for (const { address, messages } of Object.values(channels)) {
    const payload = messages.member?.payload as Json | undefined
    if (!payload) continue
    const schemaName = String(payload.$ref).split('/').pop()!
    const example = EXAMPLES[schemaName]
    if (example === undefined) throw new Error(`no member example for ${schemaName}: add one to member-cases.ts`)
    const channel = address.replace(/\{[^}]+\}/g, 'x')
    valid.push({ channel, data: example })
    for (const m of mutations(payload, example, resolve)) {
      const field = fieldName(['data', ...m.path])
      cases.push({
        name: `${schemaName} ${field} ${m.keyword}`,
        channel,
        data: apply({ data: example }, { ...m, path: ['data', ...m.path] }).data,
        field,
        alone: m.alone,
      })
    }
    // Not an object at all.
    cases.push({ name: `${schemaName} data type`, channel, data: 'a string', field: 'data', alone: true })
  }
  return { valid, cases }
}
