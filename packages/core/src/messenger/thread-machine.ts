import type { CustomerConversation, CustomerMessage, CustomerTyping } from '@tandem/contract'
import type { TandemError } from '../errors.js'
import { notOlder } from './record-compare.js'
import {
  fetch,
  resync,
  same,
  settle,
  start,
  step,
  stop,
  type PhaseEffect,
  type PhaseState,
  type StorePhase,
  type Step,
  storeTable,
} from './store-phase.js'

// One conversation as the customer sees it, as a pure machine: each (phase, event) pair it answers
// is an edge of TABLE, which returns the next state and the effects to carry out, as data. No
// clock, no timer, no I/O: thread-store.ts fetches, holds the channel, runs the typing timer and
// feeds the events in.

export type ThreadPhase = StorePhase

/** `running`: only a running thread hears typing. */
export interface ThreadState extends PhaseState {
  readonly phase: ThreadPhase
  /** The conversation's id: pushes and pages of any other are not this thread's. */
  readonly id: string
  readonly conversation: CustomerConversation | null
  /** Oldest first, each once (merged by id). */
  readonly messages: readonly CustomerMessage[]
  readonly typingName: string | null
  readonly agentTyping: boolean
}

export type ThreadEvent =
  /** The first subscriber (the pool's hold). */
  | { type: 'start' }
  /** The last subscriber let go, a lease delay ago. */
  | { type: 'stop' }
  /** `refresh()`: fetch again. */
  | { type: 'refresh' }
  /** The channel may have missed pushes (its first subscription, a `discontinuity`): fetch again if running. */
  | { type: 'resync' }
  /** A fetch ended: the conversation (undefined when its request failed), the messages read, the first failure. */
  | {
      type: 'loaded'
      conversation: CustomerConversation | undefined
      messages: readonly CustomerMessage[]
      error: TandemError | null
    }
  /** A pushed message, or the answer of the customer's own reply. */
  | { type: 'message'; message: CustomerMessage }
  /** The conversation's new state: a push, or the answer of the customer's own write. */
  | { type: 'conversation'; conversation: CustomerConversation }
  | { type: 'typing'; typing: CustomerTyping }
  /** The typing timer ran out without a new typing push. */
  | { type: 'typingTimeout' }
  /** The messenger was shut down: forget everything, say `error` from now on. */
  | { type: 'close'; error: TandemError }
export type ThreadEventType = ThreadEvent['type']

/** `hold` also makes it the thread pushes reach; `fetch` reads the conversation and every page of its messages. */
export type ThreadEffect =
  | PhaseEffect
  /** (Re)start the typing timer: `typingTimeout` after `typingTimeoutMs`. */
  | { type: 'typingTimer' }
  | { type: 'clearTypingTimer' }
export type ThreadEffectType = ThreadEffect['type']

export type ThreadResult = Step<ThreadState, ThreadEffect>

type Handler<E extends ThreadEventType> = (s: ThreadState, e: Extract<ThreadEvent, { type: E }>) => ThreadResult
type Edges = { readonly [E in ThreadEventType]?: Handler<E> }

export const initialThread = (id: string): ThreadState => ({
  phase: 'idle',
  id,
  running: false,
  conversation: null,
  messages: [],
  typingName: null,
  agentTyping: false,
  error: null,
})

const NOBODY = { typingName: null, agentTyping: false }

/** Oldest first, ties by id: the order the service lists them in. */
const byCreated = (a: CustomerMessage, b: CustomerMessage) =>
  Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** `shown` with the messages of `list` it does not show yet; the same array when there are none. */
function merge(id: string, shown: readonly CustomerMessage[], list: readonly CustomerMessage[]) {
  const ids = new Set(shown.map((m) => m.id))
  const added = list.filter((m) => m.conversationId === id && !ids.has(m.id) && ids.add(m.id))
  return added.length ? [...shown, ...added].sort(byCreated) : shown
}

/** The conversation shown after `c`: it, when it is this one and no older than what is shown. */
const newer = (s: ThreadState, c: CustomerConversation | undefined) =>
  c && c.id === s.id && (!s.conversation || notOlder(c, s.conversation)) ? c : s.conversation

const close: Handler<'close'> = (s, e) => ({
  state: { ...initialThread(s.id), running: s.running, phase: 'closed', error: e.error },
  effects: [{ type: 'clearTypingTimer' }],
})

/** The edges of every phase that shows something (or is on its way to). */
const SHOWN: Edges = {
  start,
  stop(s) {
    const r = stop(s)
    return { state: { ...r.state, ...NOBODY }, effects: [{ type: 'clearTypingTimer' }, ...r.effects] }
  },
  refresh: fetch,
  resync,
  loaded(s, e) {
    // What did load is shown beside the error, as is the conversation when only the messages failed.
    const conversation = newer(s, e.conversation)
    return settle({ ...s, conversation, messages: merge(s.id, s.messages, e.messages) }, e.error)
  },
  message(s, { message }) {
    // The agent's message is what their typing was for.
    const typed = message.author.type === 'agent' && s.agentTyping && message.conversationId === s.id
    const messages = merge(s.id, s.messages, [message])
    if (!typed && messages === s.messages) return same(s)
    return {
      state: { ...s, messages, ...(typed ? NOBODY : null) },
      effects: typed ? [{ type: 'clearTypingTimer' }] : [],
    }
  },
  conversation(s, e) {
    const conversation = newer(s, e.conversation)
    return conversation === s.conversation ? same(s) : same({ ...s, conversation })
  },
  typing(s, { typing: t }) {
    if (!s.running || t.conversationId !== s.id) return same(s)
    return t.typing
      ? { state: { ...s, typingName: t.name, agentTyping: true }, effects: [{ type: 'typingTimer' }] }
      : { state: { ...s, ...NOBODY }, effects: [{ type: 'clearTypingTimer' }] }
  },
  typingTimeout: (s) => same(s.agentTyping ? { ...s, ...NOBODY } : s),
  close,
}

export const TABLE = storeTable<Edges>({ start, refresh: fetch, close }, SHOWN, { stop })

/** The state after `e`, and what to do; `s` itself and no effect for a pair TABLE has no edge for. */
export const transition = (s: ThreadState, e: ThreadEvent): ThreadResult => step(TABLE, s, e)
