import type { SafeEmitter } from '@tandem/core/internal'
import { redact } from './core.js'
import type { FrameEvent, RealtimeEvents } from './types.js'

// The `frame` event (devtools, logging): everything here runs only while someone listens.

/**
 * Fields that carry a credential, at any depth, by name: the protocol's (`connect` and `auth`
 * frames' `token`), and app data's `accessToken`, `clientSecret`, `password`…
 */
const SECRET = /token|secret|password/i

/** A `JSON.parse` reviver: a credential field's value (whatever it holds) goes, and token-shaped strings are scrubbed. */
const scrub = (key: string, value: unknown): unknown =>
  SECRET.test(key) ? '[redacted]' : typeof value === 'string' ? redact(value) : value

/**
 * Tells the `frame` listeners of a frame that went over the link: `data` as the socket had it, and
 * whether it parsed (an inbound frame the client refused is `unparsed`, its content not shown).
 */
export const frameTeller =
  (events: SafeEmitter<RealtimeEvents>) =>
  (direction: FrameEvent['direction'], data: unknown, parsed = true): void => {
    if (!events.has('frame')) return
    // Parsed again, for the listener alone: a copy it may keep, scrubbed as it is read.
    const frame = parsed ? (JSON.parse(data as string, scrub) as FrameEvent['frame']) : {}
    const { type, channel } = frame
    events.emit('frame', {
      direction,
      type: parsed ? (type as string) : 'unparsed',
      ...(typeof channel === 'string' ? { channel } : {}),
      size: typeof data === 'string' ? data.length : 0,
      frame,
      at: Date.now(),
    })
  }
