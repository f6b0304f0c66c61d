import { describe, expect, it } from 'vitest'
import {
  ApiError,
  AuthError,
  NetworkError,
  RateLimitError,
  RealtimeError,
  TandemError,
  TimeoutError,
  ValidationError,
} from '../../errors.js'
import { fromWire, isRetryable, toWire } from '../../persist/outbox-classify.js'
import { matchWrite } from '@tandem/contract'
import { heads, readRecords } from '../../persist/outbox-entries.js'

// What a stored write does after each failure: goes again (the network, the service's bad moment)
// or is dropped as refused (the service said no). One row per kind of failure.
const CASES: [string, TandemError, boolean][] = [
  ['network', new NetworkError('x', { code: 'network_error' }), true],
  ['timeout', new TimeoutError('x', { code: 'timeout' }), true],
  ['429', new RateLimitError('x', { code: 'rate_limited', status: 429, retryAfterMs: 1000 }), true],
  ['503', new ApiError('x', { code: 'unavailable', status: 503 }), true],
  ['408', new ApiError('x', { code: 'timeout', status: 408 }), true],
  ['a captive portal’s 200 page', new ApiError('x', { code: 'bad_response', status: 200 }), true],
  ['token endpoint down', new AuthError('x', { code: 'token_endpoint_unavailable' }), true],
  ['temporary realtime error', new RealtimeError('x', { code: 'queue_timeout', temporary: true }), true],
  ['realtime client closed by the app', new RealtimeError('x', { code: 'closed' }), true],
  ['404', new ApiError('x', { code: 'not_found', status: 404 }), false],
  ['409 idempotency mismatch', new ApiError('x', { code: 'idempotency_mismatch', status: 409 }), false],
  ['422', new ApiError('x', { code: 'invalid_transition', status: 422 }), false],
  ['403', new AuthError('x', { code: 'forbidden', status: 403 }), false],
  ['session ended: the token endpoint refuses', new AuthError('x', { code: 'token_refused', status: 401 }), true],
  ['a realtime client failed on a refused token', new RealtimeError('x', { code: 'token_refused' }), true],
  ['401 from the service after the one refresh', new AuthError('x', { code: 'unauthorized', status: 401 }), false],
  ['forbidden channel', new RealtimeError('x', { code: 'forbidden', temporary: false }), false],
  ['bad input', new ValidationError('text', 'too long'), false],
  ['anything else', new TandemError('x', { code: 'outbox_failed' }), false],
]

describe('outbox: which failures a stored write survives', () => {
  it.each(CASES)('%s → retryable %s', (_, error, retryable) => {
    expect(isRetryable(error)).toBe(retryable)
    // Across tabs the error keeps its type, code, status and request id.
    const again = fromWire(toWire(error))
    expect(again.name).toBe(error.name)
    expect(again.code).toBe(error.code)
    expect(again.status).toBe(error.status)
  })
})

describe('outbox entries', () => {
  it('a lane is the resource a write changes (the contract’s path up to its first parameter)', () => {
    const lane = (service: string, method: string, path: string) => matchWrite(service, method, path)?.lane
    expect(lane('support', 'POST', '/v1/conversations/c_1/reply')).toBe('support /v1/conversations/c_1')
    expect(lane('support', 'PATCH', '/v1/conversations/c_1')).toBe('support /v1/conversations/c_1')
    expect(lane('support', 'POST', '/v1/me/conversations/cnv_1/messages')).toBe('support /v1/me/conversations/cnv_1')
    expect(lane('support', 'POST', '/v1/me/conversations/cnv_2/read')).toBe('support /v1/me/conversations/cnv_2')
    expect(lane('support', 'POST', '/v1/me/conversations')).toBe('support /v1/me/conversations')
    expect(lane('maps', 'POST', '/v1/resources')).toBe('maps /v1/resources')
    expect(lane('realtime', 'POST', '/v1/channels/chat%3Alobby/messages')).toBe('realtime /v1/channels/chat%3Alobby')
    expect(lane('support', 'POST', '/v1/conversations/../../../dev/token')).toBeUndefined()
  })

  it('reads back only well-formed records of the contract, in their order, and the head of each lane', () => {
    const e = (id: string, conversation: string) => ({
      id,
      lane: 'whatever was stored',
      kind: 'rest',
      idempotencyKey: `k-${id}`,
      createdAt: 1,
      attempts: 0,
      bytes: 10,
      request: {
        service: 'support',
        method: 'POST',
        path: `/v1/conversations/${conversation}/reply`,
        body: { text: id },
      },
    })
    const r = (seq: number, entry: unknown) => ({ v: 1, seq, entry })
    // In storage's (key) order, which is not theirs: `seq` is.
    const read = readRecords([
      ['3', r(30, e('3', 'a'))],
      ['broken', r(5, { id: 'broken' })],
      ['1', r(10, e('1', 'a'))],
      ['x', r(1, e('4', 'a'))], // a record under another entry's id: a stranger's
      ['2', r(20, e('2', 'b'))],
      ['5', null],
      ['6', { v: 2, seq: 1, entry: e('6', 'a') }], // another version's
      ['7', r(Number.NaN, e('7', 'a'))],
    ])
    expect(read.entries.map((x) => x.id)).toEqual(['1', '2', '3'])
    expect(read.entries.map((x) => x.lane)).toEqual([
      'support /v1/conversations/a',
      'support /v1/conversations/b',
      'support /v1/conversations/a',
    ])
    expect(read.unreadable).toEqual(['broken', 'x', '5', '6', '7'])
    expect(heads(read.entries).map((x) => x.id)).toEqual(['1', '2'])
    // Two in one millisecond (two tabs): by id, so every tab reads the same order.
    expect(
      readRecords([
        ['b', r(1, e('b', 'a'))],
        ['a', r(1, e('a', 'a'))],
      ]).entries.map((x) => x.id),
    ).toEqual(['a', 'b'])
  })
})
