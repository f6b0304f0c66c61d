import { memo, useMemo, useState, useSyncExternalStore } from 'react'
import type { LogEntry, LogKind } from '../lib/event-log.js'
import { time } from '../lib/format.js'
import { useSession } from '../lib/session-context.js'
import './event-log.css'

const KINDS: LogKind[] = ['request', 'retry', 'rate-limit', 'token', 'realtime', 'persist', 'error', 'app']

/** SDK debug events: requests (with request ids and timings), retries, rate-limit waits, tokens (never shown), realtime states. */
export function EventLogPanel() {
  const { log } = useSession()
  const entries = useSyncExternalStore(log.subscribe, log.getSnapshot, log.getSnapshot)
  const [hidden, setHidden] = useState<ReadonlySet<LogKind>>(new Set())
  const [open, setOpen] = useState(true)
  // The lines change with the log and the filter, not on each render of the panel.
  const lines = useMemo(
    () =>
      (hidden.size ? entries.filter((e) => !hidden.has(e.kind)) : entries).map((e) => <LogLine key={e.id} entry={e} />),
    [entries, hidden],
  )
  const toggle = (k: LogKind) =>
    setHidden((h) => {
      const n = new Set(h)
      if (!n.delete(k)) n.add(k)
      return n
    })

  return (
    <section className={`event-log ${open ? 'open' : 'closed'}`} aria-label="Event log">
      <header>
        <button type="button" className="link" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? '▾' : '▸'} Event log
        </button>
        <span className="muted small">{entries.length} events · tokens are never shown</span>
        <span className="grow" />
        {open &&
          KINDS.map((k) => (
            <label key={k} className={`kind-filter kind-${k}`}>
              <input type="checkbox" checked={!hidden.has(k)} onChange={() => toggle(k)} /> {k}
            </label>
          ))}
        <button type="button" className="small" onClick={log.clear}>
          Clear
        </button>
      </header>
      {open && (
        <ol className="log-lines" data-testid="event-log" tabIndex={0} aria-label="Event log lines">
          {lines}
        </ol>
      )}
    </section>
  )
}

// Memoised: a new line re-rendered all 300 kept ones (each line's entry object never changes).
const LogLine = memo(function LogLine({ entry: e }: { entry: LogEntry }) {
  return (
    <li className={`log-line kind-${e.kind} ${e.ok === false ? 'failed' : ''}`}>
      <span className="log-time">{time(e.at)}</span>
      <span className="log-kind">{e.kind}</span>
      <span className="log-text">{e.text}</span>
      {e.requestId && <span className="log-id">{e.requestId}</span>}
    </li>
  )
})
