// A tab's role in the group that shares one connection, as a pure reducer: every legal
// (role, event) pair is in TABLE; any other pair is illegal, and changes nothing. The effects are
// data, carried out by the share (share.ts), in order, after the new role is set.

/**
 * `electing`: waiting to hear of a leader; `alone`: this runtime cannot share (no Web Locks or no
 * BroadcastChannel), so the tab has a socket of its own; `stopped`: left (page hidden, `stop()`).
 */
export type TabRole = 'electing' | 'leader' | 'follower' | 'alone' | 'stopped'

export interface RoleState {
  role: TabRole
  /** The leading tab's id, when one is known. */
  leader: string | undefined
}

export type RoleEvent =
  /** The share starts: this runtime has Web Locks, a BroadcastChannel and a WebSocket. */
  | { type: 'start' }
  /** It has not. */
  | { type: 'unsupported' }
  /** This tab (`tab`) got the leader's lock. */
  | { type: 'won'; tab: string }
  /** Another tab says it leads. */
  | { type: 'heard'; leader: string }
  /** A tab says it no longer leads. */
  | { type: 'bye'; leader: string }
  /** The page is hidden or frozen, or `stop()`. */
  | { type: 'leave' }
  /** The page is shown, or resumed, again. */
  | { type: 'back' }

export type RoleEffect =
  /** Open the tabs' channel, hold this tab's locks, ask who leads. */
  | 'join'
  /** Start the hub, say so, open this tab's sockets on it, answer the token asks waiting. */
  | 'lead'
  /** Move this tab's sockets to the leader (closing any on another), and ask it the waiting tokens. */
  | 'follow'
  /** The leader went: close the sockets it served. */
  | 'orphan'
  /** Leaving as the leader: say bye, stop the hub (the next leader settles its presence). */
  | 'resign'
  /** Leaving as another: say this tab is present nowhere, close its sockets on the leader. */
  | 'withdraw'
  /** Close this tab's sockets, free its locks, close the channel. */
  | 'part'

export interface RoleStep extends RoleState {
  effects: RoleEffect[]
  /** The pair has no edge: nothing changed. */
  illegal?: true
}

type Edge = (state: RoleState, event: RoleEvent) => RoleStep
type EventType = RoleEvent['type']

const to = (role: TabRole, leader: string | undefined, ...effects: RoleEffect[]): RoleStep => ({
  role,
  leader,
  effects,
})
const stay = (state: RoleState): RoleStep => to(state.role, state.leader)

const won: Edge = (_, e) => to('leader', e.type === 'won' ? e.tab : undefined, 'lead')
const heard: Edge = (_, e) => to('follower', e.type === 'heard' ? e.leader : undefined, 'follow')
const left: Edge = () => to('stopped', undefined, 'withdraw', 'part')

/** Every legal move. A missing pair is illegal: the reducer ignores it (logged in development). */
export const TABLE: Record<TabRole, Partial<Record<EventType, Edge>>> = {
  alone: {
    // Nothing was shared, so there is nothing to leave.
    leave: stay,
  },
  electing: {
    start: (s) => to(s.role, s.leader, 'join'),
    unsupported: () => to('alone', undefined),
    won,
    heard,
    // A leader this tab never heard of.
    bye: stay,
    leave: left,
  },
  follower: {
    won,
    heard,
    bye: (s, e) => (e.type === 'bye' && e.leader === s.leader ? to('electing', undefined, 'orphan') : stay(s)),
    leave: left,
  },
  leader: {
    // A tab that led before this one, late: its `bye` reached us after our election.
    bye: stay,
    leave: () => to('stopped', undefined, 'resign', 'part'),
  },
  stopped: {
    back: () => to('electing', undefined, 'join'),
    // `stop()` after the page left already.
    leave: stay,
  },
}

/** The next role, leader and effects for `event` in `state`: the same state and no effects when the pair is illegal. */
export function transition(state: RoleState, event: RoleEvent): RoleStep {
  const edge = TABLE[state.role][event.type]
  return edge ? edge(state, event) : { ...stay(state), illegal: true }
}
