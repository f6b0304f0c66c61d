// The shared rules, once: what every package checks against, and what the documents state.
import { describe, expect, it } from 'vitest'
import { CHANNEL_NAME, LIMITS, PLANS, isChannelName, msUntil, refill } from '../index.js'
import { asyncapi, openapi } from '../spec/index.js'

type Schemas = { components: { schemas: Record<string, { pattern?: string; enum?: string[] }> } }

describe('wire rules', () => {
  it('channel names: 1–200 of [A-Za-z0-9_:.@-], never . or ..', () => {
    for (const ok of ['chat:lobby', 'a', 'user@x.y', 'support:conversations', 'x'.repeat(200), '...'])
      expect(isChannelName(ok), ok).toBe(true)
    for (const bad of ['', '.', '..', 'a b', 'é', 'x'.repeat(201), 'a/b', 42, null])
      expect(isChannelName(bad)).toBe(false)
  })

  it('the documents state the same rules the packages import', () => {
    const rest = (openapi as unknown as Schemas).components.schemas
    const socket = (asyncapi as unknown as Schemas).components.schemas
    expect(rest.ChannelName!.pattern).toBe(CHANNEL_NAME.source)
    expect(socket.ChannelName!.pattern).toBe(CHANNEL_NAME.source)
    expect(JSON.stringify(rest.ConversationCreate)).toContain(`"maxLength":${LIMITS.subject}`)
  })

  it('one token-bucket refill: continuous, capped, never backwards', () => {
    const perMs = PLANS.maps.limit / PLANS.maps.intervalMs
    expect(refill(0, 100, 600, perMs)).toBeCloseTo(1)
    expect(refill(99.5, 100, 60_000, perMs)).toBe(100)
    expect(refill(5, 100, -1_000, perMs)).toBe(5) // a clock that went back refills nothing
    expect(msUntil(0.5, 1, perMs)).toBeCloseTo(300)
    expect(msUntil(2, 1, perMs)).toBe(0)
  })
})
