import { useCallback, useEffect, useMemo, useState } from 'react'
import { time } from '../lib/format.js'
import { DELIVERIES_STRINGS, type DeliveriesStrings } from './push-strings.js'

/** One row of `GET /api/dev/push` (tandem-plugin.ts): what the emulator recorded, without keys or endpoint paths. */
export interface DeliveryRow {
  id: string
  at: string
  kind: string
  subject: string
  messageId: string
  status: string
  httpStatus: number | null
  title: string
  /** The push service's origin only. */
  service: string
}

/** How often the open list asks again. */
const POLL_MS = 2_000

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** The dev route's answer, checked: anything else is an empty list, never a crash. */
function rowsOf(body: unknown): DeliveryRow[] {
  const list = (body as { deliveries?: unknown } | null)?.deliveries
  if (!Array.isArray(list)) throw new Error('the answer holds no list')
  return list
    .filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null)
    .map((d) => ({
      id: str(d.id),
      at: str(d.at),
      kind: str(d.kind),
      subject: str(d.subject),
      messageId: str(d.messageId),
      status: str(d.status),
      httpStatus: typeof d.httpStatus === 'number' ? d.httpStatus : null,
      title: str(d.title),
      service: str(d.service),
    }))
}

/**
 * Development only: the emulator's recorded push deliveries, read from the dev server while the
 * disclosure is open (every 2 s, and on Refresh). Shows who was pushed what, and why not (a tab
 * open: `skipped-open`), so the "only when no tab is open" rule can be watched from the inbox.
 */
export function PushDeliveries({ strings: overrides }: { strings?: Partial<DeliveriesStrings> } = {}) {
  const t = useMemo(() => ({ ...DELIVERIES_STRINGS, ...overrides }), [overrides])
  const [open, setOpen] = useState(false)
  const [rows, setRows] = useState<DeliveryRow[] | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      const res = await fetch('/api/dev/push', { cache: 'no-store' })
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      setRows(rowsOf(await res.json()))
      setFailure(null)
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error))
    }
  }, [])

  // Read at once when opened (onToggle), then every POLL_MS while open.
  useEffect(() => {
    if (!open) return
    const timer = setInterval(() => void load(), POLL_MS)
    return () => clearInterval(timer)
  }, [open, load])

  return (
    <details
      className="push-deliveries"
      data-testid="push-deliveries"
      onToggle={(e) => {
        const opened = (e.currentTarget as HTMLDetailsElement).open
        setOpen(opened)
        if (opened) void load()
      }}
    >
      <summary>{t.deliveries}</summary>
      <p className="hint">{t.deliveriesHint}</p>
      <div className="push-deliveries-bar">
        <button type="button" onClick={() => void load()} data-testid="push-deliveries-refresh">
          {t.refresh}
        </button>
        <span className="muted small" role="status">
          {failure ? t.loadFailed(failure) : rows ? t.deliveriesCount(rows.length) : ''}
        </span>
      </div>
      {rows && rows.length === 0 && <p className="muted small">{t.noDeliveries}</p>}
      {rows && rows.length > 0 && (
        // A list, not a table: it wraps in the inbox's narrow column and at 360 px.
        <ol className="push-list">
          {rows.map((d) => (
            <li key={d.id} data-testid="push-delivery" data-status={d.status}>
              <span className="small">
                <time dateTime={d.at}>{d.at ? time(d.at) : ''}</time> · {d.kind} · {d.subject}
              </span>
              <span className="small">
                <span className="sr-only">{t.columns.status}: </span>
                <strong>{d.status}</strong>
                {d.httpStatus ? ` (${d.httpStatus})` : ''}
                {d.service ? ` · ${d.service}` : ''}
              </span>
              <span dir="auto">
                <span className="sr-only">{t.columns.title}: </span>
                {d.title}
              </span>
              <span className="muted small">
                <span className="sr-only">{t.columns.messageId}: </span>
                <code>{d.messageId}</code>
              </span>
            </li>
          ))}
        </ol>
      )}
    </details>
  )
}
