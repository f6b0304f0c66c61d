// The election, on Web Locks: every tab of the group holds a lock of its own while it lives, and
// queues for the leader's lock; the one granted leads until it leaves. The leader watches the
// other tabs' own locks: granted to it only once that tab has gone (closed, crashed).
import type { LockManagerLike } from './platform.js'

export interface ElectionOptions {
  locks: LockManagerLike
  /** The group's lock names start with it. */
  name: string
  tab: string
  /** This tab got the leader's lock. */
  won: () => void
}

export interface Election {
  /** Calls `gone` once `tab` has gone; ends with the election. */
  watch(tab: string, gone: () => void): void
  /** Frees this tab's locks and stops queueing or watching. */
  stop(): void
}

export function createElection({ locks, name, tab, won }: ElectionOptions): Election {
  const abort = new AbortController()
  const { signal } = abort
  const release: (() => void)[] = []
  // A request aborted while queued rejects: this tab left, and that is all it means.
  const request = (lock: string, granted: () => Promise<void>) =>
    void locks.request(lock, { signal }, granted).catch(() => {})
  const hold = (lock: string, then?: () => void) =>
    request(lock, () => {
      then?.()
      return new Promise<void>((done) => release.push(done))
    })
  hold(`${name}:tab:${tab}`) // held while the tab lives: the leader learns of its end
  hold(`${name}:leader`, won)
  return {
    watch: (other, gone) => request(`${name}:tab:${other}`, () => Promise.resolve(gone())),
    stop() {
      abort.abort()
      for (const done of release.splice(0)) done()
    },
  }
}
