import { describe, expect, it } from 'vitest'
import { isValidationError, type Resource } from '../index.js'
import { collection, createClient as createModular } from '../entries/client.js'
import { setup } from './helpers.js'

describe('collections', () => {
  it('awaiting list() gives one page; for await walks every item exactly once', async () => {
    const { client } = await setup()
    const page = await client.support.resources.list({ limit: 7 })
    expect(page.data).toHaveLength(7)
    expect(typeof page.nextCursor).toBe('string')

    const ids: string[] = []
    for await (const item of client.support.resources.list({ limit: 100 })) ids.push(item.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.length).toBeGreaterThan(200)

    let pages = 0
    for await (const p of client.support.resources.list({ limit: 100 }).pages()) {
      pages++
      expect(p.data.length).toBeGreaterThan(0)
    }
    expect(pages).toBe(Math.ceil(ids.length / 100))
  })

  it("a list capped at its first page fails with too_many_pages and that page's request id", async () => {
    const { client } = await setup()
    const ids: (string | undefined)[] = []
    client.on('request', (e) => void ids.push(e.requestId))
    const pages = client.support.resources.list({ limit: 1 }).pages({ maxPages: 1 })
    let read = 0
    const failed = await (async () => {
      for await (const page of pages) read += page.data.length
    })().catch((error: unknown) => error)
    expect(read).toBe(1)
    expect(ids).toHaveLength(1)
    expect(failed).toMatchObject({ name: 'ApiError', code: 'too_many_pages', requestId: ids[0] })
    expect(ids[0]).toEqual(expect.any(String))
  })

  it('creates, reads, updates and removes', async () => {
    const { client } = await setup()
    const created = await client.maps.resources.create({ name: 'Lisbon office' })
    expect(created).toMatchObject({ name: 'Lisbon office', id: expect.any(String) })
    expect(await client.maps.resources.get(created.id)).toMatchObject({ id: created.id })
    const updated = await client.maps.resources.update(created.id, { name: 'Porto office' })
    expect(updated.name).toBe('Porto office')
    await client.maps.resources.remove(created.id)
    await expect(client.maps.resources.get(created.id)).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
      code: 'not_found',
    })
  })

  it('list() is a real Promise: .catch and .finally work', async () => {
    const { client } = await setup()
    const list = client.support.resources.list({ limit: 2 })
    expect(list).toBeInstanceOf(Promise)
    let finished = false
    const page = await list
      .catch(() => null)
      .finally(() => {
        finished = true
      })
    expect(page?.data).toHaveLength(2)
    expect(finished).toBe(true)
  })

  it('a generic collection works for any service', async () => {
    const { client } = await setup()
    const col = client.collection('realtime', 'resources')
    expect((await col.list({ limit: 2 })).data).toHaveLength(2)
  })

  it('collection(client, service, name) serves the modular client, which has no collection of its own', async () => {
    const { emu } = await setup()
    const client = createModular({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
    expect('collection' in client).toBe(false) // a method would keep the collection in every bundle
    const page = await collection(client, 'support', 'conversations').list({ limit: 3, status: 'active' })
    expect(page.data).toHaveLength(3)
    expect(page.data.every((c) => c.status === 'active')).toBe(true)
    expect(() => collection(undefined as never, 'maps', 'resources')).toThrow(
      expect.objectContaining({ name: 'ValidationError', field: 'client' }),
    )
  })

  it.each([
    ['limit 0', (c: ReturnType<typeof pick>) => c.list({ limit: 0 }), 'limit'],
    ['limit 101', (c: ReturnType<typeof pick>) => c.list({ limit: 101 }), 'limit'],
    ['fractional limit', (c: ReturnType<typeof pick>) => c.list({ limit: 1.5 }), 'limit'],
    ['empty id', (c: ReturnType<typeof pick>) => c.get(''), 'id'],
    ['non-string id', (c: ReturnType<typeof pick>) => c.get(42 as unknown as string), 'id'],
    ['array body', (c: ReturnType<typeof pick>) => c.create([] as unknown as Resource), 'body'],
    ['null patch', (c: ReturnType<typeof pick>) => c.update('res_1', null as unknown as Resource), 'body'],
    ['"." as id', (c: ReturnType<typeof pick>) => c.remove('.'), 'id'],
    ['".." as id', (c: ReturnType<typeof pick>) => c.remove('..'), 'id'],
    [
      'a BigInt in the body',
      (c: ReturnType<typeof pick>) => c.create({ name: 'x', n: 1n } as unknown as Resource),
      'body',
    ],
    [
      'an empty idempotency key',
      (c: ReturnType<typeof pick>) => c.create({ name: 'x' }, { idempotencyKey: '' }),
      'idempotencyKey',
    ],
  ])(
    'refuses %s locally with a ValidationError naming the field (a rejection, not a throw)',
    async (_n, call, field) => {
      const { emu, client } = await setup()
      const before = emu.stats.requests
      const promise = call(pick(client)) // must not throw synchronously
      const error = await Promise.resolve(promise).then(
        () => null,
        (e: unknown) => e,
      )
      expect(isValidationError(error)).toBe(true)
      expect(error).toMatchObject({ field })
      expect(emu.stats.requests).toBe(before)
    },
  )

  it('a server-side validation error is an ApiError with details', async () => {
    const { client } = await setup()
    await expect(client.support.resources.create({ name: '' })).rejects.toMatchObject({ name: 'ApiError', status: 400 })
  })
})

function pick(client: Awaited<ReturnType<typeof setup>>['client']) {
  return client.support.resources
}
