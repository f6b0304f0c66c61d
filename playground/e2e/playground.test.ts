// The playground in a real browser: Vite's dev server (with the embedded emulator) started
// here, Debian's Chromium driven through playwright-core. No sleeps: every wait is a DOM
// condition with a timeout. Needs the packages built (`npm run build`; `npm test` does it),
// since the dev server loads the emulator from its dist.
import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { createClient } from '@tandem/core'
import { createRealtime } from '@tandem/realtime'
import { WebSocket } from 'ws'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { axeFindings, hasChromium, here, SHOTS, useHarness, WAIT } from './harness.js'

const run = promisify(execFile)
const DOCS_SHOT = here('../../docs/playground.png')
const CHECK = here('../scripts/check-bundle.mjs')
const VITE_BIN = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js')
/** A wide screen and a phone, as issue 44 walked the playground. */
const WIDE = { width: 1280, height: 800 }
const NARROW = { width: 360, height: 740 }

describe.skipIf(!hasChromium)('playground in Chromium', () => {
  const harness = useHarness({ serve: 'dev' })
  const open = (path: string, viewport?: { width: number; height: number }) => harness.open(path, viewport)
  const pageErrors = (page: { errors: string[] }) => page.errors
  beforeAll(() => mkdir(SHOTS, { recursive: true }))

  /** Every chat message in the page, by id. */
  const messageIds = (page: Page) =>
    page.$$eval('[data-testid="message"]', (els) => els.map((e) => (e as HTMLElement).dataset.id!))

  it('computes a route and draws it on the map', async () => {
    const page = await open('/?user=e2e-maps#maps')
    const search = page.getByLabel('Place or address')
    await search.fill('Lisbon')
    await page.getByRole('button', { name: 'From Lisbon', exact: true }).first().click()
    await search.fill('Berlin')
    await page.getByRole('button', { name: 'To Berlin', exact: true }).first().click()
    await page.getByRole('button', { name: 'Compute route' }).click()

    // The decoded polyline as one SVG path, with many points, over real country boundaries.
    await page.waitForFunction(
      () => {
        const path = document.querySelector('[data-testid="route-path"]')
        return (
          path && Number(path.getAttribute('data-points')) > 50 && (path.getAttribute('d')?.split('L').length ?? 0) > 50
        )
      },
      undefined,
      WAIT,
    )
    // The boundaries come from the maps service (getMapView through useQuery), for the box the route fills.
    await page.waitForFunction(() => document.querySelectorAll('[data-country]').length > 20, undefined, WAIT)
    const distance = await page.getByTestId('route-distance').textContent()
    expect(distance).toMatch(/^[\d,]+ km$/)
    expect(Number(distance!.replace(/\D/g, ''))).toBeGreaterThan(2000) // Lisbon → Berlin by road, roughly 2,900 km here
    expect(await page.getByTestId('route-duration').textContent()).toMatch(/h/)
    expect(await page.locator('.map-marker-origin text').textContent()).toBe('Lisbon')

    // Enter right after typing geocodes (useQuery, the latest action wins).
    await search.fill('Porto, Portugal')
    await search.press('Enter')
    await page.waitForFunction(
      () => document.querySelector('.list-title')?.textContent === 'Geocoded “Porto, Portugal”',
      undefined,
      WAIT,
    )
    expect(await page.getByTestId('place-results').locator('li').count()).toBeGreaterThan(0)

    // Address validation shows a verdict per component.
    await page.getByRole('button', { name: 'Validate' }).click()
    await page.getByTestId('address-result').waitFor(WAIT)
    expect(await page.locator('.components tbody tr').count()).toBeGreaterThanOrEqual(3)
    expect(await page.getByTestId('address-result').textContent()).toContain('1100-053') // the postal code, fixed

    // The event log shows requests with ids, and never a token.
    const log = await page.getByTestId('event-log').textContent()
    expect(log).toMatch(/POST \/maps\/v1\/routes:compute → 200/)
    expect(log).toMatch(/req_/)
    expect(await page.content()).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/)
    expect(pageErrors(page)).toEqual([])

    const shot = join(SHOTS, 'maps.png')
    await page.locator('.maps-side').evaluate((el) => el.scrollTo(0, 0))
    await page.screenshot({ path: shot })
    // The README's picture is committed: refresh it only when asked, so a test run leaves the tree clean.
    if (process.env.UPDATE_DOCS_SCREENSHOT) await copyFile(shot, DOCS_SHOT)
  })

  it('shows the support inbox, pages it, and a conversation created through the REST API appears live', async () => {
    const page = await open('/?user=e2e-support#support')
    const rows = page.locator('[data-testid="conversation"]')
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="conversation"]').length === 15,
      undefined,
      WAIT,
    )
    await page.waitForFunction(
      () => document.querySelector('[data-testid="live-badge"]')?.textContent?.includes('● live'),
      undefined,
      WAIT,
    )

    // Pagination: the next page is appended.
    await page.getByRole('button', { name: 'Load more' }).click()
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="conversation"]').length === 30,
      undefined,
      WAIT,
    )

    // Created by someone else, through REST, with a token from the same endpoint the browser uses.
    const { url } = harness
    const api = createClient({ baseUrl: url, auth: { url: `${url}/api/tandem-token?user=e2e-api` } })
    const mailboxId = (await api.support.mailboxes.list()).data[0]!.id
    const created = await api.support.conversations.create({
      mailboxId,
      subject: 'Created through the REST API',
      customer: { email: 'rest@example.com', name: 'Rest Client' },
      text: 'Hello from a test.',
    })
    const row = page.locator(`[data-testid="conversation"][data-id="${created.id}"]`)
    await row.waitFor(WAIT)
    expect(await rows.first().getAttribute('data-id')).toBe(created.id) // prepended, without a reload
    expect(await rows.count()).toBe(31)

    // Open it, reply: the reply shows among its threads.
    await row.click()
    await page.getByTestId('conversation-view').waitFor(WAIT)
    await page.getByPlaceholder('Write a reply…').fill('We are on it.')
    await page.getByRole('button', { name: 'Send reply' }).click()
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="thread"]')].some(
          (t) => t.textContent?.includes('We are on it.') && !t.classList.contains('sending'),
        ),
      undefined,
      WAIT,
    )
    // The service has it too.
    const threads = await api.support.conversations.threads(created.id)
    expect(threads.data.map((t) => t.text)).toContain('We are on it.')
    expect(pageErrors(page)).toEqual([])
    await page.screenshot({ path: join(SHOTS, 'support.png') })
  })

  it('chats between two pages: presence, typing, and every message exactly once across a dropped connection and an expired token', async () => {
    const [a, b] = await Promise.all([open('/?user=e2e-ana#chat'), open('/?user=e2e-bob#chat')])
    for (const page of [a, b]) {
      await page.waitForFunction(
        () => {
          const ids = [...document.querySelectorAll('[data-testid="member"]')].map(
            (m) => (m as HTMLElement).dataset.client,
          )
          return ids.includes('e2e-ana') && ids.includes('e2e-bob')
        },
        undefined,
        WAIT,
      )
      await page.waitForFunction(
        () => document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'connected',
        undefined,
        WAIT,
      )
      await page.waitForFunction(
        () => document.querySelector('[data-testid="messages"]')?.getAttribute('data-history') === 'loaded',
        undefined,
        WAIT,
      )
    }

    // Typing shows on the other page (presence data).
    await b.getByLabel('Message').fill('hel')
    await a.waitForFunction(
      () => document.querySelector('[data-testid="typing"]')?.textContent?.includes('e2e-bob is typing'),
      undefined,
      WAIT,
    )

    const before = (await messageIds(a)).length
    const say = async (page: Page, text: string) => {
      await page.getByLabel('Message').fill(text)
      await page.getByLabel('Message').press('Enter')
    }
    await say(a, 'ana 1')
    await say(b, 'bob 1')

    // Cut ana's socket (no close frame), and keep talking on both sides while she is away.
    await a.getByTestId('drop').click()
    await a
      .getByTestId('control-result')
      .filter({ hasText: /dropped [1-9]/ })
      .waitFor(WAIT)
    await say(b, 'bob 2 (ana is away)')
    await say(a, 'ana 2 (queued while away)')
    await b.getByRole('button', { name: 'Send 5' }).click()

    // Expire bob's token: his socket closes with 4102, he fetches a new token and resumes.
    await b.getByTestId('expire').click()
    await b
      .getByTestId('control-result')
      .filter({ hasText: /revoked/ })
      .waitFor(WAIT)
    await say(b, 'bob 3 (after a new token)')
    await say(a, 'ana 3')

    const expected = before + 11
    for (const page of [a, b]) {
      await page.waitForFunction(
        (n) =>
          document.querySelectorAll('[data-testid="message"]').length >= n &&
          document.querySelector('[data-testid="connection-state"]')?.getAttribute('data-state') === 'connected',
        expected,
        WAIT,
      )
    }
    const [idsA, idsB] = await Promise.all([messageIds(a), messageIds(b)])
    expect(idsA).toHaveLength(expected)
    expect(new Set(idsA).size).toBe(expected) // no duplicates
    expect(idsB).toEqual(idsA) // same messages, same order, on both pages
    for (const page of [a, b]) {
      expect(await page.getByTestId('duplicates').textContent()).toBe('0 duplicated')
      expect(await page.getByTestId('lost').textContent()).toBe('0 lost')
      const texts = await page.$$eval('[data-testid="message"]', (els) => els.map((e) => e.textContent ?? ''))
      for (const t of [
        'ana 1',
        'bob 1',
        'bob 2 (ana is away)',
        'ana 2 (queued while away)',
        'bob 3 (after a new token)',
        'ana 3',
      ]) {
        // The text ends the line ("e2e-ana 12:50:25 · #1ana 1"): `includes` would match the clock.
        expect(texts.filter((x) => x.endsWith(t))).toHaveLength(1)
      }
      // Offsets strictly increase: in order, no gap.
      const offsets = await page.$$eval('[data-testid="message"]', (els) =>
        els.map((e) => Number((e as HTMLElement).dataset.offset)),
      )
      expect(offsets.every((o, i) => i === 0 || o === offsets[i - 1]! + 1)).toBe(true)
    }
    // The event log saw the recovery, and never shows a token.
    const logA = await a.getByTestId('event-log').textContent()
    expect(logA).toMatch(/reconnecting/)
    const logB = await b.getByTestId('event-log').textContent()
    expect(logB).toMatch(/token_revoked/)
    expect(await b.content()).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/)
    expect([...pageErrors(a), ...pageErrors(b)]).toEqual([])
    await a.screenshot({ path: join(SHOTS, 'chat.png') })
  })

  it('a reload mid-stream resumes where the page left off: no gap, nothing twice (sessionPositions)', async () => {
    const { url } = harness
    const page = await open('/vanilla.html?user=e2e-reload&channel=reload:stream')
    await page.waitForFunction(() => document.getElementById('state')?.dataset.state === 'connected', undefined, WAIT)
    const pub = createRealtime(
      { auth: { url: `${url}/api/tandem-token?user=e2e-reload-pub` }, url: `${url}/realtime` },
      { WebSocket },
    )
    const offsets = () =>
      page.$$eval('#messages [data-testid="message"]', (els) =>
        els.map((e) => Number((e as HTMLElement).dataset.offset)),
      )
    try {
      const ch = pub.channel('reload:stream')
      for (let i = 1; i <= 5; i++) await ch.publish('message', { text: `before ${i}` })
      await page.waitForFunction(() => document.querySelectorAll('#messages li').length === 5, undefined, WAIT)
      // Keep what the SDK writes at pagehide (it runs first: registered first), to compare after.
      await page.evaluate(() =>
        addEventListener('pagehide', () =>
          sessionStorage.setItem('e2e-saved', sessionStorage.getItem('tandem:realtime:e2e-reload') ?? ''),
        ),
      )
      // Reload, and publish while the page is away: the new page's script is held back until the
      // 20 are stored, so they can only reach it through the resume (without the hold, the old
      // page could receive them all before it unloads, and the check below would pass on nothing).
      let publishedAll!: () => void
      const published = new Promise<void>((resolve) => (publishedAll = resolve))
      await page.route(
        (u) => u.pathname === '/src/vanilla.ts',
        async (r) => {
          await published
          await r.continue()
        },
      )
      // The new page asks to resume the channel from the saved position (its subscribe frame).
      const resumedFrom: unknown[] = []
      page.on('websocket', (ws) =>
        ws.on('framesent', ({ payload }) => {
          const frame = JSON.parse(String(payload)) as {
            type?: string
            channels?: { channel: string; since?: unknown }[]
          }
          if (frame.type === 'subscribe')
            resumedFrom.push(...(frame.channels ?? []).filter((c) => c.channel === 'reload:stream').map((c) => c.since))
        }),
      )
      const reloaded = page.reload()
      // The new document, its script not run yet: the old one has gone.
      await page.waitForFunction(() => document.getElementById('state')?.dataset.state === 'idle', undefined, WAIT)
      let last = 0
      for (let i = 1; i <= 20; i++) last = (await ch.publish('message', { text: `during ${i}` })).offset
      publishedAll()
      await reloaded
      // On a timeout, go on: the assertions below then say what the page had (offsets, state, saved).
      await page
        .waitForFunction(
          (n) =>
            [...document.querySelectorAll('#messages li')].some(
              (li) => (li as HTMLElement).dataset.offset === String(n),
            ),
          last,
          WAIT,
        )
        .catch(() => undefined)
      const state = await page.evaluate(() => document.getElementById('state')?.dataset.state)
      const saved = JSON.parse(await page.evaluate(() => sessionStorage.getItem('e2e-saved') ?? '')) as {
        channels: Record<string, { offset: number }>
      }
      const from = saved.channels['reload:stream']!.offset
      expect(from).toBe(5) // what the page had shown before it went
      expect(resumedFrom).toEqual([expect.objectContaining({ offset: from })])
      const got = await offsets()
      // The page shows the channel's last page of history, then what is live (issue 44 row 13):
      // the 5 before and the 20 during, contiguous, none twice, whichever way each came.
      expect({ state, from, got }).toEqual({ state: 'connected', from, got: expect.anything() })
      expect(got).toEqual(Array.from({ length: last }, (_, i) => 1 + i))
      expect(await page.locator('#chat-status').textContent()).not.toMatch(/lost/)
      expect(pageErrors(page)).toEqual([])
    } finally {
      pub.close()
    }
  })

  it('runs the vanilla page (no React): lists conversations, subscribes and publishes', async () => {
    const page = await open('/vanilla.html?user=e2e-vanilla')
    await page.waitForFunction(
      () => document.querySelectorAll('#conversations [data-testid="conversation"]').length === 10,
      undefined,
      WAIT,
    )
    await page.getByRole('button', { name: 'Load more' }).click()
    await page.waitForFunction(
      () => document.querySelectorAll('#conversations [data-testid="conversation"]').length === 20,
      undefined,
      WAIT,
    )
    await page.waitForFunction(() => document.getElementById('state')?.dataset.state === 'connected', undefined, WAIT)
    await page.getByLabel('Message').fill('hello without React')
    await page.getByRole('button', { name: 'Publish' }).click()
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('#messages li')].some(
          (li) => li.textContent === 'e2e-vanilla: hello without React',
        ),
      undefined,
      WAIT,
    )
    expect(await page.locator('#chat-status').textContent()).toMatch(/Stored at offset \d+/)
    expect(pageErrors(page)).toEqual([])
    await page.screenshot({ path: join(SHOTS, 'vanilla.png') })
  })

  // issue 44 row 13: the vanilla chat shows history, and says when a channel is empty.
  const stamp = Date.now().toString(36)
  const texts = (page: Page) => page.$$eval('#messages li', (els) => els.map((e) => e.textContent))

  it("shows the channel's last page of history, an earlier page on demand in the reader's place, at 1280 and 360 px", async () => {
    const { url } = harness
    const name = `chat:vanilla-history-${stamp}`
    const pub = createRealtime(
      { auth: { url: `${url}/api/tandem-token?user=e2e-vh-pub` }, url: `${url}/realtime` },
      { WebSocket },
    )
    try {
      const ch = pub.channel(name)
      for (let i = 1; i <= 60; i++) await ch.publish('message', { text: `old ${i}` })
    } finally {
      pub.close()
    }
    for (const viewport of [WIDE, NARROW]) {
      const page = await harness.open(`/vanilla.html?user=e2e-vh&channel=${encodeURIComponent(name)}`, viewport)
      // The newest 50, oldest first, the newest in view.
      await page.waitForFunction(() => document.querySelectorAll('#messages li').length === 50, undefined, WAIT)
      const shown = await texts(page)
      expect([shown[0], shown.at(-1)]).toEqual(['e2e-vh-pub: old 11', 'e2e-vh-pub: old 60'])
      expect(
        await page.locator('#messages').evaluate((l) => l.scrollHeight - l.scrollTop - l.clientHeight),
      ).toBeLessThan(2)
      expect(await page.getByTestId('chat-empty').isVisible()).toBe(false)
      expect(await axeFindings(page)).toEqual([])

      // From the keyboard: the list is a Tab stop (it scrolls); Home goes to its top.
      await page.locator('#messages').focus()
      await page.keyboard.press('Home')
      await page.waitForFunction(() => document.getElementById('messages')!.scrollTop === 0, undefined, WAIT)
      const top = () =>
        page.$$eval('#messages li', (els) => {
          const list = document.getElementById('messages')!.getBoundingClientRect()
          const li = els.find((e) => e.getBoundingClientRect().bottom > list.top)!
          return { text: li.textContent, y: Math.round(li.getBoundingClientRect().top - list.top) }
        })
      const before = await top()
      await page.getByRole('button', { name: 'Load earlier messages' }).click()
      await page.waitForFunction(() => document.querySelectorAll('#messages li').length === 60, undefined, WAIT)
      expect((await texts(page))[0]).toBe('e2e-vh-pub: old 1')
      // The reader's place: the message at the top is still there, where it was.
      expect(await top()).toEqual(before)
      await page.getByRole('button', { name: 'Load earlier messages' }).waitFor({ ...WAIT, state: 'hidden' })
      expect(page.errors).toEqual([])
    }
  })

  it('says "No messages yet" on an empty channel, until the first message', async () => {
    for (const viewport of [WIDE, NARROW]) {
      const name = `chat:vanilla-empty-${stamp}-${viewport.width}`
      const page = await harness.open(`/vanilla.html?user=e2e-vempty&channel=${encodeURIComponent(name)}`, viewport)
      const empty = page.getByTestId('chat-empty')
      await empty.waitFor(WAIT)
      expect(await empty.textContent()).toBe('No messages yet. Say something to start.')
      expect(await page.locator('#chat-loading').textContent()).toBe('')
      expect(await axeFindings(page)).toEqual([])
      await page.getByLabel('Message').fill('the first')
      await page.getByLabel('Message').press('Enter')
      await page.waitForFunction(() => document.querySelectorAll('#messages li').length === 1, undefined, WAIT)
      expect(await texts(page)).toEqual(['e2e-vempty: the first'])
      expect(await empty.isVisible()).toBe(false)
      expect(await axeFindings(page)).toEqual([])
      expect(page.errors).toEqual([])
    }
  })
})

describe('the built playground', () => {
  it('builds both pages, and the bundle holds no key secret and no token', async () => {
    // `npm run build -w playground`, as a child: Vitest's NODE_ENV=test would make a development React build.
    const outDir = here('../dist')
    const env = { ...process.env, NODE_ENV: 'production' }
    await run(process.execPath, [VITE_BIN, 'build', '--logLevel', 'warn'], { cwd: here('..'), env })
    expect(existsSync(join(outDir, 'index.html'))).toBe(true)
    expect(existsSync(join(outDir, 'vanilla.html'))).toBe(true)
    const { stdout } = await run(process.execPath, [CHECK, '--dir', outDir])
    expect(stdout).toMatch(/check-bundle: ok/)
  })

  it('the check fails on a planted token, secret or dev control', async () => {
    const { DEV_APP } = await import('@tandem/emulator')
    const dir = await mkdtemp(join(tmpdir(), 'check-bundle-'))
    try {
      const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
      await writeFile(
        join(dir, 'a.js'),
        `const t = "${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'someone', exp: 1 })}.${'s'.repeat(43)}"`,
      )
      await writeFile(join(dir, 'b.js'), `const k = ${JSON.stringify(DEV_APP.keys[0]!.secret)}`)
      await writeFile(join(dir, 'c.js'), 'fetch(`/api/dev/${w}?user=${u}`);window.__chatListCommits=1')
      const failed = await run(process.execPath, [CHECK, '--dir', dir]).then(
        () => undefined,
        (e: { code: number; stderr: string }) => e,
      )
      expect(failed?.code).toBe(1)
      expect(failed?.stderr).toContain('a.js: a JWT-shaped string')
      expect(failed?.stderr).toContain('b.js: the secret of key')
      expect(failed?.stderr).toContain("c.js: a call to the dev server's controls (/api/dev/, 1×)")
      expect(failed?.stderr).toContain("c.js: the chat list's dev-only render counter (__chatListCommits, 1×)")
      expect(failed?.stderr).not.toContain(DEV_APP.keys[0]!.secret) // names the finding, never prints it
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
