// The presence table's pure helpers: O(1) events keyed by connectionId, in the service's order,
// and "nothing changed" said precisely, so a store can keep its snapshot.
import { describe, expect, it } from 'vitest'
import { applyEvent, sameList, sameMember, tableOf, type MemberTable } from '../../presence/presence-table.js'
import type { Member, PresenceEvent } from '../../types.js'

const m = (id: string, data: unknown = { name: id }): Member => ({ clientId: `u_${id}`, connectionId: id, data })
const ev = (action: PresenceEvent['action'], member: Member): PresenceEvent => ({ channel: 'c', action, member, ts: 0 })
const ids = (t: MemberTable) => [...t.keys()]

describe('presence table', () => {
  it('enter goes last, update keeps its place, leave removes; no-ops say so', () => {
    const t = tableOf([m('a'), m('b')], new Map())
    expect(applyEvent(t, ev('enter', m('c')))).toBe(true)
    expect(applyEvent(t, ev('update', m('a', { name: 'A' })))).toBe(true)
    expect(ids(t)).toEqual(['a', 'b', 'c'])
    expect(applyEvent(t, ev('update', m('a', { name: 'A' })))).toBe(false) // same data, a new object
    expect(applyEvent(t, ev('enter', m('b')))).toBe(false)
    expect(applyEvent(t, ev('leave', m('zz')))).toBe(false)
    expect(applyEvent(t, ev('leave', m('b')))).toBe(true)
    expect(applyEvent(t, ev('enter', m('b')))).toBe(true)
    expect(ids(t)).toEqual(['a', 'c', 'b'])
  })

  it('one clientId on two connections is two members', () => {
    const t = tableOf([], new Map())
    applyEvent(t, ev('enter', { clientId: 'ada', connectionId: 'tab1', data: null }))
    applyEvent(t, ev('enter', { clientId: 'ada', connectionId: 'tab2', data: null }))
    expect(t.size).toBe(2)
  })

  it('a table from an answer keeps the objects of members that did not change', () => {
    const a = m('a')
    const b = m('b')
    const previous = tableOf([a, b], new Map())
    const next = tableOf([m('a'), m('b', { name: 'B' })], previous)
    expect(next.get('a')).toBe(a)
    expect(next.get('b')).not.toBe(b)
    expect(sameList(tableOf([m('a'), m('b')], previous), [a, b])).toBe(true)
    expect(sameList(next, [a, b])).toBe(false)
    expect(sameList(previous, [b, a])).toBe(false)
    expect(sameList(previous, [a])).toBe(false)
  })

  it('same member: same client and data by value', () => {
    expect(sameMember(m('a', { x: [1, 2] }), m('a', { x: [1, 2] }))).toBe(true)
    expect(sameMember(m('a', { x: [1, 2] }), m('a', { x: [2, 1] }))).toBe(false)
    expect(sameMember(m('a'), { ...m('a'), clientId: 'other' })).toBe(false)
    expect(sameMember(m('a', null), m('a', null))).toBe(true)
  })
})
