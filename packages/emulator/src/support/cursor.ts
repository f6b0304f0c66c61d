// Opaque list cursors: base64url JSON tagged with the list they belong to, so a cursor from
// another list (or a hand-made one) is a 400 rather than a silent wrong page.
import { HttpError } from '../http-errors.js'
import { isPlainObject } from '../http-utils.js'

export interface Page<T> {
  data: T[]
  nextCursor: string | null
}

export const badCursor = (): HttpError =>
  new HttpError(400, 'invalid_cursor', 'The cursor is not valid for this list.', [
    { field: 'cursor', message: 'unrecognised cursor' },
  ])

export function encodeCursor(kind: string, value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ k: kind, ...value }), 'utf8').toString('base64url')
}

export function decodeCursor(cursor: string, kind: string): Record<string, unknown> {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) throw badCursor()
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw badCursor()
  }
  if (!isPlainObject(value) || value.k !== kind) throw badCursor()
  return value
}

export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0

/** Offset pages, for lists that only grow at their end (threads) or never change (mailboxes, docs). */
export function offsetPage<T>(items: readonly T[], limit: number, cursor: string | null, kind: string): Page<T> {
  let offset = 0
  if (cursor) {
    const { o } = decodeCursor(cursor, kind)
    if (!isCount(o)) throw badCursor()
    offset = o
  }
  const data = items.slice(offset, offset + limit)
  const end = offset + data.length
  return { data, nextCursor: end < items.length ? encodeCursor(kind, { o: end }) : null }
}
