// What the browser tests of files on conversations share (issue 48): files with real bytes (a PNG
// of a given size, a PDF), the customer's messenger and the agent's inbox driven as a person does,
// the page's tus requests watched, and what the service holds of an upload (the dev route
// `/api/dev/uploads`, playground/tandem-plugin.ts).
import { createHash } from 'node:crypto'
import { UPLOAD_PATH } from '@tandem/contract'
import type { CDPSession, Page, Response } from 'playwright-core'
import { WAIT, type TestPage } from './harness.js'

export { png } from '../../test/utils/png.js'

/** A phone's width: the "phone-width window". */
export const PHONE_360 = { width: 360, height: 740 }

/** A one-page PDF ("Invoice #1042"), enough for the service's check of the first bytes and for a reader. */
export function pdf(): Buffer {
  const text = 'BT /F1 18 Tf 72 720 Td (Invoice #1042) Tj ET'
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let body = '%PDF-1.4\n'
  const offsets = objects.map((o, i) => {
    const at = body.length
    body += `${i + 1} 0 obj\n${o}\nendobj\n`
    return at
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(body, 'latin1')
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** What the service holds of an upload (`/api/dev/uploads`). */
export interface UploadState {
  upload: { id: string; size: number; offset: number; complete: boolean; attachedTo: string | null } | null
  /** PATCH body bytes the service has read for it in all: above `size` by what was sent twice. */
  received: number
  sha256: string | null
}

export async function uploadState(origin: string, id: string): Promise<UploadState> {
  const res = await fetch(`${origin}/api/dev/uploads?id=${encodeURIComponent(id)}`)
  if (!res.ok) throw new Error(`/api/dev/uploads answered ${res.status}`)
  return (await res.json()) as UploadState
}

const TUS = new RegExp(`/support${UPLOAD_PATH}/(upl_[A-Za-z0-9]+)`)

/** The upload id a tus request is about (a creation's from its answer's Location), else null. */
export function tusId(response: Response): string | null {
  const request = response.request()
  const own = TUS.exec(request.url())
  if (own) return own[1]!
  if (request.method() !== 'POST' || !request.url().includes(`/support${UPLOAD_PATH}`)) return null
  return TUS.exec(response.headers()['location'] ?? '')?.[1] ?? null
}

/**
 * Resolves with the upload's id once the service has acknowledged (a PATCH's `Upload-Offset`) at
 * least `fraction` of `size` bytes; rejects after WAIT.timeout. Listens to the page's own answers.
 */
export function acknowledged(page: Page, size: number, fraction: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      page.off('response', seen)
      reject(new Error(`no PATCH reached ${fraction * 100} % of ${size} bytes in ${WAIT.timeout} ms`))
    }, WAIT.timeout)
    const seen = (response: Response) => {
      const id = tusId(response)
      const offset = Number(response.headers()['upload-offset'])
      if (!id || response.request().method() !== 'PATCH' || !(offset >= size * fraction)) return
      clearTimeout(timer)
      page.off('response', seen)
      resolve(id)
    }
    page.on('response', seen)
  })
}

/** Slows the page's uploads to `bytesPerSecond` (CDP), or lifts the limit (`null`); `offline` cuts it. */
export async function throttle(cdp: CDPSession, bytesPerSecond: number | null, offline = false): Promise<void> {
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond ?? -1,
  })
}

// The customer's side: the messenger on customer.html.
export const messenger = (page: Page) => page.locator('tandem-messenger')
export const launcher = (page: Page) => messenger(page).locator('button.launcher')
export const composer = (page: Page) => messenger(page).locator('textarea')

export async function customerPage(
  open: (path: string, viewport?: { width: number; height: number }) => Promise<TestPage>,
  customer: string,
  viewport?: { width: number; height: number },
): Promise<TestPage> {
  const page = await open(`/customer.html?customer=${customer}`, viewport)
  await launcher(page).waitFor(WAIT)
  await page.locator('#state[data-state="connected"]').waitFor(WAIT)
  return page
}

export async function openMessenger(page: Page): Promise<void> {
  await launcher(page).click()
  await messenger(page).locator('[role=dialog]:not([hidden])').waitFor(WAIT)
}

/** The customer's first message: a new conversation from the open messenger. */
export async function startConversation(page: Page, text: string): Promise<void> {
  await messenger(page).getByRole('button', { name: 'New conversation' }).click()
  await composer(page).fill(text)
  await composer(page).press('Enter')
  await messenger(page).locator('.msg.mine', { hasText: text }).waitFor(WAIT)
}

/** The customer chooses files through the messenger's attach button's input. */
export async function attachInMessenger(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await messenger(page).locator('input[type=file]').setInputFiles(files)
}

// The agent's side: the inbox (index.html#support).
/** Opens the conversation whose subject is `subject` in the agent's inbox (found live on the list). */
export async function openConversation(agent: Page, subject: string): Promise<void> {
  const view = agent.getByTestId('conversation-view').filter({ hasText: subject })
  if (await view.count()) return
  await agent.getByTestId('conversation').filter({ hasText: subject }).click()
  await view.waitFor(WAIT)
}
