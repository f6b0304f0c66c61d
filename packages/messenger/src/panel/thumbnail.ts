// Image thumbnails drawn on a <canvas> from the bytes, never an <img src>: a canvas loads no URL,
// so no `img-src` of any page's policy applies (a strict page's `img-src 'self'` refuses both
// `blob:` previews and the service's own origin, and a refused load is a CSP violation). A browser
// without `createImageBitmap`, or bytes that do not decode, keep the name alone (the caller's).
const SVG = 'http://www.w3.org/2000/svg'

/**
 * Draws `blob` on `canvas` (its width and height set by the caller), filling it (`cover`, cropped)
 * or inside it (`contain`); false when it cannot be drawn here.
 */
export async function drawThumbnail(blob: Blob, canvas: HTMLCanvasElement, fit: 'cover' | 'contain'): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return false
  try {
    const bitmap = await createImageBitmap(blob)
    const context = canvas.getContext('2d')
    if (!context) return (bitmap.close(), false)
    const { width: w, height: h } = canvas
    const scale = (fit === 'cover' ? Math.max : Math.min)(w / bitmap.width, h / bitmap.height)
    const dw = bitmap.width * scale
    const dh = bitmap.height * scale
    context.drawImage(bitmap, (w - dw) / 2, (h - dh) / 2, dw, dh)
    bitmap.close()
    return true
  } catch {
    return false
  }
}

/** An icon of one path in a 24×24 box, hidden from screen readers (its button has a name). */
export function icon(d: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', '0 0 24 24')
  svg.setAttribute('aria-hidden', 'true')
  const path = document.createElementNS(SVG, 'path')
  path.setAttribute('d', d)
  svg.append(path)
  return svg
}
