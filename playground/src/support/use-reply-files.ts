import { UPLOADS, isUploadMediaType } from '@tandem/contract'
import { useCallback, useState, type DragEvent } from 'react'
import type { SupportStrings } from './strings.js'

export interface ReplyFiles {
  files: readonly File[]
  /** What the last add left out and why, one sentence per file (announced politely). */
  notice: string
  add(list: Iterable<File>): void
  remove(index: number): void
  /** After a send: the files went with the reply. */
  clear(): void
  /** Drag-and-drop onto the reply form. */
  drop: { onDragOver(e: DragEvent): void; onDrop(e: DragEvent): void }
}

/**
 * The files chosen for the next reply. Each is checked against the contract's limits as it is
 * added (the SDK checks again, and the service too): a person hears at once what will not go,
 * not after the reply was queued.
 */
export function useReplyFiles(strings: SupportStrings): ReplyFiles {
  const [files, setFiles] = useState<readonly File[]>([])
  const [notice, setNotice] = useState('')

  const add = useCallback(
    (list: Iterable<File>) => {
      const refused: string[] = []
      const kept: File[] = []
      for (const f of list) {
        if (!isUploadMediaType(f.type)) refused.push(strings.wrongType(f.name))
        else if (f.size > UPLOADS.maxFileBytes) refused.push(strings.tooBig(f.name))
        else kept.push(f)
      }
      const room = Math.max(0, UPLOADS.filesPerMessage - files.length)
      if (kept.length > room) refused.push(strings.tooMany)
      if (kept.length && room) setFiles([...files, ...kept.slice(0, room)])
      setNotice(refused.join(' '))
    },
    [strings, files],
  )

  const remove = useCallback((index: number) => setFiles((had) => had.filter((_, i) => i !== index)), [])
  const clear = useCallback(() => {
    setFiles([])
    setNotice('')
  }, [])

  const drop = {
    onDragOver(e: DragEvent) {
      if (!e.dataTransfer.types.includes('Files')) return
      e.preventDefault() // says "a drop is welcome here"
      e.dataTransfer.dropEffect = 'copy'
    },
    onDrop(e: DragEvent) {
      if (!e.dataTransfer.files.length) return
      e.preventDefault() // else the browser opens the file in the tab
      add(e.dataTransfer.files)
    },
  }
  return { files, notice, add, remove, clear, drop }
}
