import { IMAGE_MEDIA_TYPES } from '@tandem/contract'
import type { Thread } from '@tandem/core'
import type { MouseEvent } from 'react'
import { fileSize } from '../lib/format.js'
import type { SupportStrings } from './strings.js'
import './files.css'

export type Attachment = Thread['attachments'][number]

interface Props {
  attachments: readonly Attachment[]
  strings: SupportStrings
  /**
   * An image failed to load after its signed URL's `expiresAt`: the caller fetches the thread again
   * (fresh URLs). Only then: a URL still valid that fails is not fixed by another one.
   */
  onExpired?(): void
}

/** Whether the URL has run out, asked when it is used (a load failed, a click): never while rendering. */
const isExpired = (a: Attachment) => !(Date.parse(a.expiresAt) > Date.now())
/** Images over this many pixels (the service's width × height) are not drawn: decoding one takes that memory. */
const MAX_PIXELS = 40_000_000
/** An image the page may draw: its size is known and under the cap. */
const isDrawable = (a: Attachment) =>
  (IMAGE_MEDIA_TYPES as readonly string[]).includes(a.type) &&
  a.width !== null &&
  a.height !== null &&
  a.width * a.height <= MAX_PIXELS
/** The URL when it is http(s) (a received `javascript:` or `data:` URL is never a link), else undefined. */
function linkable(url: string): string | undefined {
  try {
    const { protocol } = new URL(url, location.href)
    return protocol === 'https:' || protocol === 'http:' ? url : undefined
  } catch {
    return undefined
  }
}

/**
 * A message's files: images as thumbnails that open the full picture, the rest as download links
 * with their size. The URLs are the service's short-lived signed ones: no token is in any of them.
 */
export function Attachments({ attachments, strings, onExpired }: Props) {
  if (!attachments.length) return null
  const expired = (a: Attachment) => {
    if (isExpired(a)) onExpired?.()
  }
  // A link kept past its URL's life would answer 403: fetch fresh ones, then click again.
  const click = (a: Attachment) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (!isExpired(a)) return
    e.preventDefault()
    onExpired?.()
  }
  return (
    <ul className="attachments" aria-label={strings.attachmentsLabel(attachments.length)} data-testid="attachments">
      {attachments.map((a) =>
        !linkable(a.url) ? (
          <li key={a.id} className="attachment-file">
            <span dir="auto">{a.name}</span> <span className="muted">({fileSize(a.size)})</span>
          </li>
        ) : isDrawable(a) ? (
          <li key={a.id} className="attachment-image">
            <a href={a.url} target="_blank" rel="noopener noreferrer" onClick={click(a)} data-testid="attachment-image">
              <img
                src={a.url}
                alt={strings.imageAlt(a.name)}
                width={a.width ?? undefined}
                height={a.height ?? undefined}
                loading="lazy"
                onError={() => expired(a)}
              />
            </a>
          </li>
        ) : (
          <li key={a.id} className="attachment-file">
            <a href={a.url} download={a.name} data-testid="attachment-file" onClick={click(a)}>
              <span dir="auto">{a.name}</span> <span className="muted">({fileSize(a.size)})</span>
            </a>
          </li>
        ),
      )}
    </ul>
  )
}
