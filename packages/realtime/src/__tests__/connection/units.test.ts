// Unit tests of the pieces, with fake clocks where time matters.
import { RealtimeError } from '@tandem/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBackoff } from '../../core.js'
import { closeAction, closeOf, parseFrame } from '../../connection/protocol.js'
import { refreshDelay } from '../../connection/token-refresh.js'
import { toWsUrl } from '../../connection/url.js'
import { createWatchdog } from '../../connection/watchdog.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('backoff', () => {
  it('full jitter: uniform in [0, min(cap, 500·2^n)), capped at 20 s', () => {
    const top = createBackoff({ baseMs: 500, capMs: 20_000, stableMs: 10_000, serverMaxMs: 300_000 }, () => 0.999999)
    expect(Array.from({ length: 8 }, () => top.next())).toEqual([499, 999, 1999, 3999, 7999, 15999, 19999, 19999])
    const bottom = createBackoff({ baseMs: 500, capMs: 20_000, stableMs: 10_000, serverMaxMs: 300_000 }, () => 0)
    expect(bottom.next()).toBe(0)
  })

  it('resets only after a connection stayed up for stableMs', () => {
    let now = 0
    const b = createBackoff(
      { baseMs: 500, capMs: 20_000, stableMs: 10_000, serverMaxMs: 300_000 },
      () => 0.999999,
      () => now,
    )
    b.next()
    b.next()
    b.up()
    now += 9_999
    expect(b.next()).toBe(1999) // a flapping link keeps growing
    b.up()
    now += 10_000
    expect(b.next()).toBe(499)
  })
})

describe('close codes', () => {
  const r = (code: string) => JSON.stringify({ code })
  it.each([
    [1000, '', 'retry', false, undefined, 'close_1000'],
    [1006, '', 'retry', false, undefined, 'close_1006'],
    [4000, r('protocol_error'), 'fatal', false, undefined, 'protocol_error'],
    [4000, r('connection_dropped'), 'fatal', false, undefined, 'protocol_error'], // a fatal code is named by its number
    [4003, '', 'fatal', false, undefined, 'forbidden'], // no readable reason: the code decides, and names it
    [4009, r('frame_too_large'), 'fatal', false, undefined, 'frame_too_large'],
    [4050, 'garbage', 'fatal', false, undefined, 'close_4050'],
    [4100, r('token_expired'), 'reauth', true, undefined, 'token_expired'],
    [4101, r('token_invalid'), 'reauth', false, undefined, 'token_invalid'],
    [4102, '', 'reauth', false, undefined, 'token_revoked'],
    [4200, r('server_restart'), 'retry', false, undefined, 'server_restart'],
    [4290, '{"code":"rate_limited","retryAfterMs":2000}', 'retry', false, 2000, 'rate_limited'],
    [4290, '{"code":"rate_limited","retryAfterMs":1e400}', 'retry', false, Infinity, 'rate_limited'], // clamped by the caller
    [4290, 'not json', 'retry', false, undefined, 'rate_limited'],
  ])('%i %s → %s', (code, reason, kind, atOnce, retryAfterMs, name) => {
    expect(closeAction(code, reason)).toEqual({ kind, name, atOnce, retryAfterMs })
  })
})

describe('closeOf', () => {
  // In a browser, partysocket's copy of its own close event carries `code: 'close'` and the event
  // itself as `reason` (cloned as `new CloseEvent(type, event)` with its own constructor).
  const garbled = { code: 'close', reason: new Event('close') }
  it('keeps a real close, and reads a garbled one as a failed open (not as a reauth close, which refetches the token)', () => {
    vi.useFakeTimers({ now: 50_000 })
    expect(closeOf({ code: 4100, reason: 'x' }, 0)).toEqual([4100, 'x'])
    expect(closeOf(garbled, 49_000)).toEqual([1006, ''])
    expect(closeAction(...closeOf(garbled, 49_000)).kind).toBe('retry')
    expect(closeOf(garbled, 40_000)).toEqual([1000, 'timeout']) // waited out OPEN_TIMEOUT_MS
  })
})

describe('parseFrame', () => {
  it('accepts well-formed frames and reports the rest as RealtimeError (never throws)', () => {
    expect(parseFrame('{"type":"heartbeat","ts":1}', 100)).toMatchObject({ type: 'heartbeat' })
    expect(parseFrame('{"type":"pong","id":3}', 100)).toMatchObject({ id: 3 })
    const cases: [unknown, string][] = [
      ['{', 'bad_frame'],
      ['[]', 'bad_frame'],
      ['null', 'bad_frame'],
      ['{"type":"nope"}', 'unknown_frame'],
      ['{"type":"pong"}', 'bad_frame'],
      ['{"type":"message","channel":"a"}', 'bad_frame'],
      ['{"type":"history","id":1,"epoch":"e","offset":1,"messages":{},"complete":true}', 'bad_frame'],
      ['{"type":"ack","id":1,"offset":null,"epoch":"e","messageId":"m"}', 'bad_frame'],
      [new ArrayBuffer(2), 'bad_frame'],
      ['x'.repeat(101), 'frame_too_large'],
      ['{"type":"toString"}', 'unknown_frame'],
    ]
    for (const [data, code] of cases) {
      const r = parseFrame(data, 100)
      expect(r, String(data)).toBeInstanceOf(RealtimeError)
      expect((r as RealtimeError).code).toBe(code)
    }
  })
})

describe('token refresh schedule', () => {
  it("core's margin: max(30 s, 10 %), never more than half the lifetime", () => {
    expect(refreshDelay(600_000)).toBe(540_000)
    expect(refreshDelay(120_000)).toBe(90_000)
    expect(refreshDelay(2_000)).toBe(1_000)
    expect(refreshDelay(-5)).toBe(0)
  })
})

describe('urls', () => {
  it('maps the service base URL to its WebSocket endpoint', () => {
    expect(toWsUrl('https://api.tandem.dev/realtime')).toBe('wss://api.tandem.dev/realtime/v1/ws')
    expect(toWsUrl('http://127.0.0.1:1/realtime/')).toBe('ws://127.0.0.1:1/realtime/v1/ws')
    expect(toWsUrl('wss://x/realtime/v1/ws')).toBe('wss://x/realtime/v1/ws')
    expect(toWsUrl('http://x')).toBe('ws://x/v1/ws')
  })

  it('keeps a query after the path, and refuses a credential, user:password@ or a fragment (issue 27)', () => {
    expect(toWsUrl('https://x/realtime/?tenant=a')).toBe('wss://x/realtime/v1/ws?tenant=a')
    for (const url of ['https://x/realtime?api_key=s3cr3t', 'wss://x/realtime#token=s3cr3t', 'https://k:s3cr3t@x/rt']) {
      expect(() => toWsUrl(url)).toThrow(/^url: must not carry/)
      expect(() => toWsUrl(url)).not.toThrow(/s3cr3t/)
    }
    expect(() => toWsUrl('https://x/realtime#top')).toThrow(/fragment/)
  })
})

describe('watchdog', () => {
  it('fires after heartbeatMs + grace of silence; any frame resets it', () => {
    vi.useFakeTimers()
    const dead = vi.fn()
    const w = createWatchdog(dead)
    w.start(1_000, 500)
    vi.advanceTimersByTime(1_400)
    w.seen()
    vi.advanceTimersByTime(1_400)
    expect(dead).not.toHaveBeenCalled()
    vi.advanceTimersByTime(200)
    expect(dead).toHaveBeenCalledOnce()
    vi.advanceTimersByTime(10_000)
    expect(dead).toHaveBeenCalledOnce() // stops itself
  })

  it('a throttled timer still notices: it compares wall-clock time on its next tick', () => {
    let now = 0
    const ticks: (() => void)[] = []
    vi.spyOn(globalThis, 'setInterval').mockImplementation(((fn: () => void) => (ticks.push(fn), 1)) as never)
    const dead = vi.fn()
    const w = createWatchdog(dead, () => now)
    w.start(15_000, 10_000)
    now = 60_000 // a background tab: one tick a minute
    ticks[0]!()
    expect(dead).toHaveBeenCalledOnce()
    vi.restoreAllMocks()
  })

  it('reads the clock per tick, never per frame, and still finds a dead link', () => {
    vi.useFakeTimers()
    let reads = 0
    const dead = vi.fn()
    const w = createWatchdog(dead, () => (reads++, Date.now()))
    w.start(1_000, 400) // a tick every 100 ms; dead past 1.4 s of silence
    const started = reads
    for (let i = 0; i < 10_000; i++) w.seen()
    expect(reads).toBe(started)
    vi.advanceTimersByTime(1_000)
    expect(reads - started).toBe(10) // one read per tick
    expect(dead).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1_300) // more than 1.4 s of silence since the frames
    expect(dead).toHaveBeenCalledOnce()
  })

  it('never calls a link dead before heartbeatMs + grace of silence, however a frame falls between ticks', () => {
    vi.useFakeTimers()
    for (const at of [1, 50, 99]) {
      const dead = vi.fn()
      const w = createWatchdog(dead)
      w.start(1_050, 400) // a tick every 100 ms; 1.45 s is not a whole number of ticks
      vi.advanceTimersByTime(100 + at)
      w.seen() // `at` ms after a tick
      vi.advanceTimersByTime(1_449)
      expect(dead, `a frame ${at} ms after a tick`).not.toHaveBeenCalled()
      vi.advanceTimersByTime(300) // two ticks at most past the bound
      expect(dead).toHaveBeenCalledOnce()
      w.stop()
    }
  })

  it('a throttled tick that finds a frame since the one before keeps the link, however late it runs', () => {
    let now = 0
    const ticks: (() => void)[] = []
    vi.spyOn(globalThis, 'setInterval').mockImplementation(((fn: () => void) => (ticks.push(fn), 1)) as never)
    const dead = vi.fn()
    const w = createWatchdog(dead, () => now)
    w.start(15_000, 10_000)
    now = 59_000
    w.seen()
    now = 60_000 // a background tab: one tick a minute
    ticks[0]!()
    expect(dead).not.toHaveBeenCalled()
    now = 120_000 // a minute of silence
    ticks[0]!()
    expect(dead).toHaveBeenCalledOnce()
    vi.restoreAllMocks()
  })
})
