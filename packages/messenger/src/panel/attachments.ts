// A sent message's files: an image as a thumbnail linking to it (a new tab), any other file as a
// download link with its size. The thumbnail is drawn on a canvas from bytes fetched with the
// signed URL (thumbnail.ts: no `img-src` applies, so a page whose policy admits only its own images
// still shows it, with no violation; the fetch is the services' origin, which `connect-src`
// admits for the messenger anyway). Its box is the service's width and height scaled down, so
// nothing moves when it is drawn; one that cannot be drawn shows the file's name instead.
import { IMAGE_MEDIA_TYPES } from '@tandem/contract'
import type { CustomerMessage } from '@tandem/core/messenger'
import { h } from '@tandem/elements'
import { drawThumbnail } from './thumbnail.js'
import type { PanelContext } from './view.js'

export type Attachment = CustomerMessage['attachments'][number]

/** A thumbnail's largest side, in CSS pixels (drawn at twice that for sharp screens). */
const THUMB_PX = 200

/** The files of a message, or null when it has none. */
export function attachmentsOf(ctx: PanelContext, files: readonly Attachment[] | undefined): HTMLElement | null {
  if (!files || files.length === 0) return null
  return h(
    'ul',
    { class: 'files' },
    ...files.map((file) => h('li', {}, isImage(file) ? image(ctx, file) : link(ctx, file))),
  )
}

const isImage = (file: Attachment) => IMAGE_MEDIA_TYPES.includes(file.type)

function link(ctx: PanelContext, file: Attachment): HTMLAnchorElement {
  // The service answers a non-image with `Content-Disposition: attachment`: the page stays.
  return h(
    'a',
    { href: file.url, class: 'file' },
    file.name,
    h('span', { class: 'size' }, ctx.strings().fileSize(file.size)),
  )
}

function image(ctx: PanelContext, file: Attachment): HTMLAnchorElement {
  const name = h('span', { class: 'name', hidden: '' }, file.name)
  const a = h(
    'a',
    { href: file.url, target: '_blank', rel: 'noopener noreferrer', class: 'thumb' },
    name,
    h('span', { class: 'sr' }, ` ${ctx.strings().opensInNewTab}`),
  )
  const canvas = h('canvas', { role: 'img', 'aria-label': file.name })
  const [w, h2] = fitted(file.width, file.height)
  canvas.width = w * 2
  canvas.height = h2 * 2
  // CSSOM, not a style attribute: `style-src 'self'` refuses attributes, not properties.
  canvas.style.width = `${w}px`
  a.prepend(canvas)
  const fallback = () => {
    canvas.remove()
    name.hidden = false
  }
  if (typeof createImageBitmap !== 'function') fallback()
  else
    fetch(file.url, { credentials: 'omit' })
      .then((res) => (res.ok ? res.blob() : null))
      .then((blob) => (blob ? drawThumbnail(blob, canvas, 'contain') : false))
      .then(
        (drawn) => drawn || fallback(),
        () => fallback(),
      )
  return a
}

/** The box an image of `width`×`height` (null: unknown, a square) is shown in, at most THUMB_PX a side. */
function fitted(width: number | null, height: number | null): [number, number] {
  if (!width || !height) return [THUMB_PX, THUMB_PX]
  const scale = Math.min(1, THUMB_PX / Math.max(width, height))
  return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))]
}
