import { DEV } from '@tandem/contract/dev'
import type { ReadableStore } from '@tandem/core'
import type { Pool, SafeEmitter } from '@tandem/core/internal'
import { ValidationError } from './core.js'
import type { ConnectionSnapshot, FrameEvent } from './types.js'

// What a client keeps for the optional entries (watchFrames, leases, the stores, resource
// presence): a part of the client itself, under a symbol, not a table of clients beside it.
// Owned by the instance, it goes with it; a debugger shows it as `rt[Symbol(tandem.parts)]`.

/**
 * Given each frame this client writes (`out`, once the socket took it) or reads (`in`, as the
 * socket had it, with `refused` when the client could not parse it). A raw frame can carry a
 * token: it is never a public event, only watchFrames (@tandem/realtime/debug) sets a tap.
 */
export type FrameTap = (direction: 'in' | 'out', data: unknown, refused?: boolean) => void

export const PARTS = Symbol('tandem.parts')

/** Each made by its entry on first use. */
export interface Parts {
  /** Sets the client's tap (undefined: none, and nothing is done per frame). */
  readonly tap: (tap: FrameTap | undefined) => void
  /** watchFrames' listeners, while someone watches (debug/watch-frames.ts). */
  frames?: SafeEmitter<{ frame: (event: FrameEvent) => void }> | undefined
  /** The channels `leaseChannel` holds (channels/lease.ts). */
  leases?: Pool
  /** `connectionStore(rt)`: one per client, shared by every caller (stores/connection-store.ts). */
  connection?: ReadableStore<ConnectionSnapshot>
  /** resourcePresence's registries, by collection (resource-presence/registry.ts reads them as its own type). */
  registries?: Map<string, unknown>
}

/** The parts of a client made by createRealtime; anything else is refused by name (`what`). */
export function partsOf(client: object, what: string): Parts {
  const parts = (client as { [PARTS]?: Parts })[PARTS]
  if (!parts)
    throw new ValidationError(
      'realtime',
      DEV && process.env.NODE_ENV !== 'production' && `${what} takes a client made by createRealtime`,
    )
  return parts
}
