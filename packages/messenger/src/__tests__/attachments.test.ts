// A sent message's files as received data: a URL that is not http(s) is no link; an image too large
// to decode (by the service's width × height) is never fetched; the bytes are fetched only once the
// row is on screen and decoded to the thumbnail's size; a link past its `expiresAt` is read again
// from the service (emulator) before it is followed.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { poll } from '../../../../test/utils/wait.js'
import { createAttachments, MAX_PIXELS, type Attachment } from '../panel/attachments.js'
import type { PanelContext } from '../panel/view.js'
import { DEFAULT_STRINGS } from '../strings.js'
import { customer, launcherOf, mount, shown } from './helpers.js'

const ctx = { strings: () => DEFAULT_STRINGS } as unknown as PanelContext
const later = new Date(Date.now() + 3_600_000).toISOString()
const attachment = (over: Partial<Attachment>): Attachment => ({
  id: 'upl_aaaaaaaaaaaaaaaa',
  name: 'photo.png',
  type: 'image/png',
  size: 10,
  url: 'https://files.example/support/v1/files/upl_aaaaaaaaaaaaaaaa?expires=1&signature=x',
  expiresAt: later,
  width: 800,
  height: 400,
  ...over,
})

/** An IntersectionObserver the test drives: `show()` puts every observed node on screen. */
function fakeObserver() {
  const observers: { cb: IntersectionObserverCallback; nodes: Element[]; on: boolean }[] = []
  class Fake {
    private o: (typeof observers)[number]
    constructor(cb: IntersectionObserverCallback) {
      this.o = { cb, nodes: [], on: true }
      observers.push(this.o)
    }
    observe(node: Element) {
      this.o.nodes.push(node)
    }
    disconnect() {
      this.o.on = false
    }
  }
  vi.stubGlobal('IntersectionObserver', Fake)
  return () => {
    for (const o of observers.filter((x) => x.on))
      o.cb(
        o.nodes.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry),
        o as unknown as IntersectionObserver,
      )
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

describe('attachments', () => {
  it('a URL that is not http(s) shows the name without a link', () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    const files = createAttachments(
      ctx,
      [
        attachment({ url: 'javascript:alert(1)', type: 'application/pdf', name: 'a.pdf', width: null, height: null }),
        attachment({ url: 'data:image/png;base64,AAAA', name: 'b.png' }),
      ],
      null,
    )!
    const links = [...files.node.querySelectorAll('a')]
    expect(links.map((a) => a.getAttribute('href'))).toEqual([null, null])
    expect(links.map((a) => a.textContent)).toEqual(['a.pdf10 B', `b.png ${DEFAULT_STRINGS.opensInNewTab}`])
    expect(fetch).not.toHaveBeenCalled()
  })

  it('an image over the pixel cap is shown by name, never fetched nor decoded', () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    const decode = vi.fn()
    vi.stubGlobal('createImageBitmap', decode)
    const show = fakeObserver()
    const files = createAttachments(ctx, [attachment({ width: 10_000, height: MAX_PIXELS / 10_000 + 1 })], null)!
    show()
    expect(files.node.querySelector('canvas')).toBeNull()
    expect(files.node.querySelector<HTMLElement>('.name')!.hidden).toBe(false)
    expect(fetch).not.toHaveBeenCalled()
    expect(decode).not.toHaveBeenCalled()
  })

  it('fetched only once on screen, and decoded straight to the thumbnail’s size', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(new Blob([new Uint8Array(10)])))
    const decode = vi.fn(async () => ({ width: 400, height: 200, close() {} }))
    vi.stubGlobal('createImageBitmap', decode)
    const show = fakeObserver()
    const files = createAttachments(ctx, [attachment({})], null)!
    expect(fetch).not.toHaveBeenCalled()
    show()
    expect(fetch).toHaveBeenCalledTimes(1)
    await poll(() => decode.mock.calls.length === 1, 'the decode')
    expect(decode.mock.calls[0]).toEqual([
      expect.any(Blob),
      expect.objectContaining({ resizeWidth: 400, resizeHeight: 200 }),
    ])
    files.destroy()
  })

  it('a link clicked after its URL ran out: the message is read again, the fresh URL followed', async () => {
    const { emu, desk } = await customer()
    await desk.conversations.start({ text: 'Here', files: [new File(['hello'], 'a.txt', { type: 'text/plain' })] })
    const el = mount(desk)
    launcherOf(el).click()
    await shown(el)
    const root = el.shadowRoot!
    await poll(() => root.querySelector('.list .item') !== null, 'the conversation')
    root.querySelector<HTMLButtonElement>('.list .item')!.click()
    await poll(() => root.querySelector('.files a') !== null, 'the file link')
    const link = root.querySelector<HTMLAnchorElement>('.files a')!
    const first = link.href
    const clicks: boolean[] = []
    // After the element's own handler: record whether it stopped the click, and stop what follows (no navigation here).
    root.addEventListener('click', (e) => {
      clicks.push(e.defaultPrevented)
      e.preventDefault()
    })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 6 * 60_000) // past the URL's 5 minutes (the emulator reads this clock too)
    const reads = () => emu.log.filter((l) => l.method === 'GET' && l.path.endsWith('/messages')).length
    const before = reads()
    link.click()
    await poll(() => link.href !== first, 'a fresh URL')
    expect(reads()).toBeGreaterThan(before)
    await poll(() => clicks.length === 2, 'the fresh link followed')
    expect(clicks).toEqual([true, false])
    const got = await fetch(link.href)
    expect(got.status).toBe(200)
  })
})
