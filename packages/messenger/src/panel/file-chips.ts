// The files chosen for the next message, as chips: a thumbnail for an image (drawn on a canvas:
// see thumbnail.ts), the name and size, and a remove button. Files are checked against the
// contract as they come (file-checks.ts): a refused one never becomes a chip, and its sentence
// goes to the composer. Removing a chip moves focus to its neighbour's button (or the composer's
// box), never to the page.
import { IMAGE_MEDIA_TYPES, type UploadMediaType } from '@tandem/contract'
import { h } from '@tandem/elements'
import { checkFiles } from './file-checks.js'
import { drawThumbnail } from './thumbnail.js'
import type { PanelContext } from './view.js'

/** A chip's thumbnail, in CSS pixels (drawn at twice that for sharp screens). */
const CHIP_PX = 40

export interface FileChips {
  readonly node: HTMLUListElement
  /** The files of the next message, in the order chosen. */
  files(): readonly File[]
  /** Adds what passes the checks; returns the refusals' sentences (empty: all added). */
  add(files: readonly File[]): string[]
  /** Takes these files' chips away (they were sent). */
  remove(files: readonly File[]): void
  /** The strings changed. */
  refresh(): void
}

interface Chip {
  file: File
  li: HTMLLIElement
  remove: HTMLButtonElement
  size: HTMLElement
}

/** `fallback` takes focus when the last chip goes. */
export function createFileChips(ctx: PanelContext, fallback: () => void): FileChips {
  const node = h('ul', { class: 'chips', hidden: '' })
  const chips: Chip[] = []

  const label = (chip: Chip) => {
    const s = ctx.strings()
    chip.remove.setAttribute('aria-label', s.removeFile(chip.file.name))
    chip.size.textContent = s.fileSize(chip.file.size)
  }

  const drop = (chip: Chip) => {
    const at = chips.indexOf(chip)
    if (at < 0) return
    const hadFocus = (node.getRootNode() as Document | ShadowRoot).activeElement === chip.remove
    chips.splice(at, 1)
    chip.li.remove()
    node.hidden = chips.length === 0
    if (!hadFocus) return
    const next = chips[at] ?? chips[at - 1]
    if (next) next.remove.focus()
    else fallback()
  }

  const chip = (file: File): Chip => {
    const remove = h('button', { type: 'button', class: 'icon remove' }, '×')
    const size = h('span', { class: 'size' })
    const li = h('li', { class: 'chip' }, h('span', { class: 'name' }, file.name), size, remove)
    const made: Chip = { file, li, remove, size }
    if (IMAGE_MEDIA_TYPES.includes(file.type as UploadMediaType)) {
      const canvas = h('canvas', { 'aria-hidden': 'true', width: String(CHIP_PX * 2), height: String(CHIP_PX * 2) })
      // Shown only once drawn: an image this browser cannot draw keeps the name chip.
      void drawThumbnail(file, canvas, 'cover').then((drawn) => drawn && li.prepend(canvas))
    }
    remove.addEventListener('click', () => drop(made))
    label(made)
    return made
  }

  return {
    node,
    files: () => chips.map((c) => c.file),
    add(files) {
      const { accepted, refusals } = checkFiles(
        chips.map((c) => c.file),
        files,
        ctx.strings(),
      )
      for (const file of accepted) {
        const made = chip(file)
        chips.push(made)
        node.append(made.li)
      }
      node.hidden = chips.length === 0
      if (accepted.length > 0) ctx.announce(ctx.strings().filesAdded(accepted.length))
      return refusals
    },
    remove(files) {
      for (const c of chips.filter((c) => files.includes(c.file))) drop(c)
    },
    refresh: () => chips.forEach(label),
  }
}
