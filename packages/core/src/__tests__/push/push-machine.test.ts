import { describe, expect, it } from 'vitest'
import { TandemError } from '../../errors.js'
import {
  TABLE,
  initialPushState,
  transition,
  type PushEffect,
  type PushEvent,
  type PushMachineState,
  type PushPhase,
} from '../../push/push-machine.js'
import { itWalksTheTable } from '../../../../../test/utils/machine-table.js'

// Every edge of push's machine, walked: (phase, event) → (next phase, effects, in order). The rows
// must name exactly the machine's edges, so adding, removing or changing one fails here until this
// table says the same. Below it, what the store shows on the edges a user sees.

const subscription = { endpoint: 'https://push.example/s/1', keys: { p256dh: 'B', auth: 'a' }, expirationTime: null }
const error = new TandemError('refused', { code: 'validation_error', status: 400 })

const E = {
  start: { type: 'start', lacks: null, permission: 'default' },
  startGranted: { type: 'start', lacks: null, permission: 'granted' },
  startDenied: { type: 'start', lacks: null, permission: 'denied' },
  startLacking: { type: 'start', lacks: 'no_push_manager', permission: 'default' },
  enable: { type: 'enable', gesture: true },
  enableNoGesture: { type: 'enable', gesture: false },
  answeredGranted: { type: 'answered', permission: 'granted' },
  answeredDenied: { type: 'answered', permission: 'denied' },
  answeredDefault: { type: 'answered', permission: 'default' },
  subscribed: { type: 'subscribed', attempt: 1, subscription },
  subscribedStale: { type: 'subscribed', attempt: 0, subscription },
  absent: { type: 'absent', attempt: 1 },
  absentStale: { type: 'absent', attempt: 0 },
  registered: { type: 'registered', attempt: 1, id: 'psb_1' },
  registeredStale: { type: 'registered', attempt: 0, id: 'psb_0' },
  failed: { type: 'failed', attempt: 1, reason: 'register_failed', error },
  failedStale: { type: 'failed', attempt: 0, reason: 'register_failed', error },
  granted: { type: 'permission', permission: 'granted' },
  denied: { type: 'permission', permission: 'denied' },
  prompt: { type: 'permission', permission: 'default' },
  renewed: { type: 'renewed' },
  disable: { type: 'disable' },
  cleared: { type: 'cleared' },
  removed: { type: 'removed' },
  unavailable: { type: 'unavailable', lacks: 'no_service_worker' },
  stop: { type: 'stop' },
} satisfies Record<string, PushEvent>

/** What the guards read: the permission, the registered id, a start-up read and whether enable() came during it. */
const C = {
  none: {},
  granted: { permission: 'granted', id: 'psb_1' },
  denied: { permission: 'denied' },
  existing: { permission: 'granted', existingOnly: true },
  wanted: { permission: 'granted', existingOnly: true, wanted: true },
  /** enable() came during a removal with the permission not granted (a revoke): no prompt after the click. */
  wantedUngranted: { wanted: true },
  twoRemovals: { removals: 2 },
} satisfies Record<string, Partial<PushMachineState>>

type Row = [from: PushPhase, event: keyof typeof E, context: keyof typeof C, to: PushPhase, effects: string[]]

const at = (phase: PushPhase, context: keyof typeof C): PushMachineState => ({
  ...initialPushState(),
  phase,
  attempt: 1,
  ...C[context],
})

/** What every phase off a subscription does alike (default, error). */
const off = (from: 'default' | 'error'): Row[] => [
  [from, 'enable', 'none', 'asking', ['ask']],
  [from, 'enable', 'granted', 'subscribing', ['subscribe:new']],
  [from, 'enableNoGesture', 'none', from, []],
  [from, 'denied', 'none', 'denied', []],
  [from, 'granted', 'none', from, []],
  // A browser subscription another tab made is removed too.
  [from, 'disable', 'none', 'removing', ['remove:none']],
  [from, 'cleared', 'none', 'removing', ['remove:none']],
  [from, 'unavailable', 'none', 'unsupported', []],
  [from, 'stop', 'none', 'stopped', ['close']],
]

/** Subscribed or on the way there: each of these removes it. */
const held = (from: 'subscribing' | 'registering' | 'subscribed'): Row[] => [
  [from, 'denied', 'granted', 'removing', ['remove:psb_1']],
  [from, 'prompt', 'granted', 'removing', ['remove:psb_1']],
  [from, 'granted', 'granted', from, []],
  [from, 'disable', 'granted', 'removing', ['remove:psb_1']],
  [from, 'cleared', 'granted', 'removing', ['remove:psb_1']],
  [from, 'unavailable', 'granted', 'unsupported', []],
  [from, 'stop', 'granted', 'stopped', ['close']],
  [from, 'renewed', 'granted', 'subscribing', ['subscribe:existing']],
]

const rows: Row[] = [
  ['idle', 'start', 'none', 'default', []],
  ['idle', 'startGranted', 'none', 'subscribing', ['subscribe:listed']],
  ['idle', 'startDenied', 'none', 'denied', []],
  ['idle', 'startLacking', 'none', 'unsupported', []],
  ['idle', 'stop', 'none', 'stopped', ['close']],
  ['unsupported', 'stop', 'none', 'stopped', ['close']],
  ...off('default'),
  ...off('error'),
  ['denied', 'enable', 'denied', 'denied', []],
  ['denied', 'granted', 'denied', 'default', []],
  ['denied', 'prompt', 'denied', 'default', []],
  ['denied', 'denied', 'denied', 'denied', []],
  ['denied', 'unavailable', 'denied', 'unsupported', []],
  ['denied', 'stop', 'denied', 'stopped', ['close']],
  ['asking', 'answeredGranted', 'none', 'subscribing', ['subscribe:new']],
  ['asking', 'answeredDenied', 'none', 'denied', []],
  ['asking', 'answeredDefault', 'none', 'default', []],
  ['asking', 'granted', 'none', 'asking', []],
  ['asking', 'disable', 'none', 'default', []],
  ['asking', 'cleared', 'none', 'default', []],
  ['asking', 'unavailable', 'none', 'unsupported', []],
  ['asking', 'stop', 'none', 'stopped', ['close']],
  ...held('subscribing'),
  ['subscribing', 'subscribed', 'existing', 'registering', ['register']],
  ['subscribing', 'subscribedStale', 'existing', 'subscribing', []],
  ['subscribing', 'absent', 'existing', 'default', []],
  ['subscribing', 'absent', 'wanted', 'subscribing', ['subscribe:new']],
  ['subscribing', 'absentStale', 'wanted', 'subscribing', []],
  ['subscribing', 'failed', 'existing', 'error', []],
  ['subscribing', 'failedStale', 'existing', 'subscribing', []],
  ['subscribing', 'enable', 'existing', 'subscribing', []],
  ...held('registering'),
  ['registering', 'registered', 'granted', 'subscribed', []],
  ['registering', 'registeredStale', 'granted', 'registering', []],
  ['registering', 'failed', 'granted', 'error', []],
  ['registering', 'failedStale', 'granted', 'registering', []],
  ...held('subscribed'),
  ['removing', 'removed', 'none', 'default', []],
  ['removing', 'removed', 'twoRemovals', 'removing', []], // a late registration's removal is still under way
  ['removing', 'removed', 'denied', 'denied', []],
  ['removing', 'removed', 'wanted', 'subscribing', ['subscribe:new']], // enable() came during it
  ['removing', 'removed', 'wantedUngranted', 'default', []],
  ['removing', 'enable', 'granted', 'removing', []],
  ['removing', 'enableNoGesture', 'granted', 'removing', []],
  ['removing', 'disable', 'wanted', 'removing', []],
  ['removing', 'cleared', 'wanted', 'removing', []],
  ['removing', 'denied', 'none', 'removing', []],
  ['removing', 'registered', 'none', 'removing', ['remove:psb_1']],
  ['removing', 'unavailable', 'none', 'unsupported', []],
  ['removing', 'stop', 'none', 'stopped', ['close']],
]

const effectName = (e: { type: string }) => {
  const x = e as PushEffect
  if (x.type === 'subscribe') return `subscribe:${x.listed ? 'listed' : x.existingOnly ? 'existing' : 'new'}`
  if (x.type === 'remove') return `remove:${x.id ?? 'none'}`
  return x.type
}

describe('push machine', () => {
  itWalksTheTable({ TABLE, transition, events: E, at, phaseOf: (s) => s.phase, rows, anyContext: 'none', effectName })
})

describe('what the store shows', () => {
  const show = (phase: PushPhase, context: keyof typeof C, event: keyof typeof E) =>
    transition(at(phase, context), E[event]).state.snapshot

  it('says why: a click is needed, the browser lacks push, the prompt was closed or refused', () => {
    expect(show('default', 'none', 'enableNoGesture')).toEqual({
      status: 'default',
      reason: 'no_user_gesture',
      error: null,
    })
    expect(show('idle', 'none', 'startLacking')).toEqual({
      status: 'unsupported',
      reason: 'no_push_manager',
      error: null,
    })
    expect(show('asking', 'none', 'answeredDefault')).toMatchObject({ status: 'default', reason: 'dismissed' })
    expect(show('asking', 'none', 'answeredDenied')).toMatchObject({ status: 'denied', reason: 'blocked' })
    expect(show('denied', 'denied', 'enable')).toMatchObject({ status: 'denied', reason: 'blocked' })
  })

  it('a failure is shown with its reason and its typed error; a stale one changes nothing', () => {
    expect(show('registering', 'granted', 'failed')).toEqual({ status: 'error', reason: 'register_failed', error })
    const s = at('registering', 'granted')
    expect(transition(s, E.failedStale).state).toBe(s)
  })

  it('a removal shows where it ends at once, with why: revoked, disabled, logged out', () => {
    expect(show('subscribed', 'granted', 'denied')).toEqual({ status: 'denied', reason: 'revoked', error: null })
    expect(show('subscribed', 'granted', 'prompt')).toEqual({ status: 'default', reason: 'revoked', error: null })
    expect(show('subscribed', 'granted', 'disable')).toMatchObject({ status: 'default', reason: 'disabled' })
    expect(show('registering', 'granted', 'cleared')).toMatchObject({ status: 'default', reason: 'logged_out' })
    // The removal makes every outcome of the attempt it replaced stale; a registration that still
    // landed is removed too, and the phase ends with the last removal.
    const removing = transition(at('registering', 'granted'), E.cleared).state
    expect(transition(removing, E.failed).state).toBe(removing)
    const late = transition(removing, E.registered)
    expect(late.effects).toEqual([{ type: 'remove', id: 'psb_1' }])
    const once = transition(late.state, E.removed).state
    expect(once.phase).toBe('removing')
    expect(transition(once, E.removed).state.phase).toBe('default')
  })

  it('enable() during a removal: remembered, subscribes at its end; a disable or logout meanwhile forgets it', () => {
    const removing = transition(at('subscribed', 'granted'), E.disable).state
    const asked = transition(removing, E.enable).state
    expect(asked).toMatchObject({ phase: 'removing', wanted: true, snapshot: { status: 'subscribing' } })
    expect(transition(asked, E.removed).effects).toEqual([{ type: 'subscribe', attempt: 3, existingOnly: false }])
    const forgot = transition(asked, E.cleared).state
    expect(forgot).toMatchObject({ wanted: false, snapshot: { status: 'default', reason: 'logged_out' } })
    expect(transition(forgot, E.removed).state.phase).toBe('default')
    // Without the permission a prompt after the click would be refused: the user clicks again.
    expect(show('removing', 'wantedUngranted', 'removed')).toMatchObject({
      status: 'default',
      reason: 'no_user_gesture',
    })
    // A removal started while a start-up read had enable() pending does not subscribe at its end.
    expect(transition(transition(at('subscribing', 'wanted'), E.disable).state, E.removed).state.phase).toBe('default')
  })

  it('subscribed once the service registered it, with its id for the removal', () => {
    const s = transition(at('registering', 'granted'), E.registered).state
    expect(s.snapshot).toEqual({ status: 'subscribed', reason: null, error: null })
    expect(s.id).toBe('psb_1')
  })
})
