// Stand-ins for a browser's tabs in Node: one Web Locks manager for the "browser" (FIFO per name,
// as the spec has it), and per tab a view of it plus a BroadcastChannel (Node's own, which
// delivers between instances of one name) that `crash()` cuts off without a word, as a killed
// renderer would: its locks are freed, its channel goes silent.
import type { BroadcastChannelConstructor, BroadcastChannelLike, LockManagerLike } from '../../tabs.js'

interface Waiter {
  owner: Tab
  grant: () => void
}

export interface Tab {
  locks: LockManagerLike
  BroadcastChannel: BroadcastChannelConstructor
  /** Frees its locks and silences its channels, without the goodbye a closing page says. */
  crash(): void
}

export function createBrowser() {
  const held = new Map<string, { owner: Tab; release: () => void }>()
  const queues = new Map<string, Waiter[]>()

  function next(name: string) {
    if (held.has(name)) return
    const waiter = queues.get(name)?.shift()
    if (!queues.get(name)?.length) queues.delete(name)
    waiter?.grant()
  }

  function tab(): Tab {
    const channels = new Set<BroadcastChannelLike>()
    let dead = false
    const me: Tab = {
      locks: {
        request(name, { signal }, callback) {
          return new Promise((resolve, reject) => {
            if (dead) return reject(new Error('dead'))
            const waiter: Waiter = {
              owner: me,
              grant() {
                signal?.removeEventListener('abort', onAbort)
                let release!: () => void
                const done = new Promise<void>((r) => (release = r))
                held.set(name, { owner: me, release })
                // The lock is freed when the callback's promise settles, or when the tab dies.
                void Promise.race([callback(), done]).then(
                  (v) => {
                    if (held.get(name)?.owner === me) held.delete(name)
                    next(name)
                    resolve(v)
                  },
                  (e: unknown) => {
                    if (held.get(name)?.owner === me) held.delete(name)
                    next(name)
                    reject(e as Error)
                  },
                )
              },
            }
            const onAbort = () => {
              const q = queues.get(name)
              const i = q?.indexOf(waiter) ?? -1
              if (i >= 0) q!.splice(i, 1)
              reject(new Error('AbortError'))
            }
            if (signal?.aborted) return reject(new Error('AbortError'))
            signal?.addEventListener('abort', onAbort, { once: true })
            queues.set(name, [...(queues.get(name) ?? []), waiter])
            next(name)
          })
        },
      },
      BroadcastChannel: class {
        private readonly bc: BroadcastChannel
        onmessage: ((event: { data: unknown }) => void) | null = null
        constructor(name: string) {
          this.bc = new BroadcastChannel(name)
          this.bc.onmessage = (e) => !dead && this.onmessage?.(e as MessageEvent)
          channels.add(this)
        }
        postMessage(m: unknown) {
          if (!dead) this.bc.postMessage(m)
        }
        close() {
          channels.delete(this)
          this.bc.close()
        }
      },
      crash() {
        dead = true
        for (const c of [...channels]) c.close()
        for (const [name, q] of queues)
          queues.set(
            name,
            q.filter((w) => w.owner !== me),
          )
        for (const [, h] of [...held]) if (h.owner === me) h.release()
      },
    }
    return me
  }

  return {
    tab,
    /** Lock names held and waited for, as `navigator.locks.query()` would list them. */
    query: () => ({
      held: [...held.keys()],
      pending: [...queues.values()].flat().length,
    }),
  }
}
