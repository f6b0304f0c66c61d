// The playground's pages, read from its HTML files: a page added later is checked without a
// test edit. The React app (index.html) is one page per tab.
import { readdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { here, WAIT, type TestPage } from './harness.js'

export const TABS = ['maps', 'support', 'chat'] as const
export type TabId = (typeof TABS)[number]
export const TAB_NAMES: Record<TabId, string> = { maps: 'Maps', support: 'Support inbox', chat: 'Chat' }

export interface PageView {
  /** e.g. `index.html#support`, `vanilla.html` */
  name: string
  /** The path to open, without `?user=`. */
  path: string
  tab?: TabId
  /** The query parameter that names the tab's person: `customer` on the customer's page. */
  param: 'user' | 'customer'
}

/** Every HTML file of playground/, the React app once per tab. */
export function pageViews(): PageView[] {
  const files = readdirSync(here('..')).filter((f) => f.endsWith('.html'))
  return files.flatMap((file) =>
    file === 'index.html'
      ? TABS.map((tab) => ({ name: `index.html#${tab}`, path: `/#${tab}`, tab, param: 'user' as const }))
      : [{ name: file, path: `/${file}`, param: file === 'customer.html' ? ('customer' as const) : ('user' as const) }],
  )
}

/** Opens `view` for `user` and waits for what it loads (the tab's data, or the page's script). */
export async function openView(
  open: (path: string, viewport?: { width: number; height: number }) => Promise<TestPage>,
  view: PageView,
  user: string,
  viewport?: { width: number; height: number },
): Promise<TestPage> {
  const [path, hash = ''] = view.path.split('#')
  const page = await open(`${path}?${view.param}=${user}${hash ? `#${hash}` : ''}`, viewport)
  await loadedView(page, view)
  return page
}

/** Waits for what each view loads, so the checks see the page as a person would. */
export async function loadedView(page: Page, view: PageView): Promise<void> {
  if (!view.tab) {
    // A plain page: its script has written the user's name (a page without one: it has loaded).
    await page.waitForFunction(
      () => {
        const user = document.getElementById('user')
        return user ? user.textContent !== '' : document.readyState === 'complete'
      },
      undefined,
      WAIT,
    )
    return
  }
  const selector = {
    maps: '[data-country]',
    support: '[data-testid="conversation"]',
    chat: '[data-testid="messages"][data-history="loaded"]',
  }[view.tab]
  await page
    .locator(selector)
    .first()
    .waitFor({ state: 'attached', ...WAIT })
}
