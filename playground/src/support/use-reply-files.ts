import { checkFiles } from '@tandem/core/uploads'
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

/** Why core's check refuses `file` alone (size, type, name length), or null when it may go. */
function refusalOf(file: File, strings: SupportStrings): string | null {
  try {
    checkFiles([file])
    return null
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (code === 'upload_too_large') return strings.tooBig(file.name)
    if (code === 'upload_type_not_allowed') return strings.wrongType(file.name)
    return strings.nameTooLong
  }
}

/** Whether the files of a reply pass core's check together (the count; each one passed alone). */
function fits(files: File[]): boolean {
  try {
    checkFiles(files)
    return true
  } catch {
    return false
  }
}

/**
 * The files chosen for the next reply. Each is checked as it is added by the client's own check
 * (`checkFiles` of @tandem/core/uploads: the rules a send applies; the service checks again): a
 * person hears at once what will not go, not after the reply was queued.
 */
export function useReplyFiles(strings: SupportStrings): ReplyFiles {
  const [files, setFiles] = useState<readonly File[]>([])
  const [notice, setNotice] = useState('')

  const add = useCallback(
    (list: Iterable<File>) => {
      const refused: string[] = []
      const kept: File[] = []
      let tooMany = false
      for (const f of list) {
        const refusal = refusalOf(f, strings)
        if (refusal !== null) refused.push(refusal)
        else if (fits([...files, ...kept, f])) kept.push(f)
        else tooMany = true
      }
      if (tooMany) refused.push(strings.tooMany)
      if (kept.length) setFiles([...files, ...kept])
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
