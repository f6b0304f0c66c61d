// The shared rules, once: what every package checks against, and what the documents state.
import { describe, expect, it } from 'vitest'
import {
  CHANNEL_NAME,
  CLOSE,
  IDEMPOTENCY_KEY,
  LIMITS,
  PLANS,
  QUERY_POSTS,
  closeClass,
  closeName,
  isChannelName,
  isIdempotencyKey,
  msUntil,
  refill,
} from '../index.js'
import { asyncapi, openapi } from '../spec/index.js'

type Schemas = { components: { schemas: Record<string, { pattern?: string; enum?: string[] }> } }
type Property = { properties: Record<string, { pattern?: string }> }
type Parameters = { components: { parameters: Record<string, { schema: { pattern?: string; maxLength?: number } }> } }

describe('wire rules', () => {
  it('the POSTs that change nothing are the operations the OpenAPI document marks x-tandem-query', () => {
    const marked: string[] = []
    for (const [path, ops] of Object.entries(
      (openapi as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths,
    ))
      for (const [method, op] of Object.entries(ops))
        if (op['x-tandem-query']) {
          expect(method).toBe('post')
          const [, service, ...rest] = path.split('/')
          marked.push(`${service} /${rest.join('/')}`)
        }
    expect(marked.sort()).toEqual([...QUERY_POSTS].sort())
  })

  it('channel names: 1–200 of [A-Za-z0-9_:.@-], never . or ..', () => {
    for (const ok of ['chat:lobby', 'a', 'user@x.y', 'support:conversations', 'x'.repeat(200), '...'])
      expect(isChannelName(ok), ok).toBe(true)
    for (const bad of ['', '.', '..', 'a b', 'é', 'x'.repeat(201), 'a/b', 42, null])
      expect(isChannelName(bad)).toBe(false)
  })

  it('idempotency keys: 1–255 printable ASCII, no space (REST and socket alike)', () => {
    for (const ok of ['a', '~', 'k-1:x/y', '!'.repeat(LIMITS.idempotencyKey)])
      expect(isIdempotencyKey(ok), ok).toBe(true)
    for (const bad of ['', 'a b', ' ', 'é', '\t', 'x'.repeat(LIMITS.idempotencyKey + 1), 42, null])
      expect(isIdempotencyKey(bad)).toBe(false)
    expect(IDEMPOTENCY_KEY.source).toContain(`{1,${LIMITS.idempotencyKey}}`)
  })

  it('close codes: named both ways, classed by range', () => {
    for (const [name, code] of Object.entries(CLOSE)) expect(closeName(code)).toBe(name)
    expect(closeName(4050)).toBeUndefined()
    expect([4000, 4003, 4009, 4099].map(closeClass)).toEqual(['fatal', 'fatal', 'fatal', 'fatal'])
    expect([4100, 4102, 4199].map(closeClass)).toEqual(['reauth', 'reauth', 'reauth'])
    expect([1000, 1006, 3999, 4200, 4290, 4300].map(closeClass)).toEqual(Array(6).fill('retry'))
  })

  it('the documents state the same rules the packages import', () => {
    const rest = (openapi as unknown as Schemas).components.schemas
    const socket = (asyncapi as unknown as Schemas).components.schemas
    expect(rest.ChannelName!.pattern).toBe(CHANNEL_NAME.source)
    expect(socket.ChannelName!.pattern).toBe(CHANNEL_NAME.source)
    expect(JSON.stringify(rest.ConversationCreate)).toContain(`"maxLength":${LIMITS.subject}`)
    const header = (openapi as unknown as Parameters).components.parameters.idempotencyKey!.schema
    expect(header).toMatchObject({ pattern: IDEMPOTENCY_KEY.source, maxLength: LIMITS.idempotencyKey })
    expect((socket.PublishFrame as unknown as Property).properties.idempotencyKey!.pattern).toBe(IDEMPOTENCY_KEY.source)
    expect((asyncapi as { 'x-close-codes'?: unknown })['x-close-codes']).toEqual(CLOSE)
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
