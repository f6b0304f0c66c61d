// One valid input per client frame, with every optional field that has constraints filled in, so
// the generator can break each one. (The REST operations' valid inputs are documented in the
// OpenAPI document itself: `x-tandem-examples`, read by documented.ts.)

/** By frame type (without `id`, which each case sets); `connect` and `auth` get a token. */
export function frameExamples(token: string): Record<string, Record<string, unknown>> {
  const since = { epoch: 'e1', offset: 0 }
  return {
    connect: { type: 'connect', token, resume: { connectionId: 'conn_gone' } },
    subscribe: { type: 'subscribe', channels: [{ channel: 'conf:room', since }] },
    unsubscribe: { type: 'unsubscribe', channels: ['conf:other'] },
    publish: { type: 'publish', channel: 'conf:room', event: 'said', data: 1, idempotencyKey: 'key-1' },
    'presence.enter': { type: 'presence.enter', channel: 'conf:room', data: { name: 'Ana' } },
    'presence.update': { type: 'presence.update', channel: 'conf:room', data: { name: 'Ana' } },
    'presence.leave': { type: 'presence.leave', channel: 'conf:room' },
    'presence.get': { type: 'presence.get', channel: 'conf:room' },
    history: { type: 'history', channel: 'conf:room', since, limit: 10 },
    auth: { type: 'auth', token },
    ping: { type: 'ping' },
  }
}
