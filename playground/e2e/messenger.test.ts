// <tandem-messenger> in Chromium on a plain page under a strict Content-Security-Policy
// (messenger/server.ts): the launcher alone until it opens (the panel is a chunk loaded then),
// the keyboard alone to open it, start a conversation and close it, an agent's reply shown and
// announced, the badge's count and name, axe on the open messenger, right-to-left and 360 px,
// no CSP violation, and shutdown() leaving nothing of the customer behind; a help article's
// Markdown shown as elements by a renderer loaded when the article opens (issue 44 row 8).
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeFindings, hasChromium, WAIT } from './harness.js'
import { serveMessengerPage, type MessengerPage } from './messenger/server.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** What the messenger's shadow root shows, read in the page. */
const inMessenger = <T>(page: Page, read: (root: ShadowRoot) => T) =>
  page.evaluate(`(${read.toString()})(document.querySelector('tandem-messenger').shadowRoot)`) as Promise<T>

/**
 * Waits until `check` holds in the messenger's shadow root, asking from Node every 25 ms up to
 * WAIT's deadline: the page's policy refuses eval, which page.waitForFunction polls with.
 */
async function untilInMessenger(page: Page, check: (root: ShadowRoot) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT.timeout
  while (!(await inMessenger(page, check))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${WAIT.timeout} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe.skipIf(!hasChromium)('<tandem-messenger> on a plain page under a strict CSP', () => {
  let site: MessengerPage
  let browser: Browser
  let agentToken: string

  beforeAll(async () => {
    ;[site, browser] = await Promise.all([
      serveMessengerPage(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] }),
    ])
    agentToken = await site.emu.mintToken({ subject: 'agent_e2e', scope: ['support', 'realtime'] })
  })

  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  /** The customer's conversations, as the service has them. */
  const conversations = async () => {
    const token = await site.emu.mintToken({ subject: site.customer, scope: ['support:customer'] })
    const res = await fetch(`${site.emu.url}/support/v1/me/conversations`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { id: string; subject: string }[] }).data
  }

  /** An agent's reply, through the agents' REST API. */
  const reply = async (id: string, text: string) => {
    const res = await fetch(`${site.emu.url}/support/v1/conversations/${id}/reply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    })
    expect(res.status, await res.clone().text()).toBeLessThan(300)
  }

  it('works with the keyboard alone, live, accessibly, within the policy; shutdown() forgets the customer', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
    const page = await context.newPage()
    page.setDefaultTimeout(WAIT.timeout)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(site.url)

    // Closed: the launcher, and not a byte of the panel.
    const launcher = page.locator('tandem-messenger button.launcher')
    await launcher.waitFor()
    expect(await launcher.getAttribute('aria-expanded')).toBe('false')
    expect(site.requested).not.toContain(site.panelChunk)

    // Keyboard: Tab reaches the launcher (focus prefetches the panel), Enter opens the dialog with focus in it.
    await page.keyboard.press('Tab')
    expect(await inMessenger(page, (r) => r.activeElement?.className)).toBe('launcher')
    await page.keyboard.press('Enter')
    await untilInMessenger(page, (r) => r.querySelector('[role=dialog]:not([hidden])') !== null, 'the dialog')
    expect(site.requested).toContain(site.panelChunk)
    expect(await launcher.getAttribute('aria-expanded')).toBe('true')
    const dialog = await inMessenger(page, (r) => {
      const d = r.querySelector('[role=dialog]')!
      return {
        label: d.getAttribute('aria-label'),
        modal: d.getAttribute('aria-modal'),
        focus: r.activeElement?.textContent,
      }
    })
    expect(dialog).toEqual({ label: 'Messages', modal: 'false', focus: 'New conversation' })

    // A new conversation: Enter on the button, then Shift+Enter is a new line and Enter sends.
    await page.keyboard.press('Enter')
    await untilInMessenger(page, (r) => r.activeElement?.tagName === 'TEXTAREA', 'the composer focused')
    await page.keyboard.type('Where is my order?')
    await page.keyboard.press('Shift+Enter')
    await page.keyboard.type('It is #1234.')
    await page.keyboard.press('Enter')
    await untilInMessenger(
      page,
      (r) =>
        [...r.querySelectorAll('.msg.mine')].some((m) => m.textContent?.includes('Where is my order?\nIt is #1234.')),
      "the customer's message in the thread",
    )
    const [conversation] = await conversations()
    expect(conversation?.subject).toContain('Where is my order?')

    // An agent's reply appears and is announced politely.
    await reply(conversation!.id, 'It ships today.')
    await untilInMessenger(
      page,
      (r) => [...r.querySelectorAll('.msg:not(.mine)')].some((m) => m.textContent?.includes('It ships today.')),
      "the agent's reply",
    )
    await untilInMessenger(
      page,
      (r) => r.querySelector('[aria-live=polite]')?.textContent?.includes('It ships today.') === true,
      'the reply announced',
    )

    // axe on the open messenger: no serious or critical finding (axe added as a file: the policy refuses it inline).
    await page.addScriptTag({ url: '/axe.js' })
    expect(await axeFindings(page, 'tandem-messenger')).toEqual([])

    // Escape closes; focus returns to the launcher.
    await page.keyboard.press('Escape')
    await untilInMessenger(page, (r) => r.querySelector('[role=dialog]')?.hasAttribute('hidden') === true, 'closed')
    expect(await inMessenger(page, (r) => r.activeElement?.className)).toBe('launcher')

    // Closed, a reply counts on the badge, with its name, and the page hears of it.
    await page.evaluate(() => {
      const w = window as unknown as { unread: number[] }
      w.unread = []
      document
        .querySelector('tandem-messenger')!
        .addEventListener('tandem-unread', (e) => w.unread.push((e as CustomEvent<number>).detail))
    })
    await reply(conversation!.id, 'Tracking number: 42.')
    await untilInMessenger(page, (r) => r.querySelector('.badge:not([hidden])')?.textContent === '1', 'the badge at 1')
    expect(await inMessenger(page, (r) => r.querySelector('.badge')?.getAttribute('aria-label'))).toBe(
      '1 unread message',
    )
    expect(await page.evaluate(() => (window as unknown as { unread: number[] }).unread)).toContain(1)

    // Opened again on the thread: read, so the badge goes.
    await launcher.click()
    await untilInMessenger(page, (r) => r.querySelector('.badge')?.hasAttribute('hidden') === true, 'the badge gone')

    // Right to left: the launcher moves to the left edge; at 360 px the panel fills the width.
    await page.evaluate(() => document.querySelector('tandem-messenger')!.setAttribute('dir', 'rtl'))
    expect((await launcher.boundingBox())!.x).toBeLessThan(100)
    await page.setViewportSize({ width: 360, height: 740 })
    const width = await inMessenger(page, (r) => r.querySelector('[role=dialog]')!.getBoundingClientRect().width)
    expect(width).toBe(360)
    expect(await axeFindings(page, 'tandem-messenger')).toEqual([])

    // Strings: a partial set over the English ones.
    await page.evaluate(() => {
      const el = document.querySelector('tandem-messenger') as HTMLElement & { strings: object }
      el.strings = { title: 'Nachrichten', unread: (n: number) => `${n} ungelesen` }
    })
    expect(await inMessenger(page, (r) => r.querySelector('[role=dialog]')!.getAttribute('aria-label'))).toBe(
      'Nachrichten',
    )
    expect(await inMessenger(page, (r) => r.querySelector('[class=sr]')?.textContent)).toBe('Messages')

    // No violation of the policy so far; and the recorder does record one (a style attribute).
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([])

    // A draft in storage, then shutdown(): no DOM of the customer's, no draft, no badge, closed.
    await page.locator('tandem-messenger textarea').fill('half a sentence')
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([`tandem-messenger:${conversation!.id}`])
    await page.evaluate(() =>
      (document.querySelector('tandem-messenger') as HTMLElement & { shutdown(): void }).shutdown(),
    )
    const after = await inMessenger(page, (r) => ({
      dialog: r.querySelector('[role=dialog]') !== null,
      text: r.textContent,
      badge: r.querySelector('.badge')?.hasAttribute('hidden'),
      expanded: r.querySelector('.launcher')?.getAttribute('aria-expanded'),
    }))
    expect(after).toEqual({ dialog: false, text: 'Messages', badge: true, expanded: 'false' })
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual([])

    await page.evaluate(() => document.body.setAttribute('style', 'color: red'))
    await untilInMessenger(
      page,
      () => (window as unknown as { __violations: string[] }).__violations.length > 0,
      'the violation recorded',
    )
    expect(errors).toEqual([])
    await context.close()
  })

  it("shows a help article's Markdown as elements, from a renderer loaded when the article opens", async () => {
    // An article whose steps say "Open **Settings** …", as the service has it.
    const token = await site.emu.mintToken({ subject: site.customer, scope: ['support:customer'] })
    const get = async <T>(path: string) => {
      const res = await fetch(`${site.emu.url}/support/v1/${path}`, { headers: { authorization: `Bearer ${token}` } })
      expect(res.status).toBe(200)
      return (await res.json()) as T
    }
    const { data: summaries } = await get<{ data: { id: string }[] }>('docs/articles?limit=100')
    let article: { id: string; title: string; text: string } | undefined
    for (const { id } of summaries) {
      article = await get<{ id: string; title: string; text: string }>(`docs/articles/${id}`)
      if (article.text.includes('**Settings**')) break
    }
    expect(article?.text).toContain('**Settings**')

    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
    const page = await context.newPage()
    page.setDefaultTimeout(WAIT.timeout)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(site.url)
    await page.locator('tandem-messenger button.launcher').click()
    await untilInMessenger(page, (r) => r.querySelector('[role=dialog]:not([hidden])') !== null, 'the dialog')

    // The help tab, a search by the article's title, its result: all from the keyboard's reach.
    await page.locator('tandem-messenger .tabs button', { hasText: 'Help' }).click()
    await page.locator('tandem-messenger input[type=search]').fill(article!.title)
    await page.locator('tandem-messenger input[type=search]').press('Enter')
    const result = page.locator('tandem-messenger .item', { hasText: article!.title }).first()
    await result.waitFor()
    const beforeArticle = [...site.requested]
    await result.focus()
    await page.keyboard.press('Enter')

    await untilInMessenger(page, (r) => r.querySelector('.article strong') !== null, 'the article rendered')
    // Not a byte of the renderer until the article opened.
    expect(site.markdownChunk).toBeDefined()
    expect(beforeArticle).not.toContain(site.markdownChunk)
    expect(site.requested).toContain(site.markdownChunk)
    const shown = await inMessenger(page, (r) => {
      const body = r.querySelector('.article')!
      return {
        strong: [...body.querySelectorAll('strong')].map((e) => e.outerHTML),
        items: body.querySelectorAll('ol > li').length,
        text: body.textContent,
        focus: r.activeElement?.tagName,
      }
    })
    expect(shown.strong).toContain('<strong>Settings</strong>')
    expect(shown.text).not.toContain('**')
    expect(shown.items).toBeGreaterThanOrEqual(3)
    expect(shown.focus).toBe('H3')

    await page.addScriptTag({ url: '/axe.js' })
    expect(await axeFindings(page, 'tandem-messenger')).toEqual([])
    await page.setViewportSize({ width: 360, height: 740 })
    expect(await axeFindings(page, 'tandem-messenger')).toEqual([])
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
