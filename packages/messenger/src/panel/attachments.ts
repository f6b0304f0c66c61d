// A sent message's files: an image as a thumbnail linking to it (a new tab), any other file as a
// download link with its size. The thumbnail is drawn on a canvas from bytes fetched with the
// signed URL (thumbnail.ts: no `img-src` applies, so a page whose policy admits only its own images
// still shows it, with no violation; the fetch is the services' origin, which `connect-src`
// admits for the messenger anyway). Its box is the service's width and height scaled down, so
// nothing moves when it is drawn; one that cannot be drawn shows the file's name instead.
// Received data is not trusted: a URL that is not http(s) is no link (the name alone); an image
// over MAX_PIXELS (its size is the service's) or of unknown size is never decoded; the bytes are
// fetched once the row is on screen, and decoded straight to the thumbnail's size. A signed URL
// past its `expiresAt` is read again (`reread`) before it is used: on a click, and for a thumbnail.
import { IMAGE_MEDIA_TYPES } from '@tandem/contract'
import type { CustomerMessage } from '@tandem/core/messenger'
import { h } from '@tandem/elements'
import { drawThumbnail, whenVisible } from './thumbnail.js'
import type { PanelContext } from './view.js'

export type Attachment = CustomerMessage['attachments'][number]

export interface Attachments {
  readonly node: HTMLUListElement
  /** The message's files as read again (fresh signed URLs): the links follow, in place. */
  update(files: readonly Attachment[]): void
  destroy(): void
}

/** A thumbnail's largest side, in CSS pixels (drawn at twice that for sharp screens). */
const THUMB_PX = 200
/** Images larger than this (width × height) are shown by name: decoding one would take its pixels' memory. */
export const MAX_PIXELS = 40_000_000

const isImage = (file: Attachment) => IMAGE_MEDIA_TYPES.includes(file.type)
const isExpired = (file: Attachment) => !(Date.parse(file.expiresAt) > Date.now())

/** `url` when it is an http(s) URL (anything else, `javascript:` say, is never a link), else null. */
export function linkable(url: string): string | null {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:' ? url : null
  } catch {
    return null
  }
}

/**
 * The files of a message, or null when it has none. `reread` fetches the message again (fresh
 * URLs reach `update`); null: nothing can.
 */
export function createAttachments(
  ctx: PanelContext,
  files: readonly Attachment[] | undefined,
  reread: (() => Promise<void>) | null,
): Attachments | null {
  if (!files || files.length === 0) return null
  const items = files.map((file) => createItem(ctx, file, reread))
  return {
    node: h('ul', { class: 'files' }, ...items.map((i) => h('li', {}, i.node))),
    update: (fresh) => fresh.forEach((file, n) => items[n]?.file.id === file.id && items[n].update(file)),
    destroy: () => items.forEach((i) => i.stop()),
  }
}

interface Item {
  node: HTMLAnchorElement
  readonly file: Attachment
  update(file: Attachment): void
  stop(): void
}

function createItem(ctx: PanelContext, first: Attachment, reread: (() => Promise<void>) | null): Item {
  let file = first
  const s = ctx.strings()
  const image = isImage(file)
  const name = h('span', { class: 'name' }, file.name)
  // An <a> without href is no link: the name alone, not focusable, for a URL that is not http(s).
  const a = h('a', { class: image ? 'thumb' : 'file' }, name)
  if (image) a.append(h('span', { class: 'sr' }, ` ${s.opensInNewTab}`))
  else a.append(h('span', { class: 'size' }, s.fileSize(file.size)))
  const place = () => {
    const href = linkable(file.url)
    if (href === null) a.removeAttribute('href')
    else a.href = href
    if (href !== null && image) Object.assign(a, { target: '_blank', rel: 'noopener noreferrer' })
  }
  place()
  // A click on a link whose URL ran out: read the message again, then follow the fresh one (within
  // the click's activation, so a new tab still opens).
  a.addEventListener('click', (event) => {
    if (!reread || !isExpired(file)) return
    event.preventDefault()
    void reread().then(
      () => isExpired(file) || a.click(),
      () => {},
    )
  })
  let stop = () => {}
  let load = () => {}
  let seen = false
  const [w, h2] = fitted(file.width, file.height)
  if (image && w > 0 && linkable(file.url) !== null && typeof createImageBitmap === 'function') {
    name.hidden = true
    const canvas = h('canvas', { role: 'img', 'aria-label': file.name })
    canvas.width = w * 2
    canvas.height = h2 * 2
    // CSSOM, not a style attribute: `style-src 'self'` refuses attributes, not properties.
    canvas.style.width = `${w}px`
    a.prepend(canvas)
    const fallback = () => {
      canvas.remove()
      name.hidden = false
    }
    let askedAgain = false
    load = () => {
      if (isExpired(file) && reread && !askedAgain) {
        // Drawn once the fresh URL comes (`update`); read again once only, whatever comes.
        askedAgain = true
        void reread().catch(fallback)
        return
      }
      load = () => {}
      fetch(file.url, { credentials: 'omit' })
        .then((res) => (res.ok ? res.blob() : null))
        .then((blob) => (blob ? drawThumbnail(blob, canvas, 'contain', true) : false))
        .then(
          (drawn) => drawn || fallback(),
          () => fallback(),
        )
    }
    stop = whenVisible(a, () => {
      seen = true
      load()
    })
  }
  return {
    node: a,
    get file() {
      return file
    },
    update(fresh) {
      if (fresh.url === file.url) return
      file = fresh
      place()
      if (seen) load()
    },
    stop: () => stop(),
  }
}

/**
 * The box an image of `width`×`height` is shown in, at most THUMB_PX a side; [0, 0] (not drawn)
 * when its size is unknown or over MAX_PIXELS.
 */
function fitted(width: number | null, height: number | null): [number, number] {
  if (!width || !height || width * height > MAX_PIXELS) return [0, 0]
  const scale = Math.min(1, THUMB_PX / Math.max(width, height))
  return [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))]
}
