import { useState, useSyncExternalStore } from 'react'
import type { ShellWorker } from './service-worker.js'
import { SHELL_STRINGS, type ShellStrings } from './shell-strings.js'

interface Props {
  worker: ShellWorker
  strings?: Partial<ShellStrings>
}

/** "A new version is ready. Reload", politely, once a new app shell waits; nothing otherwise. */
export function UpdateNotice({ worker, strings: overrides }: Props) {
  const strings = { ...SHELL_STRINGS, ...overrides }
  const state = useSyncExternalStore(worker.subscribe, worker.getSnapshot)
  const [busy, setBusy] = useState(false)
  if (state !== 'update') return null
  return (
    <p className="user-notice update-notice" role="status" data-testid="update-notice">
      {strings.updateReady}{' '}
      <button
        type="button"
        className="link"
        title={strings.reloadTitle}
        aria-disabled={busy}
        onClick={() => {
          if (busy) return
          setBusy(true)
          void worker.update()
        }}
      >
        {strings.reload}
      </button>
    </p>
  )
}
