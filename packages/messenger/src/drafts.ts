// Unsent text survives a reload of the tab (sessionStorage: this tab only, gone with it) and
// nothing else: `shutdown()` removes every key with the messenger's prefix. Storage may be
// unavailable (disabled, sandboxed, full): then drafts last as long as the panel.
import { DEFAULTS } from './defaults.js'

export interface Drafts {
  /** `key`: a conversation id, or `new` for a conversation not yet started. */
  get(key: string): string
  /** An empty text removes the draft. */
  set(key: string, text: string): void
}

// `sessionStorage` is read inside each try: where there is none (a server, a sandbox that refuses
// it) the read throws, and the catch does what an empty storage would.
const PREFIX = DEFAULTS.storagePrefix

export const drafts: Drafts = {
  get(key) {
    try {
      return sessionStorage.getItem(PREFIX + key) ?? ''
    } catch {
      return ''
    }
  },
  set(key, text) {
    try {
      if (text) sessionStorage.setItem(PREFIX + key, text)
      else sessionStorage.removeItem(PREFIX + key)
    } catch {
      // Full or refused: the text stays in the composer, only the copy is lost.
    }
  },
}

/** Removes every draft of the messenger from this tab's storage. */
export function clearDrafts(): void {
  try {
    const s = sessionStorage
    const keys = Array.from({ length: s.length }, (_, i) => s.key(i))
    for (const key of keys) if (key?.startsWith(PREFIX)) s.removeItem(key)
  } catch {
    // No storage, or refused: it holds nothing of ours then.
  }
}
