// Files in <tandem-messenger> on the plain page of the docs (one script tag, the README's policy:
// `script-src 'self'`, `img-src 'self'`, Trusted Types required), as a customer against the
// emulator in real Chromium: a chosen image's chip and the sent image's thumbnail are drawn (a
// canvas: no `img-src` applies) with not one violation of the policy and no console error, and
// axe finds nothing serious with the attach flow open (chips, a refusal, the progress bar and its
// Cancel button) at desktop width and at 360 px.
import { chromium, type Browser, type Page } from 'playwright-core'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { png } from '../../test/utils/png.js'
import { axeFindings, hasChromium, WAIT } from './harness.js'
import { servePlainPage, type PlainPage } from './messenger/plain-page.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Records every violation of the policy before the page's own script runs. */
const WATCH = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI), true);`

/** What the messenger's shadow root shows, read in the page. */
const inMessenger = <T>(page: Page, read: (root: ShadowRoot) => T) =>
  page.evaluate(`(${read.toString()})(document.querySelector('tandem-messenger').shadowRoot)`) as Promise<T>

/** Waits until `check` holds in the messenger's shadow root (the policy refuses the eval page.waitForFunction polls with). */
async function untilInMessenger(page: Page, check: (root: ShadowRoot) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + WAIT.timeout
  while (!(await inMessenger(page, check))) {
    if (Date.now() > deadline) {
      // What the composer said instead, if anything: the likeliest reason.
      const said = await inMessenger(page, (r) => r.querySelector('.error[role=alert]')?.textContent)
      throw new Error(`timed out after ${WAIT.timeout} ms waiting for ${what} (the composer says: ${said})`)
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** The colour at the centre of the first canvas matching `selector` in the messenger, as [r, g, b]. */
const centreOf = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const canvas = document.querySelector('tandem-messenger')!.shadowRoot!.querySelector<HTMLCanvasElement>(selector)!
    const [r, g, b] = canvas.getContext('2d')!.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data
    return [r, g, b]
  }, selector)

describe.skipIf(!hasChromium)('<tandem-messenger> files on the plain page (strict policy)', () => {
  let site: PlainPage
  let browser: Browser

  beforeAll(async () => {
    // The browser build is brought up to date by global-setup.ts.
    ;[site, browser] = await Promise.all([
      servePlainPage('cus_files'),
      chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] }),
    ])
  })

  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  it('chips, a refusal, progress and a sent thumbnail: drawn with 0 violations; axe clean at desktop and 360 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } })
    await context.addInitScript(WATCH)
    const page = await context.newPage()
    page.setDefaultTimeout(WAIT.timeout)
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())))
    await page.goto(site.url)

    await page.locator('tandem-messenger button.launcher').click()
    await untilInMessenger(page, (r) => r.querySelector('[role=dialog]:not([hidden])') !== null, 'the dialog')
    await page.keyboard.press('Enter') // "New conversation" has focus
    await untilInMessenger(page, (r) => r.activeElement?.tagName === 'TEXTAREA', 'the composer focused')

    // The attach button is a real button in the tab order, named; its picker gets an image and a refused file.
    await page.keyboard.press('Tab')
    expect(await inMessenger(page, (r) => r.activeElement?.getAttribute('aria-label'))).toBe('Attach files')
    const picker = page.locator('tandem-messenger input[type=file]')
    await picker.setInputFiles([
      { name: 'screenshot.png', mimeType: 'image/png', buffer: png(64, 48, { rgb: [200, 30, 40] }) },
      { name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<p>hi</p>') },
    ])
    await untilInMessenger(page, (r) => r.querySelector('.chip canvas') !== null, "the image chip's thumbnail")
    expect(await inMessenger(page, (r) => r.querySelector('.error[role=alert]')?.textContent)).toBe(
      'page.html cannot be sent: only images (PNG, JPEG, GIF, WebP), PDFs and text files can.',
    )
    expect(await centreOf(page, '.chip canvas')).toEqual([200, 30, 40])

    await page.evaluate(AXE)
    expect(await axeFindings(page, 'tandem-messenger')).toEqual([])
    await page.setViewportSize({ width: 360, height: 740 })
    expect(await axeFindings(page, 'tandem-messenger')).toEqual([])

    // Sent with its bytes held back until axe has looked at 360 px with the progress bar and Cancel on screen.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/support/v1/uploads/*', async (route) => {
      if (route.request().method() === 'PATCH') await held
      await route.continue()
    })
    // The uploader (tus-js-client) is a file of its own, loaded with the first message that has files.
    const uploader = '/tandem/tandem-messenger-uploads.js'
    expect(site.requested).not.toContain(uploader)
    await page.locator('tandem-messenger textarea').fill('The error I get')
    await page.locator('tandem-messenger textarea').press('Enter')
    await untilInMessenger(
      page,
      (r) =>
        r.querySelector('.sending:not([hidden]) progress') !== null &&
        r.querySelector('.sending button:not([hidden])') !== null,
      'the progress bar and Cancel',
    )
    expect(await inMessenger(page, (r) => r.querySelector('.sending progress')?.getAttribute('aria-label'))).toBe(
      'Sending files',
    )
    expect(await axeFindings(page, 'tandem-messenger')).toEqual([])
    release()

    // The sent image: a thumbnail of the service's width and height, drawn from the signed URL's bytes.
    await untilInMessenger(page, (r) => r.querySelector('.msg.mine .thumb canvas') !== null, 'the sent thumbnail')
    await untilInMessenger(
      page,
      (r) => {
        const c = r.querySelector<HTMLCanvasElement>('.msg.mine .thumb canvas')!
        return c.getContext('2d')!.getImageData(c.width / 2, c.height / 2, 1, 1).data[3] === 255
      },
      'the thumbnail drawn',
    )
    expect(await centreOf(page, '.msg.mine .thumb canvas')).toEqual([200, 30, 40])
    const thumb = await inMessenger(page, (r) => {
      const a = r.querySelector<HTMLAnchorElement>('.msg.mine .thumb')!
      const c = a.querySelector('canvas')!
      return { href: a.href, target: a.target, label: c.getAttribute('aria-label'), w: c.width, h: c.height }
    })
    expect(thumb).toMatchObject({ target: '_blank', label: 'screenshot.png', w: 128, h: 96 })
    expect(new URL(thumb.href).searchParams.has('signature')).toBe(true)
    expect(await inMessenger(page, (r) => r.querySelectorAll('.chip').length)).toBe(0)
    expect(site.requested.filter((p) => p === uploader)).toHaveLength(1)
    expect(await axeFindings(page, 'tandem-messenger')).toEqual([])

    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)
    expect(violations).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})
