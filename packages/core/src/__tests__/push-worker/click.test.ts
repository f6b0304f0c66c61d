// handlePush's `notificationclick`: close, focus a tab already at the payload's URL, else open it;
// only on the worker's own origin (a hostile payload's URL elsewhere opens the scope).
import { describe, expect, it } from 'vitest'
import { handlePush } from '../../entries/push-worker.js'
import { clickTarget } from '../../push-worker/click.js'
import { createStandIn, ORIGIN, payload } from './stand-in.js'

/** A worker with one notification shown for `url`. */
async function shownFor(url: string | null, scope?: string) {
  const w = createStandIn(scope ? { scope } : {})
  handlePush(w.self)
  await w.push(JSON.stringify(payload({ url })))
  const notification = w.shown[0]!
  return { w, notification }
}

describe('handlePush: notificationclick', () => {
  it('closes the notification and focuses the tab already at its URL (the hash aside), opening nothing', async () => {
    const { w, notification } = await shownFor(`${ORIGIN}/inbox?c=cnv_1#reply`)
    const elsewhere = w.tab(`${ORIGIN}/inbox?c=cnv_2`)
    const there = w.tab(`${ORIGIN}/inbox?c=cnv_1`)
    await w.click(notification)
    expect(notification.closed).toBe(true)
    expect(w.shown).toEqual([])
    expect([elsewhere.focused, there.focused]).toEqual([0, 1])
    expect(w.opened).toEqual([])
  })

  it('opens the URL when no tab is at it', async () => {
    const { w, notification } = await shownFor(`${ORIGIN}/inbox?c=cnv_1`)
    const other = w.tab(`${ORIGIN}/inbox`)
    await w.click(notification)
    expect(w.opened).toEqual([`${ORIGIN}/inbox?c=cnv_1`])
    expect(other.focused).toBe(0)
  })

  it('a payload without a URL opens (or focuses) the registration scope', async () => {
    const { w, notification } = await shownFor(null, `${ORIGIN}/app/`)
    await w.click(notification)
    expect(w.opened).toEqual([`${ORIGIN}/app/`])
    const again = await shownFor(null, `${ORIGIN}/app/`)
    const tab = again.w.tab(`${ORIGIN}/app/`)
    await again.w.click(again.notification)
    expect([tab.focused, again.w.opened]).toEqual([1, []])
  })

  it('never opens or focuses another origin: a hostile URL opens the scope instead', async () => {
    const { w, notification } = await shownFor('https://evil.test/inbox?c=cnv_1')
    const hostile = w.tab('https://evil.test/inbox?c=cnv_1')
    await w.click(notification)
    expect(hostile.focused).toBe(0)
    expect(w.opened).toEqual([`${ORIGIN}/`])
    for (const url of [
      'javascript:alert(1)',
      'http://app.test/',
      '//evil.test/x',
      'https://app.test:444/',
      'not a url',
    ])
      expect(clickTarget(`${ORIGIN}/`, url).origin, url).toBe(ORIGIN)
    expect(clickTarget(`${ORIGIN}/`, '/inbox?c=1').href).toBe(`${ORIGIN}/inbox?c=1`)
  })

  it("leaves another notification of the app's alone (its own handler's)", async () => {
    const w = createStandIn()
    handlePush(w.self)
    await w.self.registration.showNotification('Update ready', { tag: 'app', data: { version: 2 } })
    const app = w.shown[0]!
    await w.click(app)
    expect(app.closed).toBe(false)
    expect(w.opened).toEqual([])
  })
})
