// The conformance check itself can fail: off-contract answers and frames are reported.
import { describe, expect, it } from 'vitest'
import { checkFrame, checkResponse } from './conformance.js'
import { authed, useEmulator } from './helpers.js'

const emu = useEmulator()

describe('the contract check', () => {
  it('passes a real answer and refuses the same answer bent out of shape', async () => {
    const res = await authed(emu(), '/support/v1/conversations?limit=1') // checked by the helper too
    const page = (await res.json()) as { data: Record<string, unknown>[] }
    const id = res.headers.get('x-request-id')
    expect(checkResponse('GET', '/support/v1/conversations', 200, page, id)).toEqual([])

    const conversation = page.data[0]!
    const extra = { ...page, data: [{ ...conversation, name: 'not in the contract' }] }
    expect(checkResponse('GET', '/support/v1/conversations', 200, extra, id).join()).toMatch(/additional properties/)
    const { subject: _, ...missing } = conversation
    expect(checkResponse('GET', '/support/v1/conversations', 200, { ...page, data: [missing] }, id).join()).toMatch(
      /subject/,
    )
    const badStatus = { ...page, data: [{ ...conversation, status: 'bogus' }] }
    expect(checkResponse('GET', '/support/v1/conversations', 200, badStatus, id).join()).toMatch(/allowed values/)
    expect(checkResponse('GET', '/support/v1/conversations', 201, page, id).join()).toMatch(/not in the contract/)
    expect(checkResponse('GET', '/support/v1/conversations', 200, page, null).join()).toMatch(/X-Request-Id/)
    expect(checkResponse('GET', '/maps/v1/resources', 404, { message: 'plain' }, id).join()).toMatch(/error/)
  })

  it('refuses frames the AsyncAPI does not describe', () => {
    expect(checkFrame({ type: 'heartbeat', ts: 1 })).toEqual([])
    expect(checkFrame({ type: 'heartbeat', ts: 1, extra: true })).not.toEqual([])
    expect(checkFrame({ type: 'ack', id: 1, offset: 0, epoch: 'e', messageId: 'm' })).not.toEqual([]) // offsets start at 1
    expect(checkFrame({ type: 'gossip' })).not.toEqual([])
    // A resource presence member whose data breaks ResourcePresenceData.
    const member = (data: unknown) => ({
      type: 'presence.event',
      channel: 'support:conversations:presence',
      action: 'enter',
      member: { clientId: 'a', connectionId: 'c', data },
      ts: 1,
    })
    expect(checkFrame(member({ name: null, viewing: [], typing: [], locks: [] }))).toEqual([])
    expect(checkFrame(member('a string')).join()).toMatch(/member of support:conversations:presence/)
  })
})
