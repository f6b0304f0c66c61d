import type { CustomerConversation, CustomerMessage } from '@tandem/contract'
import { describe, expect, it } from 'vitest'
import { TandemError } from '../errors.js'
import {
  TABLE,
  initialThread,
  transition,
  type ThreadEffectType,
  type ThreadEvent,
  type ThreadPhase,
  type ThreadState,
} from '../messenger/thread-machine.js'
import { itWalksTheTable } from '../../../../test/utils/machine-table.js'

// Every edge of a thread store's machine, walked: (phase, event) → (next phase, effect types, in
// order). The rows must name exactly the machine's edges, so adding, removing or changing one
// fails here until this table says the same.

const ID = 'cnv_1'
const failure = new TandemError('Service unavailable', { code: 'unavailable' })
const shutDown = new TandemError('messenger: shut_down', { code: 'shut_down' })

const conversation = (modifiedAt: string, id = ID): CustomerConversation => ({
  id,
  subject: 'Help',
  status: 'active',
  preview: '',
  messageCount: 0,
  unreadCount: 0,
  createdAt: modifiedAt,
  modifiedAt,
  closedAt: null,
})
const message = (id: string, createdAt: string, type: 'agent' | 'customer', conversationId = ID): CustomerMessage =>
  ({ id, conversationId, text: id, author: { type, name: null }, createdAt }) as unknown as CustomerMessage

const m1 = message('msg_1', '2026-01-01T00:00:01Z', 'customer')
const m2 = message('msg_2', '2026-01-01T00:00:02Z', 'agent')

/** One event of each kind, as the runner sends them. */
const E = {
  start: { type: 'start' },
  stop: { type: 'stop' },
  refresh: { type: 'refresh' },
  resync: { type: 'resync' },
  loaded: { type: 'loaded', conversation: conversation('2026-01-01T00:00:03Z'), messages: [m2, m1], error: null },
  /** The messages failed, the conversation came. */
  loadFailed: { type: 'loaded', conversation: conversation('2026-01-01T00:00:03Z'), messages: [], error: failure },
  agentMessage: { type: 'message', message: m2 },
  ownMessage: { type: 'message', message: m1 },
  conversation: { type: 'conversation', conversation: conversation('2026-01-01T00:00:04Z') },
  typing: { type: 'typing', typing: { conversationId: ID, typing: true, name: 'Ana' } },
  typingStop: { type: 'typing', typing: { conversationId: ID, typing: false, name: 'Ana' } },
  typingTimeout: { type: 'typingTimeout' },
  close: { type: 'close', error: shutDown },
} satisfies Record<string, ThreadEvent>

/** What the guards read: watched or not, an agent typing. */
const C = {
  none: {},
  running: { running: true },
  typing: { running: true, typingName: 'Ana', agentTyping: true },
} satisfies Record<string, Partial<ThreadState>>

type Row = [
  from: ThreadPhase,
  event: keyof typeof E,
  context: keyof typeof C,
  to: ThreadPhase,
  effects: ThreadEffectType[],
]

/** loading, ready and error show what they have: the same edges, ready stays ready while it fetches. */
const shown = (from: 'loading' | 'ready' | 'error'): Row[] => {
  const fetching = from === 'ready' ? 'ready' : 'loading'
  return [
    [from, 'start', 'none', fetching, ['hold', 'fetch']],
    [from, 'stop', 'typing', from, ['clearTypingTimer', 'release']],
    [from, 'refresh', 'none', fetching, ['fetch']],
    [from, 'resync', 'running', fetching, ['fetch']],
    [from, 'resync', 'none', from, []], // not watched: the next subscriber fetches
    [from, 'loaded', 'running', 'ready', []],
    [from, 'loadFailed', 'running', 'error', ['report']],
    [from, 'agentMessage', 'typing', from, ['clearTypingTimer']], // what the typing was for
    [from, 'agentMessage', 'running', from, []],
    [from, 'ownMessage', 'typing', from, []],
    [from, 'conversation', 'none', from, []],
    [from, 'typing', 'running', from, ['typingTimer']],
    [from, 'typing', 'none', from, []], // only a running thread hears typing
    [from, 'typingStop', 'typing', from, ['clearTypingTimer']],
    [from, 'typingTimeout', 'typing', from, []],
    [from, 'close', 'typing', 'closed', ['clearTypingTimer']],
  ]
}

const ROWS: Row[] = [
  ['idle', 'start', 'none', 'loading', ['hold', 'fetch']],
  ['idle', 'refresh', 'none', 'loading', ['fetch']],
  ['idle', 'close', 'none', 'closed', ['clearTypingTimer']],
  ...shown('loading'),
  ...shown('ready'),
  ...shown('error'),
  // Shut down while watched: the last subscriber still lets the channel go.
  ['closed', 'stop', 'running', 'closed', ['release']],
  ['closed', 'stop', 'none', 'closed', []],
]

const at = (phase: ThreadPhase, context: keyof typeof C): ThreadState => ({
  ...initialThread(ID),
  phase,
  ...C[context],
})

describe('the thread machine', () => {
  itWalksTheTable({
    TABLE,
    transition,
    events: E,
    at: (phase, context) => at(phase, context),
    phaseOf: (s) => s.phase,
    rows: ROWS,
    anyContext: 'typing',
  })

  it('merges messages by id, oldest first, and keeps the array when nothing is new', () => {
    const loaded = transition(at('loading', 'running'), E.loaded).state
    expect(loaded.messages.map((m) => m.id)).toEqual(['msg_1', 'msg_2'])
    // A push of a message the load brought (and a load of what a push brought) shows it once.
    expect(transition(loaded, E.ownMessage).state).toBe(loaded)
    const again = transition(loaded, E.loaded).state
    expect(again.messages).toBe(loaded.messages)
    // Another conversation's message is not this thread's.
    const other = message('msg_3', '2026-01-01T00:00:00Z', 'agent', 'cnv_2')
    expect(transition(loaded, { type: 'message', message: other }).state).toBe(loaded)
    const early = message('msg_0', '2026-01-01T00:00:00Z', 'agent')
    expect(transition(loaded, { type: 'message', message: early }).state.messages.map((m) => m.id)).toEqual([
      'msg_0',
      'msg_1',
      'msg_2',
    ])
  })

  it('shows what did load beside a failure, and never an older conversation', () => {
    const failed = transition(at('loading', 'running'), E.loadFailed)
    expect(failed.state).toMatchObject({ phase: 'error', error: failure, conversation: E.loadFailed.conversation })
    expect(failed.effects).toEqual([{ type: 'report', error: failure }])
    const newer = transition(failed.state, E.conversation).state
    expect(newer.conversation).toBe(E.conversation.conversation)
    expect(transition(newer, { type: 'conversation', conversation: conversation('2026-01-01T00:00:00Z') }).state).toBe(
      newer,
    )
    expect(
      transition(newer, { type: 'conversation', conversation: conversation('2026-01-02T00:00:00Z', 'cnv_2') }).state,
    ).toBe(newer)
    // A new fetch clears nothing: the error stays shown until the answer.
    expect(transition(newer, E.refresh).state).toMatchObject({ phase: 'loading', error: failure })
    expect(transition(newer, E.loaded).state).toMatchObject({ phase: 'ready', error: null })
  })

  it('typing shows the name until the agent’s message, the timeout or a stop', () => {
    const typing = transition(at('ready', 'running'), E.typing).state
    expect(typing).toMatchObject({ typingName: 'Ana', agentTyping: true })
    for (const event of [E.agentMessage, E.typingTimeout, E.typingStop, E.stop])
      expect(transition(typing, event).state).toMatchObject({ typingName: null, agentTyping: false })
    expect(transition(typing, E.ownMessage).state).toMatchObject({ agentTyping: true })
  })

  it('close forgets everything and says the shutdown; later pushes and answers change nothing', () => {
    const shown = transition(transition(at('loading', 'typing'), E.loaded).state, E.conversation).state
    const closed = transition(shown, E.close).state
    expect(closed).toMatchObject({
      phase: 'closed',
      running: true,
      conversation: null,
      messages: [],
      typingName: null,
      agentTyping: false,
      error: shutDown,
    })
    for (const event of Object.values(E).filter((e) => e.type !== 'stop'))
      expect(transition(closed, event).state).toBe(closed)
  })
})
