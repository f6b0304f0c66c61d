import type { Unsubscribe } from '@tandem/core'
import type { SafeEmitter } from '@tandem/core/internal'
import { createEmitter, redact } from '../core.js'
import { partsOf } from '../parts.js'
import type { Realtime } from '../realtime-options.js'
import type { FrameEvent } from '../types.js'

// watchFrames (@tandem/realtime/debug): the frames of a client, parsed and redacted here, so that
// an app which does not import the debug entry ships none of it.

/**
 * Fields that carry a credential, at any depth, by name: the protocol's (`connect` and `auth`
 * frames' `token`), and app data's `accessToken`, `clientSecret`, `password`…
 */
const SECRET = /token|secret|password/i

/** A `JSON.parse` reviver: a credential field's value (whatever it holds) goes, and token-shaped strings are scrubbed. */
const scrub = (key: string, value: unknown): unknown =>
  SECRET.test(key) ? '[redacted]' : typeof value === 'string' ? redact(value) : value

type Frames = SafeEmitter<{ frame: (event: FrameEvent) => void }>

/**
 * Calls `listener` with every frame `realtime` writes (`out`, once its socket took it) or reads
 * (`in`), until the returned function is called. Each event is the frame parsed, a copy of its own
 * the listener may keep, with every field named like a credential (the `connect` and `auth` frames'
 * `token`, `accessToken`, `secret`, `password`, at any depth) `'[redacted]'` and token-shaped
 * strings scrubbed; a frame the client refused is `unparsed`, its content not shown. While nobody
 * watches, the client does nothing per frame; a watcher costs a parse per frame. A listener that
 * throws cannot break the client (its error goes to `reportError`).
 *
 * @example
 * ```ts
 * import { watchFrames } from '@tandem/realtime/debug'
 * const stop = watchFrames(rt, (e) => console.debug(e.direction, e.type, e.channel, e.size))
 * ```
 */
export function watchFrames(realtime: Realtime, listener: (event: FrameEvent) => void): Unsubscribe {
  // Only createRealtime's clients have a tap: anything else would be watched in silence.
  // One tap per client, however many watch it: its listeners are the client's `frames` part.
  const parts = partsOf(realtime, 'watchFrames')
  let frames = parts.frames
  if (!frames) {
    const emitter: Frames = createEmitter()
    parts.frames = frames = emitter
    parts.tap((direction, data, refused) => {
      // Parsed again, for the listeners alone: a copy they may keep, scrubbed as it is read.
      const frame = refused ? {} : (JSON.parse(data as string, scrub) as FrameEvent['frame'])
      const { type, channel } = frame
      emitter.emit('frame', {
        direction,
        type: refused ? 'unparsed' : (type as string),
        ...(typeof channel === 'string' ? { channel } : {}),
        size: typeof data === 'string' ? data.length : 0,
        frame,
        at: Date.now(),
      })
    })
  }
  const own = frames
  const off = own.on('frame', listener)
  return () => {
    off()
    // The last watcher gone: the client calls nothing per frame again.
    if (!own.has('frame') && parts.frames === own) {
      parts.frames = undefined
      parts.tap(undefined)
    }
  }
}
