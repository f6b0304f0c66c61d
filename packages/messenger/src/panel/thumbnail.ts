// Image thumbnails drawn on a <canvas> from the bytes, never an <img src>: a canvas loads no URL,
// so no `img-src` of any page's policy applies (a strict page's `img-src 'self'` refuses both
// `blob:` previews and the service's own origin, and a refused load is a CSP violation). A browser
// without `createImageBitmap`, or bytes that do not decode, keep the name alone (the caller's).

/**
 * Draws `blob` on `canvas` (its width and height set by the caller), filling it (`cover`, cropped)
 * or inside it (`contain`); false when it cannot be drawn here. `sized`: the caller knows the
 * image's proportions (the canvas has them), so it is decoded straight to the canvas's size
 * (`resizeWidth`/`resizeHeight`): no full-size bitmap of a large picture is ever held.
 */
export async function drawThumbnail(
  blob: Blob,
  canvas: HTMLCanvasElement,
  fit: 'cover' | 'contain',
  sized = false,
): Promise<boolean> {
  if (typeof createImageBitmap !== 'function') return false
  try {
    const { width: w, height: h } = canvas
    const bitmap = await (sized
      ? createImageBitmap(blob, { resizeWidth: w, resizeHeight: h, resizeQuality: 'medium' })
      : createImageBitmap(blob))
    const context = canvas.getContext('2d')
    if (!context) return (bitmap.close(), false)
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

/**
 * Runs `load` once `node` is on screen (an IntersectionObserver), or at once where there is none;
 * returns what stops waiting (the row went).
 */
export function whenVisible(node: Element, load: () => void): () => void {
  if (typeof IntersectionObserver !== 'function') {
    load()
    return () => {}
  }
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return
    observer.disconnect()
    load()
  })
  observer.observe(node)
  return () => observer.disconnect()
}
