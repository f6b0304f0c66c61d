import type { LockManagerLike } from './platform.js'

// The election, on Web Locks: every tab of the group queues for the leader's lock; the one granted
// leads until it leaves (or dies: the browser frees a dead tab's locks, and the next in the queue is
// granted). With `tab`, each tab also holds a lock of its own while it lives, so the leader can
// watch the others: a tab's own lock is granted to the leader only once that tab has gone.

export interface ElectionOptions {
  locks: LockManagerLike
  /** The group's lock names start with it. */
  name: string
  /** This tab's id, when the leader watches the others (`watch`). */
  tab?: string | undefined
  /** This tab got the leader's lock: it leads until `stop()`. */
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
      if (signal.aborted) return Promise.resolve() // granted as it was let go
      then?.()
      return new Promise<void>((done) => release.push(done))
    })
  if (tab !== undefined) hold(`${name}:tab:${tab}`) // held while the tab lives: the leader learns of its end
  hold(`${name}:leader`, won)
  return {
    watch: (other, gone) => request(`${name}:tab:${other}`, () => Promise.resolve(gone())),
    stop() {
      abort.abort()
      for (const done of release.splice(0)) done()
    },
  }
}
