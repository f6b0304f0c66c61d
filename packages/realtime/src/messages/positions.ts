// Resume after a reload (`positions: sessionPositions()`, from '@tandem/realtime/positions', so an
// app that does not use it does not ship it): when the page goes away (`pagehide`) the client
// writes each channel's last delivered position and its connection id to sessionStorage; the
// next client of that tab reads them once, removes them, and resumes from there: the service
// replays what was published meanwhile, and keeps the member's presence through its grace.
//
// Read-and-remove at start, write at `pagehide` only: a duplicated tab (which copies
// sessionStorage) finds nothing to claim while the original lives, so two tabs never resume one
// connection (the service would hand it back and forth). A crash writes nothing: the next page
// starts fresh, as without the option.
import { MAX_ID, MAX_SUBSCRIBE_CHANNELS, isChannelName } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { ValidationError } from '../core.js'
import { isSince } from '../connection/protocol.js'
import type { Position } from '../types.js'

/** The part of the Web Storage API used (sessionStorage, or your own). */
export interface PositionStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface PersistOptions {
  /** @default globalThis.sessionStorage */
  storage?: PositionStorage
  /**
   * Where in it. Put the user's id in it if one tab may change user without a reload.
   * @default `tandem:realtime:${url}`
   */
  key?: string
}

export interface Saved {
  connectionId?: string | undefined
  /** By channel name (a Map: `__proto__` and `constructor` are channel names too). */
  channels: Map<string, Position>
}

export interface Positions {
  /** What the last page of this tab left (already removed from storage). */
  readonly saved: Saved
  /** Writes at `pagehide` (from the start; again after `detach`). */
  attach(): void
  /** Stops writing at `pagehide`: a closed client leaves nothing for the next page. */
  detach(): void
}

/** What `createRealtime`'s `positions` option takes: opened once per client, with its URL. */
export type PositionsFactory = (url: string, collect: () => Saved) => Positions

const VERSION = 1

/** What storage held, checked field by field: anything malformed (another version, an edit) is ignored. */
function parse(raw: string | null): Saved {
  const empty: Saved = { channels: new Map() }
  if (!raw) return empty
  let data: { v?: unknown; connectionId?: unknown; channels?: unknown }
  try {
    data = JSON.parse(raw) as typeof data
  } catch {
    return empty
  }
  if (data?.v !== VERSION || typeof data.channels !== 'object' || data.channels === null) return empty
  const channels = new Map<string, Position>()
  // At most what one `subscribe` frame carries: storage someone filled is not trusted further.
  // JSON.parse makes a `"__proto__"` key an own property, which Object.entries lists like any other.
  for (const [name, p] of Object.entries(data.channels).slice(0, MAX_SUBSCRIBE_CHANNELS))
    if (isChannelName(name) && isSince(p)) channels.set(name, { epoch: p.epoch, offset: p.offset })
  const id = data.connectionId
  return { connectionId: typeof id === 'string' && id.length <= MAX_ID ? id : undefined, channels }
}

/**
 * Resume after a reload, for `createRealtime(source, { positions: sessionPositions() })`: the tab's
 * sessionStorage (or `storage`) keeps each channel's last delivered position and the connection id
 * from one page to the next.
 *
 * @example
 * ```ts
 * import { createRealtime } from '@tandem/realtime'
 * import { sessionPositions } from '@tandem/realtime/positions'
 *
 * const rt = createRealtime({ client }, { positions: sessionPositions({ key: `tandem:realtime:${userId}` }) })
 * ```
 */
export function sessionPositions(o: PersistOptions = {}): PositionsFactory {
  const storage = o.storage ?? (globalThis as { sessionStorage?: PositionStorage }).sessionStorage
  if (!storage)
    throw new ValidationError(
      'storage',
      DEV && process.env.NODE_ENV !== 'production' && 'sessionPositions needs sessionStorage (a page) or { storage }',
    )
  return (url, collect) => open(storage, o.key ?? `tandem:realtime:${url}`, collect)
}

function open(storage: PositionStorage, key: string, collect: () => Saved): Positions {
  let saved: Saved = { channels: new Map() }
  try {
    saved = parse(storage.getItem(key))
    storage.removeItem(key)
  } catch {
    // Storage refused (a private window's quota, a sandbox): start fresh, as without the option.
  }
  const save = () => {
    const { connectionId, channels } = collect()
    try {
      // Object.fromEntries defines each key as an own property, `__proto__` included.
      storage.setItem(key, JSON.stringify({ v: VERSION, connectionId, channels: Object.fromEntries(channels) }))
    } catch {
      // Full or refused: the next page starts fresh.
    }
  }
  const target = globalThis as Partial<EventTarget>
  const positions: Positions = {
    saved,
    attach: () => target.addEventListener?.('pagehide', save), // the same listener twice is one
    detach: () => target.removeEventListener?.('pagehide', save),
  }
  positions.attach()
  return positions
}
