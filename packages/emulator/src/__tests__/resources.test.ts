import { describe, expect, it } from 'vitest'
import type { Resource } from '../types.js'
import { authed, expectError, useEmulator } from './helpers.js'

const emu = useEmulator()

interface Page {
  data: Resource[]
  nextCursor: string | null
}

describe('resources', () => {
  it('lists 20 by default with a cursor, in a stable order', async () => {
    const res = await authed(emu(), '/maps/v1/resources')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const page = (await res.json()) as Page
    expect(page.data).toHaveLength(20)
    expect(page.data[0]).toMatchObject({ id: 'res_map_1', service: 'maps' })
    expect(Object.keys(page.data[0] ?? {}).sort()).toEqual([
      'attributes',
      'createdAt',
      'id',
      'name',
      'service',
      'updatedAt',
    ])
    expect(typeof page.nextCursor).toBe('string')
    const again = (await (await authed(emu(), '/maps/v1/resources')).json()) as Page
    expect(again).toEqual(page)
  })

  it('pagination walks every seeded item exactly once', async () => {
    for (const service of ['maps', 'support', 'realtime']) {
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
        const page = (await (await authed(emu(), `/${service}/v1/resources?limit=100${q}`)).json()) as Page
        seen.push(...page.data.map((r) => r.id))
        cursor = page.nextCursor
      } while (cursor)
      expect(seen).toHaveLength(250)
      expect(new Set(seen).size).toBe(250)
    }
  })

  it('validates limit', async () => {
    for (const bad of ['0', '101', '-1', '1.5', 'abc', '', '1e2']) {
      const res = await authed(emu(), `/support/v1/resources?limit=${bad}`)
      const body = await expectError(res, 400, 'invalid_parameter')
      expect(body.error.details?.[0]).toMatchObject({ field: 'limit' })
      expect(typeof body.error.details?.[0]?.message).toBe('string')
    }
    const ok = (await (await authed(emu(), '/support/v1/resources?limit=100')).json()) as Page
    expect(ok.data).toHaveLength(100)
  })

  it('rejects a bad or foreign cursor', async () => {
    await expectError(await authed(emu(), '/maps/v1/resources?cursor=%%%'), 400, 'invalid_cursor')
    await expectError(await authed(emu(), '/maps/v1/resources?cursor=bm90LWpzb24'), 400, 'invalid_cursor')
    const page = (await (await authed(emu(), '/support/v1/resources')).json()) as Page
    await expectError(await authed(emu(), `/maps/v1/resources?cursor=${page.nextCursor ?? ''}`), 400, 'invalid_cursor')
  })

  it('refuses a query parameter given twice or empty, as the contract states (form, explode, allowEmptyValue: false)', async () => {
    const refused = async (query: string, field: string, message: string) => {
      const body = await expectError(await authed(emu(), `/support/v1/${query}`), 400, 'invalid_parameter')
      expect(body.error.details, query).toEqual([{ field, message }])
      expect(body.error.message).toBe(`Invalid ${field}: ${message}.`)
    }
    // Before: the first value won (200), and `?cursor=` was read as no cursor while `?limit=` was refused.
    await refused('conversations?status=active&status=closed', 'status', 'is given more than once')
    await refused('conversations?status=active&status=active', 'status', 'is given more than once')
    await refused('resources?limit=2&limit=3', 'limit', 'is given more than once')
    for (const name of ['cursor', 'limit']) await refused(`resources?${name}=`, name, 'must not be empty')
    for (const name of ['status', 'mailboxId', 'tag', 'query', 'modifiedSince', 'cursor'])
      await refused(`conversations?limit=2&${name}=`, name, 'must not be empty')
    // Once each, and set, they are taken as before.
    expect((await authed(emu(), '/support/v1/conversations?status=active&limit=2')).status).toBe(200)
  })

  it('gets one resource, 404 for unknown ids', async () => {
    const res = await authed(emu(), '/realtime/v1/resources/res_rt_7')
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: 'res_rt_7', service: 'realtime' })
    await expectError(await authed(emu(), '/realtime/v1/resources/res_rt_9999'), 404, 'not_found')
    await expectError(await authed(emu(), '/realtime/v1/resources/%E0%A4%A'), 404, 'not_found')
  })

  it('creates, updates and deletes', async () => {
    // A field the contract does not name is refused, not dropped.
    const unknown = await authed(emu(), '/support/v1/resources', { method: 'POST', json: { name: 'x', id: 'mine' } })
    expect((await expectError(unknown, 400, 'invalid_parameter')).error.details?.[0]).toMatchObject({ field: 'id' })
    const created = await authed(emu(), '/support/v1/resources', {
      method: 'POST',
      json: { name: 'Printer on fire', attributes: { priority: 'urgent', tags: ['a'] } },
    })
    expect(created.status).toBe(201)
    const r = (await created.json()) as Resource
    expect(r).toMatchObject({
      name: 'Printer on fire',
      service: 'support',
      attributes: { priority: 'urgent', tags: ['a'] },
    })
    expect(r.id).toMatch(/^res_sup_\d+$/)

    const patched = await authed(emu(), `/support/v1/resources/${r.id}`, {
      method: 'PATCH',
      json: { attributes: { priority: null, status: 'open' } },
    })
    expect(patched.status).toBe(200)
    expect(await patched.json()).toMatchObject({
      id: r.id,
      name: 'Printer on fire',
      attributes: { status: 'open', tags: ['a'] },
    })
    const renamed = (await (
      await authed(emu(), `/support/v1/resources/${r.id}`, { method: 'PATCH', json: { name: 'Printer fixed' } })
    ).json()) as Resource
    expect(renamed.name).toBe('Printer fixed')
    expect(renamed.attributes).toEqual({ status: 'open', tags: ['a'] })

    const del = await authed(emu(), `/support/v1/resources/${r.id}`, { method: 'DELETE' })
    expect(del.status).toBe(204)
    expect(await del.text()).toBe('')
    await expectError(await authed(emu(), `/support/v1/resources/${r.id}`), 404, 'not_found')
    await expectError(await authed(emu(), `/support/v1/resources/${r.id}`, { method: 'DELETE' }), 404, 'not_found')
    await expectError(
      await authed(emu(), `/support/v1/resources/${r.id}`, { method: 'PATCH', json: {} }),
      404,
      'not_found',
    )
  })

  it('validates writes', async () => {
    const post = (json: unknown) => authed(emu(), '/maps/v1/resources', { method: 'POST', json })
    for (const bad of [{}, { name: '' }, { name: '   ' }, { name: 5 }, { name: 'x'.repeat(201) }]) {
      const body = await expectError(await post(bad), 400, 'invalid_parameter')
      expect(body.error.details?.[0]).toMatchObject({ field: 'name' })
    }
    const attrs = await expectError(await post({ name: 'ok', attributes: [1] }), 400, 'invalid_parameter')
    expect(attrs.error.details?.[0]).toMatchObject({ field: 'attributes' })
    expect((await post({ name: 'x'.repeat(200) })).status).toBe(201)
    await expectError(await authed(emu(), '/maps/v1/resources', { method: 'POST' }), 400, 'invalid_body')
  })

  it('404 for unknown paths, 405 for wrong methods', async () => {
    await expectError(await authed(emu(), '/maps/v1/nope'), 404, 'not_found')
    await expectError(await authed(emu(), '/maps/v2/resources'), 404, 'not_found')
    await expectError(await authed(emu(), '/elsewhere'), 404, 'not_found')
    const res = await authed(emu(), '/maps/v1/resources', { method: 'PUT' })
    await expectError(res, 405, 'method_not_allowed')
    expect(res.headers.get('allow')).toContain('POST')
  })

  it('seeds deterministically with realistic names', async () => {
    const page = (await (await authed(emu(), '/maps/v1/resources?limit=3')).json()) as Page
    for (const r of page.data) expect(r.name).toMatch(/, /)
    const support = (await (await authed(emu(), '/support/v1/resources?limit=3')).json()) as Page
    for (const r of support.data) expect(r.name).toMatch(/#\d{4}$/)
  })
})
