import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { DEV_APP } from '../defaults.js'
import type { Resource } from '../types.js'
import { authed, call, expectError, useEmulator } from './helpers.js'

const emu = useEmulator({ maxBodyBytes: 64 * 1024, plans: { support: false } })

describe('idempotency keys', () => {
  it('replays the first response once applied, with Idempotent-Replayed', async () => {
    const token = await emu().mintToken()
    const before = emu().stats.writesApplied
    const send = () =>
      call(emu(), '/support/v1/resources', {
        token,
        method: 'POST',
        json: { name: 'once' },
        headers: { 'Idempotency-Key': 'k-1' },
      })
    const first = await send()
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const created = (await first.json()) as Resource
    const second = await send()
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
    expect(await second.json()).toEqual(created)
    expect(emu().stats.writesApplied).toBe(before + 1)
  })

  it('same key, different request → 422 idempotency_key_reused', async () => {
    const token = await emu().mintToken()
    const headers = { 'Idempotency-Key': 'k-2' }
    expect(
      (await call(emu(), '/support/v1/resources', { token, method: 'POST', json: { name: 'a' }, headers })).status,
    ).toBe(201)
    await expectError(
      await call(emu(), '/support/v1/resources', { token, method: 'POST', json: { name: 'b' }, headers }),
      422,
      'idempotency_key_reused',
    )
    await expectError(
      await call(emu(), '/support/v1/resources/res_sup_1', { token, method: 'PATCH', json: { name: 'a' }, headers }),
      422,
      'idempotency_key_reused',
    )
  })

  it('keys apply to PATCH and DELETE too', async () => {
    const token = await emu().mintToken()
    const headers = { 'Idempotency-Key': 'del-1' }
    expect((await call(emu(), '/support/v1/resources/res_sup_3', { token, method: 'DELETE', headers })).status).toBe(
      204,
    )
    const again = await call(emu(), '/support/v1/resources/res_sup_3', { token, method: 'DELETE', headers })
    expect(again.status).toBe(204)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    // Without the key, the resource is simply gone.
    await expectError(
      await call(emu(), '/support/v1/resources/res_sup_3', { token, method: 'DELETE' }),
      404,
      'not_found',
    )
  })

  it('keys are per principal: a raw key and a token of one app never share one', async () => {
    const [key] = DEV_APP.keys
    const server = `${key?.id}:${key?.secret}` // the app's raw key, as a server sends it
    const headers = { 'Idempotency-Key': 'k-principal' }
    const post = (token: string, name: string) =>
      call(emu(), '/support/v1/resources', { token, method: 'POST', json: { name }, headers })
    expect((await post(server, 'by the server')).status).toBe(201)
    const user = await post(await emu().mintToken(), 'by a user')
    expect(user.status).toBe(201)
    expect(user.headers.get('idempotent-replayed')).toBeNull()
    expect(await user.json()).toMatchObject({ name: 'by a user' })
    const again = await post(server, 'by the server')
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toMatchObject({ name: 'by the server' })
  })

  it('rejects a malformed key', async () => {
    const res = await authed(emu(), '/support/v1/resources', {
      method: 'POST',
      json: { name: 'x' },
      headers: { 'Idempotency-Key': 'x'.repeat(300) },
    })
    expect((await expectError(res, 400, 'invalid_parameter')).error.details?.[0]).toMatchObject({
      field: 'Idempotency-Key',
    })
  })
})

describe('request bodies', () => {
  it('413 payload_too_large past maxBodyBytes (declared length)', async () => {
    const res = await authed(emu(), '/support/v1/resources', {
      method: 'POST',
      json: { name: 'x', pad: 'y'.repeat(70 * 1024) },
    })
    await expectError(res, 413, 'payload_too_large')
  })

  it('413 for a chunked upload that grows past the limit, without reading it all', async () => {
    const token = await emu().mintToken()
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${emu().url}/support/v1/resources`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Transfer-Encoding': 'chunked',
        },
      })
      let answered = false
      req.on('response', (res) => {
        answered = true
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (text += c))
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: text })
          req.destroy()
        })
      })
      req.on('error', reject)
      const chunk = Buffer.alloc(16 * 1024, 'a')
      // Keep writing until the server answers; it must answer long before 10 MiB.
      let sent = 0
      const pump = () => {
        while (!answered && sent < 10 * 1024 * 1024 && req.write(chunk)) sent += chunk.length
        if (answered) return
        if (sent < 10 * 1024 * 1024) req.once('drain', pump)
        else req.end()
      }
      pump()
    })
    expect(status).toBe(413)
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'payload_too_large' } })
    expect(emu().log.at(-1)?.status).toBe(413)
  })

  it('400 invalid_json, 400 invalid_body, 415 unsupported_media_type', async () => {
    const post = (body: string, type = 'application/json') =>
      authed(emu(), '/support/v1/resources', { method: 'POST', body, headers: { 'Content-Type': type } })
    await expectError(await post('{"name": "x"'), 400, 'invalid_json')
    await expectError(await post('[1,2]'), 400, 'invalid_body')
    await expectError(await post('"text"'), 400, 'invalid_body')
    await expectError(await post('null'), 400, 'invalid_body')
    await expectError(await post('name=x', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type')
    await expectError(await post('{"name":"x"}', 'text/plain'), 415, 'unsupported_media_type')
    expect((await post('{"name":"x"}', 'application/merge-patch+json; charset=utf-8')).status).toBe(201)
  })

  it('keeps serving after every bad input', async () => {
    expect((await authed(emu(), '/support/v1/resources?limit=1')).status).toBe(200)
  })
})
