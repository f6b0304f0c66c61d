// deadline-test: close() must beat Node's 5 s keep-alive timeout, which no event can stand in for; bound 4 s, against milliseconds.
import { Agent, request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { startEmulator } from '../start.js'

/** Under Node's 5 s `keepAliveTimeout`, which a close() that left idle sockets open would wait out. */
const DEADLINE_MS = 4_000

describe('close() is prompt', () => {
  it('with a keep-alive connection and a delayed request open', async () => {
    const local = await startEmulator()
    const agent = new Agent({ keepAlive: true })
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${local.url}${path}`, { agent }, (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        })
        req.on('error', reject)
        req.end()
      })
    expect(await get('/dev/token')).toBe(200) // leaves an idle keep-alive socket
    local.faults.latency(60_000)
    const pending = get('/maps/v1/resources').catch(() => -1)
    await new Promise((r) => setTimeout(r, 20))
    const t0 = performance.now()
    await local.close()
    expect(performance.now() - t0).toBeLessThan(DEADLINE_MS) // not the 60 s latency, nor the keep-alive's 5 s
    expect(await pending).toBe(-1)
    await local.close() // idempotent
    agent.destroy()
  })
})
