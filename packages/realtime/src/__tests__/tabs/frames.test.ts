import { afterEach, describe, expect, it } from 'vitest'
import { waitUntil } from '../../../../../test/utils/wait.js'
import { watchFrames, type FrameEvent } from '../../debug.js'
import { shareAcrossTabs, type TabShare } from '../../tabs.js'
import { client, untilSubscribed, useEmulator } from '../helpers.js'
import { createBrowser } from './tab-env.js'

// With one connection for all tabs, what watchFrames tells of a follower is what its client writes
// to and reads from its link to the leader's hub: a follower's devtools show its own frames.

const emu = useEmulator()
const shares: TabShare[] = []
afterEach(() => {
  for (const s of shares.splice(0)) s.stop()
})

describe('watchFrames in a tab that shares the connection', () => {
  it('a follower tells its own frames, tokens redacted; its share names the key', async () => {
    const browser = createBrowser()
    const tokens: string[] = []
    const fetchToken = async () => {
      tokens.push(await emu().mintToken({ subject: 'user_7' }))
      return { token: tokens.at(-1)!, expiresIn: 600 }
    }
    const open = () => {
      const tab = browser.tab()
      const share = shareAcrossTabs({ key: 'user_7', locks: tab.locks, BroadcastChannel: tab.BroadcastChannel })
      shares.push(share)
      const rt = client(emu(), { subject: 'user_7', fetchToken }, { tabs: share })
      const seen: FrameEvent[] = []
      watchFrames(rt, (e) => seen.push(e))
      rt.channel('tabs:frames').subscribe(() => {})
      return { share, rt, seen }
    }
    const tabs = [open(), open()]
    await Promise.all(tabs.map((t) => untilSubscribed(t.rt.channel('tabs:frames'))))
    const follower = tabs.find((t) => t.share.role === 'follower')!
    const leader = tabs.find((t) => t.share.role === 'leader')!
    expect(follower.share.key).toBe('user_7')

    const ack = await follower.rt.channel('tabs:frames').publish('hi', { n: 1 })
    await waitUntil(() => leader.seen.some((e) => e.type === 'message'), { what: 'the message at the leader' })
    const publishes = (t: (typeof tabs)[number]) => t.seen.filter((e) => e.type === 'publish')
    expect(publishes(follower)).toMatchObject([{ direction: 'out', channel: 'tabs:frames', frame: { data: { n: 1 } } }])
    expect(publishes(leader)).toEqual([]) // the leader's client did not send it: its hub did
    expect(follower.seen.find((e) => e.type === 'ack')).toMatchObject({
      direction: 'in',
      frame: { offset: ack.offset },
    })
    expect(follower.seen.find((e) => e.type === 'connect')!.frame.token).toBe('[redacted]')
    expect(tokens.length).toBeGreaterThan(0)
    const text = JSON.stringify(tabs.map((t) => t.seen))
    for (const token of tokens) expect(text).not.toContain(token)
  })
})
