import { PAGE_MAX, type CustomerMessage } from '@tandem/contract'
import type { ReadableStore } from '../store.js'
import { createLazyStore } from './lazy-store.js'
import { createLiveRunner, toTandemError, type StoreDeps } from './live-runner.js'
import { statusOf } from './store-phase.js'
import { initialThread, transition, type ThreadEffect, type ThreadEvent, type ThreadState } from './thread-machine.js'
import type { ThreadSnapshot } from './types.js'

// One conversation's live store (thread-machine.ts decides): fetched while watched, fed the
// customer channel's pushes for it, with the typing timer.

export interface ThreadDeps extends StoreDeps {
  typingTimeoutMs: number
  /** The thread started (`true`) or stopped running: only a running thread hears pushes. */
  onRunning: (running: boolean) => void
}

/** A conversation as the customer sees it (not the contract's `Thread`, an agent's thread of a conversation). */
export interface ThreadStore {
  readonly store: ReadableStore<ThreadSnapshot> & { refresh: () => Promise<void> }
  /** The one writer: a push, the answer of the customer's own write, a resync, the shutdown (`close`). */
  dispatch: (event: ThreadEvent) => void
}

const snapshotOf = (s: ThreadState): ThreadSnapshot => ({
  status: statusOf(s.phase),
  conversation: s.conversation,
  messages: s.messages,
  typingName: s.typingName,
  agentTyping: s.agentTyping,
  error: s.error,
})

export function createThreadStore(id: string, deps: ThreadDeps): ThreadStore {
  let typingTimer: ReturnType<typeof setTimeout> | undefined
  const initial = initialThread(id)
  const runner = createLiveRunner(initial, transition, deps, { publish, load, run })
  const store = createLazyStore(snapshotOf(initial), runner.acquire)
  const { dispatch } = runner

  /** A new snapshot only when a field it shows changed. */
  function publish(state: ThreadState) {
    const next = snapshotOf(state)
    store.set((s) => ((Object.keys(s) as (keyof ThreadSnapshot)[]).every((k) => s[k] === next[k]) ? s : next))
  }

  function run(effect: ThreadEffect) {
    if (effect.type === 'hold' || effect.type === 'release') deps.onRunning(effect.type === 'hold')
    if (effect.type === 'typingTimer' || effect.type === 'clearTypingTimer') clearTimeout(typingTimer)
    if (effect.type === 'typingTimer')
      typingTimer = setTimeout(() => dispatch({ type: 'typingTimeout' }), deps.typingTimeoutMs)
  }

  /** The conversation and every page of its messages, up to the cap: a chain that goes on is an error. */
  async function load(): Promise<ThreadEvent> {
    const options = { signal: deps.signal }
    const messages: CustomerMessage[] = []
    const pages = deps.rest.conversations.messages(id, { limit: PAGE_MAX }, options).pages({ maxPages: deps.maxPages })
    const [c, list] = await Promise.allSettled([
      deps.rest.conversations.get(id, options),
      (async () => {
        for await (const page of pages) messages.push(...page.data)
      })(),
    ])
    const failed = c.status === 'rejected' ? c : list.status === 'rejected' ? list : undefined
    return {
      type: 'loaded',
      conversation: c.status === 'fulfilled' ? c.value : undefined,
      messages,
      error: failed ? toTandemError(failed.reason) : null,
    }
  }

  return { store: { getSnapshot: store.getSnapshot, subscribe: store.subscribe, refresh: runner.refresh }, dispatch }
}
