import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { Emulator } from '../types.js'
import { authed, call, useEmulator } from './helpers.js'

const emu = useEmulator({ maxBodyBytes: 1024 })

/** Write raw bytes, collect whatever comes back until the server hangs up (or 2 s). */
function raw(e: Emulator, payload: string, endAfterWrite = false): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(e.port, '127.0.0.1')
    let text = ''
    const timer = setTimeout(() => socket.destroy(), 2000)
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => (text += d))
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(text)
    })
    socket.on('error', () => {})
    socket.write(payload)
    if (endAfterWrite) socket.end()
  })
}

describe('robustness', () => {
  it('malformed HTTP gets a JSON 400 and the server keeps serving', async () => {
    const text = await raw(emu(), 'THIS IS NOT HTTP\r\n\r\n')
    expect(text).toMatch(/^HTTP\/1\.1 400/)
    expect(text).toContain('"code":"bad_request"')
    expect((await authed(emu(), '/maps/v1/resources?limit=1')).status).toBe(200)
  })

  it('oversized headers get 431', async () => {
    const text = await raw(emu(), `GET /maps/v1/resources HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(text).toMatch(/^HTTP\/1\.1 431/)
  })

  it('a client that hangs up mid-body or mid-delay crashes nothing', async () => {
    const token = await emu().mintToken()
    // Declares 500 bytes, sends 10, then leaves.
    await raw(
      emu(),
      `POST /support/v1/resources HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"name":"x`,
      true,
    )
    emu().faults.latency(50, { count: 1 })
    const controller = new AbortController()
    const aborted = authed(emu(), '/maps/v1/resources', { signal: controller.signal }).catch((e: unknown) => e)
    setTimeout(() => controller.abort(), 10)
    expect(await aborted).toBeInstanceOf(Error)
    // Let the delayed handler wake up and find its client gone.
    await new Promise((r) => setTimeout(r, 60))
    expect((await authed(emu(), '/maps/v1/resources?limit=1')).status).toBe(200)
  })

  it('HEAD works like GET without a body; odd paths are 404 JSON', async () => {
    const head = await authed(emu(), '/maps/v1/resources?limit=1', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    for (const path of [
      '/maps',
      '/maps/',
      '/maps/v1/resources/',
      '/maps//v1/resources',
      '/maps/v1/resources/a/b',
      '/%ZZ',
    ]) {
      const res = await authed(emu(), path)
      expect(res.status).toBe(404)
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found')
    }
  })

  it('survives a burst of concurrent mixed requests', async () => {
    emu().reset()
    const token = await emu().mintToken()
    const jobs = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0
        ? call(emu(), '/realtime/v1/resources', {
            token,
            method: 'POST',
            json: { name: `chat:${i}` },
            headers: { 'Idempotency-Key': `burst-${i % 6}` },
          })
        : i % 3 === 1
          ? call(emu(), '/realtime/v1/resources?limit=5', { token })
          : call(emu(), '/realtime/v1/resources', {
              token,
              method: 'POST',
              body: '{"broken',
              headers: { 'Content-Type': 'application/json' },
            }),
    )
    const statuses = (await Promise.all(jobs)).map((r) => r.status)
    expect(new Set(statuses)).toEqual(new Set([201, 200, 400, 422]))
    // 20 keyed writes share 2 keys (i % 6 is 0 or 3) with differing bodies: one write per key.
    expect(emu().stats.writesApplied).toBe(2)
  })
})
