// The client's frame checks (`@tandem/contract/frame-fields`) say what the AsyncAPI document says:
// every frame type, each required field, and a kind that refuses what the schema refuses.
import { describe, expect, it } from 'vitest'
import { CLIENT_FRAME_FIELDS, MESSAGE_FIELDS, SERVER_FRAME_FIELDS, hasFields } from '../frame-fields.js'
import { asyncapi } from '../spec/index.js'

type Schema = { oneOf?: { $ref: string }[]; properties?: Record<string, { const?: string }>; required?: string[] }
const schemas = (asyncapi as { components: { schemas: Record<string, Schema> } }).components.schemas
const frames = (union: string) =>
  schemas[union]!.oneOf!.map(({ $ref }) => schemas[$ref.split('/').pop()!]!).map((s) => [s.properties!.type!.const!, s])

describe('frame fields, from the AsyncAPI document', () => {
  it('names every frame type and every required field, nothing else', () => {
    for (const [union, table] of [
      ['ServerFrame', SERVER_FRAME_FIELDS],
      ['ClientFrame', CLIENT_FRAME_FIELDS],
    ] as const) {
      const expected = frames(union)
      expect(Object.keys(table).sort()).toEqual(expected.map(([type]) => type).sort())
      for (const [type, schema] of expected) {
        const line = (table as Record<string, string>)[type as string]!
        const names = line ? line.split(' ').map((field) => field.split(':')[0]) : []
        expect(names, String(type)).toEqual((schema as Schema).required!.filter((name) => name !== 'type'))
      }
    }
  })

  it('checks each kind as the schema would', () => {
    const ack = SERVER_FRAME_FIELDS.ack
    const good = { type: 'ack', id: 1, offset: 1, epoch: 'e', messageId: 'm' }
    expect(hasFields(good, ack)).toBe(true)
    expect(hasFields({ ...good, id: 'r1', extra: true }, ack)).toBe(true) // unnamed fields are not looked at
    for (const bad of [{ id: undefined }, { id: null }, { id: {} }, { offset: 0 }, { offset: 1.5 }, { offset: '1' }])
      expect(hasFields({ ...good, ...bad }, ack), JSON.stringify(bad)).toBe(false)
    expect(hasFields({ ...good, offset: 2 ** 53 }, ack)).toBe(false) // not a safe integer
    for (const value of [null, undefined, 'ack', 42, [good]]) expect(hasFields(value, ack)).toBe(false)

    const message = { channel: 'c', event: 'e', data: null, offset: 1, epoch: 'e', messageId: 'm', ts: 0 }
    expect(hasFields(message, MESSAGE_FIELDS)).toBe(true) // `any`: null is a value
    expect(hasFields({ ...message, data: undefined }, MESSAGE_FIELDS)).toBe(false) // but it must be there
    expect(hasFields({ ...message, ts: -1 }, MESSAGE_FIELDS)).toBe(false)
    // An integer without a minimum: any safe integer, a negative one included.
    expect(hasFields({ type: 'authed', id: 1, expiresIn: -5 }, SERVER_FRAME_FIELDS.authed)).toBe(true)
    expect(hasFields({ type: 'authed', id: 1, expiresIn: Infinity }, SERVER_FRAME_FIELDS.authed)).toBe(false)
    expect(hasFields({}, SERVER_FRAME_FIELDS.heartbeat)).toBe(true)
  })
})
