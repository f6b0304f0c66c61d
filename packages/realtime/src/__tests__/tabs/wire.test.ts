// The tabs' one parser: every message another tab may post reads as its typed self, and anything
// else (a stranger's message, another version's keys, a field of the wrong kind) reads as nothing.
import { describe, expect, it } from 'vitest'
import { parseClientFrame } from '../../tabs/client-frame.js'
import { parseTabMessage, type TabMessage } from '../../tabs/wire.js'

const GOOD: TabMessage[] = [
  { type: 'leader', leader: 't1' },
  { type: 'who' },
  { type: 'bye', leader: 't1' },
  { type: 'open', socket: 't2:1', tab: 't2', entered: ['room'] },
  { type: 'opened', socket: 't2:1', leader: 't1' },
  { type: 'up', socket: 't2:1', data: '{"type":"ping","id":1}' },
  { type: 'down', to: ['t2:1', 't3:1'], data: '{"type":"heartbeat"}' },
  { type: 'shut', to: ['t2:1'], code: 1012, reason: '{"code":"leader_gone"}' },
  { type: 'close', socket: 't2:1', reason: 'client_close' },
  { type: 'conn', connectionId: 'conn_1' },
  { type: 'present', tab: 't2', entered: [] },
  { type: 'token', ask: 'q1' },
  { type: 'token', ask: 'q1', stale: 'old' },
  { type: 'tokened', ask: 'q1', token: 'jwt' },
  { type: 'tokened', ask: 'q1', error: 'token_unavailable', message: 'no' },
]

describe('parseTabMessage', () => {
  it.each(GOOD)('reads $type', (m) => {
    // Structured clone is what a BroadcastChannel delivers.
    expect(parseTabMessage(structuredClone(m))).toEqual(m)
  })

  it.each([
    ['nothing', undefined],
    ['a string', 'leader'],
    ['an array', [{ type: 'who' }]],
    ['an unknown type', { type: 'hello' }],
    ['the old single-letter keys', { k: 'leader', l: 't1' }],
    ['a missing field', { type: 'up', socket: 't2:1' }],
    ['a string where a list goes', { type: 'down', to: 't2:1', data: '' }],
    ['a list holding a number', { type: 'down', to: [1], data: '' }],
    ['a close code that is not an integer', { type: 'shut', to: [], code: '1012', reason: '' }],
    ['an optional field of the wrong kind', { type: 'tokened', ask: 'q1', token: 42 }],
  ])('refuses %s', (_, data) => {
    expect(parseTabMessage(data)).toBeUndefined()
  })
})

describe('parseClientFrame (what the hub reads of a tab client)', () => {
  it('reads the contract frames the hub routes', () => {
    const frames = [
      { type: 'connect', id: 1, token: 'jwt', resume: { connectionId: 'conn_1' } },
      { type: 'subscribe', id: 2, channels: [{ channel: 'room', since: { epoch: 'e', offset: 3 } }] },
      { type: 'unsubscribe', id: '3', channels: ['room'] },
      { type: 'publish', id: 4, channel: 'room', event: 'msg', data: { text: 'hi' }, idempotencyKey: 'k' },
      { type: 'presence.enter', id: 5, channel: 'room', data: null },
      { type: 'auth', id: 6, token: 'jwt' },
      { type: 'ping', id: 7 },
    ]
    for (const f of frames) expect(parseClientFrame(JSON.stringify(f))).toEqual(f)
  })

  it.each([
    ['not JSON', '{'],
    ['a server frame', '{"type":"heartbeat"}'],
    ['no id', '{"type":"ping"}'],
    ['subscribe channels as names', '{"type":"subscribe","id":1,"channels":["room"]}'],
    ['unsubscribe channels as objects', '{"type":"unsubscribe","id":1,"channels":[{"channel":"room"}]}'],
    ['a resume without its id', '{"type":"connect","id":1,"token":"t","resume":{}}'],
  ])('refuses %s', (_, text) => {
    expect(parseClientFrame(text)).toBeUndefined()
  })
})
