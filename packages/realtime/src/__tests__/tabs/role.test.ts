// The tab role's reducer, edge by edge: EDGES is the whole table written out (every role × every
// event), so any change to a move, its effects or which pairs are legal fails here.
import { describe, expect, it } from 'vitest'
import { TABLE, transition, type RoleEffect, type RoleEvent, type RoleState, type TabRole } from '../../tabs/role.js'

const ME = 'tab_me'
const L1 = 'tab_1'
const L2 = 'tab_2'

const EVENTS: Record<RoleEvent['type'], RoleEvent> = {
  start: { type: 'start' },
  unsupported: { type: 'unsupported' },
  won: { type: 'won', tab: ME },
  heard: { type: 'heard', leader: L2 },
  bye: { type: 'bye', leader: L1 },
  leave: { type: 'leave' },
  back: { type: 'back' },
}

/** The state each role is walked from: a follower and a stopped tab know (or knew) leader L1. */
const FROM: Record<TabRole, RoleState> = {
  alone: { role: 'alone', leader: undefined },
  electing: { role: 'electing', leader: undefined },
  follower: { role: 'follower', leader: L1 },
  leader: { role: 'leader', leader: ME },
  stopped: { role: 'stopped', leader: undefined },
}

type Row =
  [TabRole, RoleEvent['type'], TabRole, string | undefined, RoleEffect[]] | [TabRole, RoleEvent['type'], 'illegal']

// prettier-ignore
const EDGES: Row[] = [
  ['alone', 'start', 'illegal'],
  ['alone', 'unsupported', 'illegal'],
  ['alone', 'won', 'illegal'],
  ['alone', 'heard', 'illegal'],
  ['alone', 'bye', 'illegal'],
  ['alone', 'leave', 'alone', undefined, []],
  ['alone', 'back', 'illegal'],

  ['electing', 'start', 'electing', undefined, ['join']],
  ['electing', 'unsupported', 'alone', undefined, []],
  ['electing', 'won', 'leader', ME, ['lead']],
  ['electing', 'heard', 'follower', L2, ['follow']],
  ['electing', 'bye', 'electing', undefined, []],
  ['electing', 'leave', 'stopped', undefined, ['withdraw', 'part']],
  ['electing', 'back', 'illegal'],

  ['follower', 'start', 'illegal'],
  ['follower', 'unsupported', 'illegal'],
  ['follower', 'won', 'leader', ME, ['lead']],
  ['follower', 'heard', 'follower', L2, ['follow']],
  ['follower', 'bye', 'electing', undefined, ['orphan']],
  ['follower', 'leave', 'stopped', undefined, ['withdraw', 'part']],
  ['follower', 'back', 'illegal'],

  ['leader', 'start', 'illegal'],
  ['leader', 'unsupported', 'illegal'],
  ['leader', 'won', 'illegal'],
  ['leader', 'heard', 'illegal'],
  ['leader', 'bye', 'leader', ME, []],
  ['leader', 'leave', 'stopped', undefined, ['resign', 'part']],
  ['leader', 'back', 'illegal'],

  ['stopped', 'start', 'illegal'],
  ['stopped', 'unsupported', 'illegal'],
  ['stopped', 'won', 'illegal'],
  ['stopped', 'heard', 'illegal'],
  ['stopped', 'bye', 'illegal'],
  ['stopped', 'leave', 'stopped', undefined, []],
  ['stopped', 'back', 'electing', undefined, ['join']],
]

describe('the tab role reducer', () => {
  it('walks every (role, event) pair, and the table has no edge the walk does not know', () => {
    const roles = Object.keys(FROM) as TabRole[]
    const events = Object.keys(EVENTS) as RoleEvent['type'][]
    expect(EDGES.map(([r, e]) => `${r} ${e}`)).toEqual(roles.flatMap((r) => events.map((e) => `${r} ${e}`)))
    const legal = EDGES.filter((row) => row[2] !== 'illegal').map(([r, e]) => `${r} ${e}`)
    expect(roles.flatMap((r) => Object.keys(TABLE[r]).map((e) => `${r} ${e}`)).sort()).toEqual(legal.sort())
  })

  it.each(EDGES)('%s + %s → %s', (role, type, ...expected) => {
    const from = FROM[role]
    const step = transition(from, EVENTS[type])
    if (expected[0] === 'illegal') {
      expect(step).toEqual({ ...from, effects: [], illegal: true })
    } else {
      const [next, leader, effects] = expected
      expect(step).toEqual({ role: next, leader, effects })
    }
  })

  it('a follower ignores the bye of a leader it does not follow', () => {
    expect(transition(FROM.follower, { type: 'bye', leader: L2 })).toEqual({ ...FROM.follower, effects: [] })
  })

  it('is pure: the state it is given is never changed', () => {
    const from = { ...FROM.follower }
    transition(from, EVENTS.won)
    transition(from, EVENTS.bye)
    expect(from).toEqual(FROM.follower)
  })
})
