import { describe, expect, it } from 'vitest'
import { TandemError } from '../../errors.js'
import {
  TABLE,
  initialPersistState,
  transition,
  type PersistEffect,
  type PersistEvent,
  type PersistPhase,
  type PersistState,
} from '../../persist/persist-cache-machine.js'
import type { SavedEntry } from '../../persist/saved-entries.js'
import type { RestoreResult } from '../../persist/types.js'
import { itWalksTheTable } from '../../../../../test/utils/machine-table.js'

// Every edge of the saved cache's machine, walked: (phase, event) → (next phase, effects, in
// order). The rows must name exactly the machine's edges, so adding, removing or changing one
// fails here until this table says the same.

const entry: SavedEntry = {
  query: { service: 'support', collection: 'conversations' },
  data: { pages: [] },
  dataUpdatedAt: 1,
}
const result: RestoreResult = { entries: 1, reason: 'restored', dropped: 0, problems: [] }

/** One event of each type (and the variants the handlers tell apart), as the runner sends them. */
const E = {
  restored: { type: 'restored', result },
  change: { type: 'change', hash: 'h1', entry },
  post: { type: 'post' },
  save: { type: 'save' },
  saved: { type: 'saved', ours: true, entries: 3 },
  savedNothing: { type: 'saved', ours: true, entries: undefined },
  /** The write found the key's session gone: a logout this page did not hear. */
  savedGone: { type: 'saved', ours: false, entries: undefined },
  heardEntries: { type: 'heard', message: { t: 'entries', entries: [entry] } },
  heardCleared: { type: 'heard', message: { t: 'cleared' } },
  heardOutbox: { type: 'heard', message: { t: 'outbox' } },
  landing: { type: 'landing' },
  landed: { type: 'landed' },
  landedRemote: { type: 'landed', remote: { entries: 1, dropped: 0 } },
  woke: { type: 'woke' },
  current: { type: 'session', current: true },
  gone: { type: 'session', current: false },
  logout: { type: 'logout', by: 'this-tab' },
  fallback: { type: 'fallback', error: new TandemError('full', { code: 'storage_unavailable' }) },
  stop: { type: 'stop' },
} satisfies Record<string, PersistEvent>

/** What the guards read: a change not yet posted (and its save due), entries landing. */
const C = {
  none: {},
  pending: { outgoing: new Map([['h0', entry]]), due: true },
  landing: { landing: true },
} satisfies Record<string, Partial<PersistState>>

type Row = [from: PersistPhase, event: keyof typeof E, context: keyof typeof C, to: PersistPhase, effects: string[]]

const ended = ['detach', 'wipe', 'publish', 'tell:cleared']

/** Restoring and ready share their edges: changes save and post while the restore runs too. */
const live = (from: 'restoring' | 'ready'): Row[] => [
  [from, 'restored', 'none', 'ready', ['publish', 'tell:restore']],
  [from, 'fallback', 'none', from, ['publish', 'tell:fallback']],
  [from, 'logout', 'pending', 'logged_out', ended],
  [from, 'saved', 'none', from, ['tell:save']],
  [from, 'savedNothing', 'none', from, []],
  [from, 'savedGone', 'none', 'logged_out', ended],
  // The first change posts on the next microtask and starts the throttle; the next ones join them.
  [from, 'change', 'none', from, ['queue_post', 'schedule_save']],
  [from, 'change', 'pending', from, []],
  [from, 'change', 'landing', from, []], // the sender saves it, and the other tabs have it
  [from, 'post', 'pending', from, ['post']],
  [from, 'post', 'none', from, []],
  [from, 'save', 'pending', from, ['write']],
  [from, 'heardEntries', 'none', from, ['land']],
  [from, 'heardCleared', 'none', 'logged_out', ended],
  [from, 'heardOutbox', 'none', from, []],
  [from, 'landing', 'none', from, []],
  [from, 'landed', 'landing', from, []],
  [from, 'landedRemote', 'landing', from, ['tell:remote']],
  [from, 'woke', 'none', from, ['check']],
  [from, 'current', 'none', from, []],
  [from, 'gone', 'none', 'logged_out', ended],
  [from, 'stop', 'pending', 'stopped', ['detach']],
]

const ROWS: Row[] = [
  ...live('restoring'),
  ...live('ready'),
  // Logged out: a restore under way still ends (its promise resolves); nothing else is heard.
  ['logged_out', 'restored', 'none', 'logged_out', ['publish', 'tell:restore']],
  ['logged_out', 'fallback', 'none', 'logged_out', ['publish', 'tell:fallback']],
  // Stopped: already detached; a logout (clearPersisted(), a write that found the session gone) still empties the cache.
  ['stopped', 'restored', 'none', 'stopped', ['publish', 'tell:restore']],
  ['stopped', 'fallback', 'none', 'stopped', ['publish', 'tell:fallback']],
  ['stopped', 'logout', 'none', 'logged_out', ['wipe', 'publish', 'tell:cleared']],
  ['stopped', 'saved', 'none', 'stopped', ['tell:save']],
  ['stopped', 'savedGone', 'none', 'logged_out', ['wipe', 'publish', 'tell:cleared']],
]

const at = (phase: PersistPhase, context: keyof typeof C): PersistState => ({
  ...initialPersistState('storage'),
  phase,
  ...C[context],
})

describe('the saved cache machine', () => {
  itWalksTheTable({
    TABLE,
    transition,
    events: E,
    at: (phase, context) => at(phase, context),
    phaseOf: (s) => s.phase,
    rows: ROWS,
    anyContext: 'pending',
    effectName: (e) => {
      const effect = e as PersistEffect
      return effect.type === 'tell' ? `tell:${effect.event}` : effect.type
    },
  })

  it('a save that ends after a logout, and a change or a message after it, are rows with no edge: nothing', () => {
    // The write itself looked at the session in its transaction and wrote nothing (key-session.ts).
    for (const late of [E.saved, E.savedGone, E.change, E.save, E.heardEntries, E.heardCleared, E.logout]) {
      const s = at('logged_out', 'none')
      expect(transition(s, late)).toEqual({ state: s, effects: [] })
    }
  })

  it('carries what the runner needs: the posted entries, who logged out, what the restore found', () => {
    const changed = transition(at('ready', 'none'), E.change).state
    expect([...changed.outgoing.values()]).toEqual([entry])
    const posted = transition(changed, E.post)
    expect(posted.effects).toEqual([{ type: 'post', entries: [entry] }])
    expect(posted.state.outgoing.size).toBe(0)
    expect(transition(changed, E.save).state.due).toBe(false)
    const out = transition(changed, { type: 'heard', message: { t: 'cleared' } })
    expect(out.state).toMatchObject({ loggedOut: 'another-tab', due: false })
    expect(out.effects).toContainEqual({ type: 'tell', event: 'cleared', value: { by: 'another-tab' } })
    expect(transition(at('restoring', 'none'), E.restored).state.restore).toBe(result)
    expect(transition(at('ready', 'none'), E.fallback).state.mode).toBe('memory')
  })
})
