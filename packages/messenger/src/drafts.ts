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

const storage = (): Storage | null => {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}

export const drafts: Drafts = {
  get(key) {
    try {
      return storage()?.getItem(DEFAULTS.storagePrefix + key) ?? ''
    } catch {
      return ''
    }
  },
  set(key, text) {
    try {
      if (text) storage()?.setItem(DEFAULTS.storagePrefix + key, text)
      else storage()?.removeItem(DEFAULTS.storagePrefix + key)
    } catch {
      // Full or refused: the text stays in the composer, only the copy is lost.
    }
  },
}

/** Removes every draft of the messenger from this tab's storage. */
export function clearDrafts(): void {
  try {
    const s = storage()
    if (!s) return
    const keys = Array.from({ length: s.length }, (_, i) => s.key(i))
    for (const key of keys) if (key?.startsWith(DEFAULTS.storagePrefix)) s.removeItem(key)
  } catch {
    // Storage refused: it holds nothing of ours then.
  }
}
