// <tandem-messenger> on the plain page packages/messenger/README.md documents (issue 45 row 3):
// no bundler, no import map, no script of the page's own, one `<script type="module">` of the
// self-contained build, under the README's policy (`script-src 'self'`, Trusted Types required and
// no policy allowed), as a customer against the emulator. The launcher, a conversation both ways,
// a refused request as a typed error, and not one violation of the policy.
import { chromium, type Browser, type Page } from 'playwright-core'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeFindings, hasChromium, WAIT } from './harness.js'
import { documentedPage, servePlainPage, type PlainPage } from './messenger/plain-page.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const LINK = 'https://tandem.dev/e/'
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Records every violation of the policy before the page's own script runs (from the test's side: the page has none inline). */
const WATCH = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI), true);`

/** What the messenger's shadow root shows, read in the page. */
const inMessenger = <T>(page: Page, read: (root: ShadowRoot) => T) =>
  page.evaluate(`(${read.toString()})(document.querySelector('tandem-messenger').shadowRoot)`) as Promise<T>

/** Waits until `check` holds in the messenger's shadow root (the policy refuses the eval page.waitForFunction polls with). */
async function untilInMessenger(page: Page, check: (root: ShadowRoot) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT.timeout
  while (!(await inMessenger(page, check))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${WAIT.timeout} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('the plain page of the docs', () => {
  it('has one script tag, of the same origin, and a policy that allows no other script', () => {
    const { html, csp } = documentedPage()
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="/tandem/tandem-messenger.js">'])
    expect(csp).toContain("script-src 'self';")
    expect(csp).not.toMatch(/unsafe-(inline|eval)/)
    expect(csp).toContain("require-trusted-types-for 'script'; trusted-types 'none'")
  })
})

describe.skipIf(!hasChromium)('<tandem-messenger> on a plain page with one script tag', () => {
  let site: PlainPage
  let browser: Browser
  let agentToken: string

  beforeAll(async () => {
    // The browser build is brought up to date by global-setup.ts.
    ;[site, browser] = await Promise.all([
      servePlainPage(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] }),
    ])
    agentToken = await site.emu.mintToken({ subject: 'agent_plain', scope: ['support', 'realtime'] })
  })

  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  it('runs for a customer: launcher, a conversation both ways, a refused request as a typed error, 0 violations', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
    await context.addInitScript(WATCH)
    const page = await context.newPage()
    page.setDefaultTimeout(WAIT.timeout)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    // The two refusals below are the browser's own console lines too; anything else is a fault.
    const refusal = /^Failed to load resource: the server responded with a status of 403/
    page.on('console', (m) => void (m.type() === 'error' && !refusal.test(m.text()) && errors.push(m.text())))
    await page.goto(site.url)

    // One file at first: the element and its launcher; the panel only when it opens.
    const launcher = page.locator('tandem-messenger button.launcher')
    await launcher.waitFor()
    const scripts = () => site.requested.filter((p) => p.startsWith('/tandem/'))
    expect(scripts()).toEqual(['/tandem/tandem-messenger.js'])
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined')

    await launcher.click()
    await untilInMessenger(page, (r) => r.querySelector('[role=dialog]:not([hidden])') !== null, 'the dialog')
    expect(scripts()).toEqual(['/tandem/tandem-messenger.js', '/tandem/tandem-messenger-panel.js'])

    // A new conversation from the keyboard: focus is on "New conversation".
    await page.keyboard.press('Enter')
    await untilInMessenger(page, (r) => r.activeElement?.tagName === 'TEXTAREA', 'the composer focused')
    await page.keyboard.type('Is my order on its way?')
    await page.keyboard.press('Enter')
    await untilInMessenger(
      page,
      (r) => [...r.querySelectorAll('.msg.mine')].some((m) => m.textContent?.includes('Is my order on its way?')),
      "the customer's message in the thread",
    )
    const token = await site.emu.mintToken({ subject: site.customer, scope: ['support:customer'] })
    const list = await fetch(`${site.emu.url}/support/v1/me/conversations`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const [conversation] = ((await list.json()) as { data: { id: string; subject: string }[] }).data
    expect(conversation?.subject).toContain('Is my order on its way?')

    // The agent's reply arrives live.
    const reply = await fetch(`${site.emu.url}/support/v1/conversations/${conversation!.id}/reply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'It left the warehouse today.' }),
    })
    expect(reply.status, await reply.clone().text()).toBeLessThan(300)
    await untilInMessenger(
      page,
      (r) =>
        [...r.querySelectorAll('.msg:not(.mine)')].some((m) => m.textContent?.includes('It left the warehouse today.')),
      "the agent's reply",
    )

    // A refused request: the composer says so and keeps the text; the call itself rejects with the typed error.
    // Every support request from here is refused: the customer's typing (told to the agents as it
    // types, and stopped on send) must not take the send's refusal.
    site.emu.faults.failNext(50, { service: 'support', status: 403, code: 'forbidden' })
    await page.keyboard.type('Thanks!')
    await page.keyboard.press('Enter')
    await untilInMessenger(page, (r) => r.querySelector('.error[role=alert]:not([hidden])') !== null, 'the alert')
    expect(await inMessenger(page, (r) => r.querySelector('textarea')?.value)).toBe('Thanks!')
    site.emu.faults.failNext(1, { service: 'support', status: 403, code: 'forbidden' })
    const refused = await page.evaluate(async (id) => {
      const el = document.querySelector('tandem-messenger') as HTMLElement & {
        messenger: { conversations: { reply(id: string, input: { text: string }): Promise<unknown> } }
      }
      try {
        await el.messenger.conversations.reply(id, { text: 'Thanks!' })
        return { name: 'none' }
      } catch (e) {
        const { name, code, status, requestId, message } = e as Record<string, unknown>
        return { name, code, status, requestId: typeof requestId, message }
      }
    }, conversation!.id)
    expect(refused).toMatchObject({ name: 'AuthError', code: 'forbidden', status: 403, requestId: 'string' })
    expect(refused.message).toMatch(new RegExp(`${LINK}forbidden$`))

    // axe on the open messenger (evaluated from the test's side: the policy admits no script but the page's).
    await page.evaluate(AXE)
    expect(await axeFindings(page, 'tandem-messenger')).toEqual([])

    const violations = () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)
    expect(await violations()).toEqual([])
    expect(errors).toEqual([])
    // The recorder does record: a style attribute is refused by `style-src 'self'`.
    await page.evaluate(() => document.body.setAttribute('style', 'color: red'))
    await untilInMessenger(
      page,
      () => (window as unknown as { __violations: string[] }).__violations.length > 0,
      'the violation recorded',
    )
    expect((await violations())[0]).toMatch(/^style-src/)
    await context.close()
  })
})
