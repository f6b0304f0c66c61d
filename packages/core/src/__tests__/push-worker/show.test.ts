// handlePush's `push`: one notification per message, the newest of a conversation in place of the
// older, and nothing (one log line per reason) for a push that is not the contract's payload. Run
// against a stand-in of the worker's scope (stand-in.ts); the real browser: playground/e2e/push-worker.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { handlePush } from '../../entries/push-worker.js'
import { createStandIn, payload } from './stand-in.js'

const json = (value: unknown) => JSON.stringify(value)

afterEach(() => {
  vi.restoreAllMocks()
})

describe('handlePush: push', () => {
  it('shows one notification per message id, never two, with the payload as its data and the conversation as its tag', async () => {
    const w = createStandIn()
    // Counted where it is called: the browser's tag would hide a second one of the same conversation.
    const show = vi.spyOn(w.self.registration, 'showNotification')
    handlePush(w.self)
    const first = payload()
    // Delivered twice at once (a push service's retry), before either is up: still one.
    await Promise.all([w.push(json(first)), w.push(json(first))])
    await w.push(json(first))
    const other = payload({ messageId: 'thr_2', conversationId: 'cnv_2', title: 'Grace', body: 'Hi' })
    await w.push(json(other))
    expect(w.shown.map((n) => [n.title, n.body, n.tag, n.renotify])).toEqual([
      ['Ada', 'Your parcel left the depot.', 'cnv_1', true],
      ['Grace', 'Hi', 'cnv_2', true],
    ])
    expect(w.shown.map((n) => n.data)).toEqual([{ tandem: first }, { tandem: other }])
    expect(show.mock.calls.map(([, o]) => (o.data as { tandem: { messageId: string } }).tandem.messageId)).toEqual([
      'thr_1',
      'thr_2',
    ])
  })

  it('a worker started again shows nothing for a message whose notification is up', async () => {
    const before = createStandIn()
    handlePush(before.self)
    await before.push(json(payload()))
    // The browser stopped the worker; a new one reads the notifications back.
    const after = createStandIn({ shown: before.shown })
    const show = vi.spyOn(after.self.registration, 'showNotification')
    handlePush(after.self)
    await after.push(json(payload()))
    expect(show).not.toHaveBeenCalled()
    expect(after.shown).toHaveLength(1)
  })

  it('a newer message of the same conversation replaces the older; an older one arriving late shows nothing', async () => {
    const w = createStandIn()
    handlePush(w.self)
    const older = payload()
    const newer = payload({ messageId: 'thr_2', body: 'It arrives today.', sentAt: '2026-11-29T12:05:00.000Z' })
    await w.push(json(older))
    await w.push(json(newer))
    expect(w.shown.map((n) => [n.tag, n.body])).toEqual([['cnv_1', 'It arrives today.']])
    // The older one again, in a worker that has forgotten it (push services may reorder): the newer stays.
    const restarted = createStandIn({ shown: w.shown })
    handlePush(restarted.self)
    await restarted.push(json(older))
    expect(w.shown.map((n) => n.body)).toEqual(['It arrives today.'])
  })

  it('takes the title and body from strings, and more from render; the tag and data stay its own', async () => {
    const w = createStandIn()
    handlePush(w.self, {
      strings: { title: (p) => `${p.title} replied`, body: (p) => `«${p.body}»` },
      render: () => ({ icon: '/icon.png', tag: 'mine', data: 'mine' }),
    })
    await w.push(json(payload()))
    expect(w.shown[0]).toMatchObject({
      title: 'Ada replied',
      body: '«Your parcel left the depot.»',
      icon: '/icon.png',
      tag: 'cnv_1',
      data: { tandem: payload() },
    })
    const titled = createStandIn()
    handlePush(titled.self, { render: (p) => ({ title: `New: ${p.title}` }) })
    await titled.push(json(payload()))
    expect(titled.shown[0]?.title).toBe('New: Ada')
  })

  it('a push of the wrong shape shows nothing and logs once per reason, never its text', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const w = createStandIn()
    handlePush(w.self)
    const secret = 'the customer wrote this'
    const bad = [
      null, // no data
      `{"body":"${secret}"`, // not JSON
      `not json: ${secret}`,
      json({ ...payload(), body: 7 }),
      json({ ...payload({ body: secret }), v: 2 }), // a version this worker does not know
      json({ ...payload({ body: secret }), messageId: undefined }),
      json([payload()]),
      json(secret),
    ]
    for (const text of bad) await w.push(text)
    expect(w.shown).toEqual([])
    const lines = warn.mock.calls.map((c) => c.join(' '))
    expect(lines.map((l) => /\[tandem\] (\w+)/.exec(l)?.[1])).toEqual(['push_wrong_shape', 'push_not_json'])
    expect(lines.join('\n')).not.toContain(secret)
    // A good one after them is shown: nothing was held.
    await w.push(json(payload()))
    expect(w.shown).toHaveLength(1)
  })

  it('a notification the browser refuses (permission revoked) is logged once, and the worker goes on', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const w = createStandIn()
    vi.spyOn(w.self.registration, 'showNotification').mockRejectedValue(new TypeError('No notification permission'))
    handlePush(w.self)
    await w.push(json(payload()))
    await w.push(json(payload({ messageId: 'thr_2' })))
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(['[tandem] push_show_failed'])
  })

  it('the function it returns removes its listeners', async () => {
    const w = createStandIn()
    const stop = handlePush(w.self)
    expect([...w.listeners.keys()].sort()).toEqual(['notificationclick', 'push', 'pushsubscriptionchange'])
    stop()
    expect([...w.listeners.values()].every((set) => set.size === 0)).toBe(true)
    await w.push(json(payload()))
    expect(w.shown).toEqual([])
  })
})
