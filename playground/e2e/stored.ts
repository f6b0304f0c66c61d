// What a page's IndexedDB holds for Tandem's persistence (database `tandem`, store `persist`), read
// from inside the page: shared by the tests that check what is saved, and what a logout leaves.
import type { Page } from 'playwright-core'
import { WAIT } from './harness.js'

/** What is stored in the page's IndexedDB (database `tandem`, store `persist`) under keys starting with `prefix`. */
export function stored(page: Page, prefix: string): Promise<Record<string, unknown>> {
  return page.evaluate(
    (prefix) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const open = indexedDB.open('tandem')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('persist')) return (db.close(), resolve({}))
          const out: Record<string, unknown> = {}
          const cursor = db.transaction('persist').objectStore('persist').openCursor()
          cursor.onerror = () => reject(cursor.error)
          cursor.onsuccess = () => {
            const c = cursor.result
            if (!c) return (db.close(), resolve(out))
            if (String(c.key).startsWith(prefix)) out[String(c.key)] = c.value
            c.continue()
          }
        }
      }),
    prefix,
  )
}

/** Resolves once the saved cache holds the conversations list (the throttled save has run). */
export async function cacheSaved(page: Page, user: string): Promise<void> {
  const deadline = Date.now() + WAIT.timeout
  for (;;) {
    const saved = (await stored(page, `user:${user}:cache`))[`user:${user}:cache`] as
      { state: { entries: { query: { collection?: string } }[] } } | undefined
    if (saved?.state.entries.some((e) => e.query.collection === 'conversations')) return
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${user}'s cache to be saved`)
    await page.waitForTimeout(50) // a poll of IndexedDB (no event tells the test page), never a result
  }
}
