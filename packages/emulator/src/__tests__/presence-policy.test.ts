// What the service vouches for in resource presence (support/presence-policy.ts) and how often a
// customer hears typing (support/typing-throttle.ts), clock by clock: new claims stamped unique
// and increasing, renewals keeping their stamp, lapsed claims stamped anew, verified names.
import type { CustomerTyping } from '@tandem/contract'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createPresencePolicy } from '../support/presence-policy.js'
import { createTypingThrottle } from '../support/typing-throttle.js'

const agents = [{ id: 'agt_1', name: 'Seeded Agent', email: 'a@example.com' }]
const who = (connectionId: string, extra: { subject?: string; profile?: { name?: string } } = {}) => ({
  app: 'app_1',
  connectionId,
  subject: extra.subject ?? 'someone',
  ...(extra.profile ? { profile: extra.profile } : {}),
})
const data = (locks: { id: string; acquiredAt: number; ttlMs: number }[], name: string | null = 'Hint') => ({
  name,
  viewing: [],
  typing: [],
  locks,
})
type Out = { name: string | null; locks: { id: string; acquiredAt: number; ttlMs: number }[] }

describe('the resource presence policy', () => {
  it('stamps new claims with its clock, unique per channel; renewals keep the stamp; a lapsed claim is new', () => {
    const policy = createPresencePolicy(() => agents)
    const now = 1_000_000
    const a = policy.accept(data([{ id: 'x', acquiredAt: 0, ttlMs: 5_000 }]), who('c1'), now) as Out
    const b = policy.accept(data([{ id: 'x', acquiredAt: 0, ttlMs: 5_000 }]), who('c2'), now) as Out
    expect(a.locks[0]!.acquiredAt).toBe(now) // not the claimant's 0
    expect(b.locks[0]!.acquiredAt).toBe(now + 1) // the same ms: still later, never a tie
    // Renewals: by what it sent first, or by the stamp; ttlMs is the renewal's.
    const byOriginal = policy.accept(data([{ id: 'x', acquiredAt: 0, ttlMs: 9_000 }]), who('c1'), now + 4_000) as Out
    expect(byOriginal.locks[0]).toEqual({ id: 'x', acquiredAt: now, ttlMs: 9_000 })
    const byStamp = policy.accept(data([{ id: 'x', acquiredAt: now, ttlMs: 9_000 }]), who('c1'), now + 5_000) as Out
    expect(byStamp.locks[0]!.acquiredAt).toBe(now)
    // Another value, or after it lapsed: a new claim, stamped now.
    const other = policy.accept(data([{ id: 'x', acquiredAt: 7, ttlMs: 9_000 }]), who('c1'), now + 6_000) as Out
    expect(other.locks[0]!.acquiredAt).toBe(now + 6_000)
    const lapsed = policy.accept(data([{ id: 'x', acquiredAt: 7, ttlMs: 9_000 }]), who('c1'), now + 16_000) as Out
    expect(lapsed.locks[0]!.acquiredAt).toBe(now + 16_000)
    // Gone and back: a new claim.
    policy.left('app_1', 'c1')
    const back = policy.accept(data([{ id: 'x', acquiredAt: 7, ttlMs: 9_000 }]), who('c1'), now + 17_000) as Out
    expect(back.locks[0]!.acquiredAt).toBe(now + 17_000)
    expect(() =>
      policy.accept(
        data([
          { id: 'y', acquiredAt: 1, ttlMs: 5_000 },
          { id: 'y', acquiredAt: 2, ttlMs: 5_000 },
        ]),
        who('c3'),
        now,
      ),
    ).toThrow(/one lock per id/)
  })

  it('names the member by its token profile, else the agent record, else null; never by its data', () => {
    const policy = createPresencePolicy(() => agents)
    const name = (w: ReturnType<typeof who>) => (policy.accept(data([], 'Evil'), w, 1) as Out).name
    expect(name(who('c1', { profile: { name: 'Ada\u202e Lovelace' } }))).toBe('Ada Lovelace') // no override shown
    expect(name(who('c2', { subject: 'agt_1' }))).toBe('Seeded Agent')
    expect(name(who('c3'))).toBeNull()
    expect(policy.nameOf('app_1', 'c2')).toBe('Seeded Agent')
  })
})

describe('the customer typing throttle', () => {
  afterEach(() => void vi.useRealTimers())

  it('sends the first change at once, then the latest at the interval end if it changed; a stop is never lost', () => {
    vi.useFakeTimers()
    const sent: CustomerTyping[] = []
    const throttle = createTypingThrottle((_app, d) => void sent.push(d), 1000)
    const say = (typing: boolean) => throttle.say('app', { conversationId: 'cnv_1', typing, name: 'A' })
    for (let i = 0; i < 50; i++) say(i % 2 === 0)
    expect(sent.map((d) => d.typing)).toEqual([true])
    vi.advanceTimersByTime(1000)
    expect(sent.map((d) => d.typing)).toEqual([true, false]) // the latest of the 49 held
    say(false)
    vi.advanceTimersByTime(1000)
    expect(sent).toHaveLength(2) // unchanged: nothing more
    vi.advanceTimersByTime(5000)
    say(true)
    expect(sent).toHaveLength(3) // a quiet conversation: at once again
    throttle.say('app', { conversationId: 'cnv_2', typing: true, name: 'A' })
    expect(sent).toHaveLength(4) // each conversation its own
    say(false)
    throttle.reset()
    vi.advanceTimersByTime(5000)
    expect(sent).toHaveLength(4) // reset forgets what was held
  })
})
