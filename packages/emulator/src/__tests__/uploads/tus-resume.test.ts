// A file of a few MB through tus-js-client and a proxy that cuts the connection at 30 %, 60 % and
// 90 % of it (a train through tunnels): each time the client asks the service's offset (HEAD)
// and goes on from there; the bytes the service stores hash equal to the file's, and it read
// about each byte once (resumed, not restarted: one creation, and under 3 chunks re-read).
import { UPLOADS } from '@tandem/contract'
import { afterAll, describe, expect, it } from 'vitest'
import { startCuttingProxy, type CuttingProxy } from '../../../../../test/utils/cutting-proxy.js'
import { slack } from '../../../../../test/utils/wait.js'
import { useEmulator } from '../helpers.js'
import { customerToken, png, sha256, tusUpload, UPLOADS_URL } from './helpers.js'

const emu = useEmulator({ plans: { support: false }, customerPlan: false })
let proxy: CuttingProxy | undefined
afterAll(() => proxy?.close())

describe('a tus upload through a connection cut at 30, 60 and 90 %', () => {
  it(
    'resumes from the offset the service holds each time; what is stored hashes equal to the file',
    async () => {
      const file = png(1200, 800, { noise: true }) // ~2.9 MB of noise: no chunk compresses away
      const size = file.length
      expect(size).toBeGreaterThan(4 * UPLOADS.chunkBytes)
      proxy = await startCuttingProxy(
        emu().url,
        [0.3, 0.6, 0.9].map((p) => Math.floor(size * p)),
      )
      const token = await customerToken(emu(), 'cus_train')
      const id = await tusUpload(file, {
        base: proxy.url,
        token,
        type: 'image/png',
        name: 'screenshot.png',
        retryDelays: [0, 50, 100, 200, 400, 800, 1600],
      })
      expect(proxy.cuts).toHaveLength(3)
      const stored = await emu().uploads.bytes(id)
      expect(stored?.length).toBe(size)
      expect(sha256(stored!)).toBe(sha256(file))
      expect(emu().uploads.get(id)).toMatchObject({
        owner: 'cus_train',
        type: 'image/png',
        size,
        offset: size,
        complete: true,
        attachedTo: null,
      })
      // Resumed, not restarted: one upload was ever created (a restart would create another)...
      const creations = emu().log.filter((l) => l.method === 'POST' && l.path === UPLOADS_URL)
      expect(creations.map((l) => l.status)).toEqual([201])
      // ...and a cut loses only what was in flight, never what the service kept (this one upload
      // is every byte the service read).
      const received = emu().uploads.received(id)
      console.info(
        `[uploads] cut at 30/60/90 %: ${received} bytes read for a ${size}-byte file (${received - size} sent again), sha256 equal`,
      )
      expect(received).toBeGreaterThanOrEqual(size)
      expect(received).toBeLessThan(size + 3 * UPLOADS.chunkBytes)
    },
    slack(30_000),
  )
})
