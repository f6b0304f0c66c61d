// The example on `next start` in Chromium (global-setup.ts builds and serves it): the inbox is in
// the server's HTML, hydrates without a warning and without fetching the list again, turns live,
// and keeps its cache across client navigation. Requests are counted at the browser.
import { existsSync } from 'node:fs'
import { createClient } from '@tandem/core'
import { chromium, type Browser, type Page, type Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { slack } from '../../../test/utils/wait.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium && process.env.CI) throw new Error(`Chromium not found at ${CHROMIUM}: the browser test cannot run.`)
const WAIT = { timeout: Math.max(20_000, slack(10_000)) }

const nextUrl = inject('nextUrl')
const emulatorUrl = inject('emulatorUrl')
/** The REST API as someone else: a token from the emulator's dev endpoint. */
const api = createClient({ baseUrl: emulatorUrl, auth: { url: `${emulatorUrl}/dev/token?user=e2e-api` } })

/** React's escaping of text in HTML, to find a subject in the server's markup. */
const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;')

/** A GET of a conversation list (the inbox's entry), or of a thread list, sent by the browser. */
const isList = (r: Request, what: 'conversations' | 'threads') =>
  r.method() === 'GET' &&
  r.url().startsWith(emulatorUrl) &&
  (what === 'conversations'
    ? /\/v1\/conversations(\?|$)/.test(r.url())
    : /\/v1\/conversations\/[^/]+\/threads(\?|$)/.test(r.url()))

describe.skipIf(!hasChromium)('examples/next on next start', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  })
  afterAll(async () => {
    await browser?.close()
  })

  /** A page whose console errors and warnings, and list requests, are kept from its first byte. */
  async function open(path: string) {
    const page: Page = await (await browser.newContext()).newPage()
    page.setDefaultTimeout(WAIT.timeout)
    const console: string[] = []
    const lists = { conversations: 0, threads: 0 }
    page.on('console', (m) => void ((m.type() === 'error' || m.type() === 'warning') && console.push(m.text())))
    page.on('pageerror', (e) => console.push(e.message))
    page.on('request', (r) => {
      if (isList(r, 'conversations')) lists.conversations++
      if (isList(r, 'threads')) lists.threads++
    })
    await page.goto(`${nextUrl}${path}`)
    return { page, console, lists }
  }

  it('serves the prefetched inbox in its HTML', async () => {
    const { data } = await api.support.conversations.list({ limit: 20 })
    const html = await (await fetch(`${nextUrl}/`)).text()
    expect(data.length).toBe(20)
    for (const c of data) expect(html).toContain(escapeHtml(c.subject))
  })

  it('hydrates with no warning and no list request, turns live, and keeps the cache across navigation', async () => {
    const { page, console, lists } = await open('/')
    await page.locator('[data-testid="connection"][data-state="connected"]').waitFor(WAIT)
    const rows = page.getByTestId('conversation')
    expect(await rows.count()).toBe(20)
    expect(lists.conversations).toBe(0)

    // Live: created elsewhere, it appears on top without a reload (and without a list request).
    const mailboxId = (await api.support.mailboxes.list()).data[0]!.id
    const created = await api.support.conversations.create({
      mailboxId,
      subject: 'Opened while the inbox was on screen',
      customer: { email: 'next@example.com', name: 'Next Reader' },
      text: 'Hello from the Next.js test.',
    })
    await page.locator(`[data-testid="conversation"][data-id="${created.id}"]`).waitFor(WAIT)
    expect(await rows.first().getAttribute('data-id')).toBe(created.id)

    // Client navigation: the conversation (its threads streamed) then back; the list is not fetched again.
    await page.getByRole('link', { name: created.subject }).click()
    await page.waitForURL(`${nextUrl}/conversations/${created.id}`)
    await page.getByTestId('conversation-subject').filter({ hasText: created.subject }).waitFor(WAIT)
    await page.getByTestId('thread').filter({ hasText: 'Hello from the Next.js test.' }).waitFor(WAIT)
    await page.getByRole('link', { name: '← Back to the inbox' }).click()
    await page.waitForURL(`${nextUrl}/`)
    await page.locator(`[data-testid="conversation"][data-id="${created.id}"]`).waitFor(WAIT)

    expect(lists).toEqual({ conversations: 0, threads: 0 })
    expect(console).toEqual([])
  })

  it('streams a conversation page with its threads and hydrates it without requests', async () => {
    const { data } = await api.support.conversations.list({ limit: 1 })
    const c = data[0]!
    const { page, console, lists } = await open(`/conversations/${c.id}`)
    await page.getByTestId('conversation-subject').filter({ hasText: c.subject }).waitFor(WAIT)
    await page.getByTestId('thread').first().waitFor(WAIT)
    await page.locator('[data-testid="connection"][data-state="connected"]').waitFor(WAIT)
    expect(lists.threads).toBe(0)
    expect(console).toEqual([])
  })

  it('searches places in the browser', async () => {
    const { page, console } = await open('/maps')
    await page.getByLabel('Search places').fill('Par')
    await page.getByTestId('place').first().waitFor(WAIT)
    expect(console).toEqual([])
  })
})
