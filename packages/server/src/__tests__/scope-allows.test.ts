import { describe, expect, it } from 'vitest'
import { scopeAllows } from '../index.js'

const TABLE: Array<[string[], string, boolean]> = [
  [['maps'], 'maps', true],
  [['maps'], 'mapsx', false],
  [['maps'], 'support:read', false],
  [['support'], 'support:write', true],
  [['support'], 'support:read', true],
  [['support'], 'supportive', false],
  [['realtime'], 'realtime:publish:chat:1', true],
  [['realtime:subscribe:chat:*'], 'realtime:subscribe:chat:lobby', true],
  [['realtime:subscribe:chat:*'], 'realtime:subscribe:chat:lobby:thread', true],
  [['realtime:subscribe:chat:*'], 'realtime:subscribe:chat', false],
  [['realtime:subscribe:chat:*'], 'realtime:subscribe:news:1', false],
  [['realtime:subscribe:chat:*'], 'realtime:publish:chat:lobby', false],
  [['realtime:subscribe:chat:lobby'], 'realtime:subscribe:chat:*', false],
  [['realtime:subscribe:chat:*'], 'realtime:subscribe:chat:', false], // '*' stands for something
  [['realtime:subscribe:chat*'], 'realtime:subscribe:chatroom', true],
  [['*'], 'anything:at:all', true],
  [['*'], 'maps', true],
  [['support:write'], 'support:read', true], // write implies read
  [['support:write'], 'support:write', true],
  [['support:read'], 'support:write', false], // but not the reverse
  [['realtime:write'], 'realtime:read', true],
  [['support:*'], 'support:read', true],
  [['a:write'], 'b:read', false],
  [['support:write'], 'support:read:tickets', false],
  [[], 'maps', false],
  [[''], 'maps', false],
  [['maps'], '', false],
  [['maps', 'support:write'], 'support:read', true],
]

describe('scopeAllows', () => {
  it.each(TABLE)('%j allows %s → %s', (granted, required, expected) => {
    expect(scopeAllows(granted, required)).toBe(expected)
  })

  it('is false, not a throw, for non-array or non-string input', () => {
    expect(scopeAllows(null as unknown as string[], 'maps')).toBe(false)
    expect(scopeAllows([1, null, 'maps'] as unknown as string[], 'maps')).toBe(true)
    expect(scopeAllows(['maps'], undefined as unknown as string)).toBe(false)
  })
})
