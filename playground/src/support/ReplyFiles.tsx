import { UPLOAD_MEDIA_TYPES } from '@tandem/contract'
import { useRef } from 'react'
import { fileSize } from '../lib/format.js'
import type { SupportStrings } from './strings.js'
import type { ReplyFiles as Chosen } from './use-reply-files.js'

/**
 * The reply's "Attach files" button (a real button in front of a hidden file input), the chosen
 * files as chips with a remove button each, and what was left out, said politely. Drops land on
 * the whole reply form (`useReplyFiles().drop`).
 */
export function ReplyFiles({ chosen, strings }: { chosen: Chosen; strings: SupportStrings }) {
  const input = useRef<HTMLInputElement>(null)
  const attach = useRef<HTMLButtonElement>(null)
  return (
    <div className="reply-files">
      <div className="row">
        <input
          ref={input}
          type="file"
          multiple
          hidden
          accept={UPLOAD_MEDIA_TYPES.join(',')}
          data-testid="reply-file-input"
          onChange={(e) => {
            chosen.add(e.target.files ?? [])
            e.target.value = '' // the same file can be chosen again after a remove
          }}
        />
        <button
          ref={attach}
          type="button"
          onClick={() => input.current?.click()}
          aria-describedby="attach-hint"
          data-testid="attach"
        >
          📎 {strings.attach}
        </button>
        <span id="attach-hint" className="muted small">
          {strings.attachHint}
        </span>
      </div>
      {chosen.files.length > 0 && (
        <ul className="file-chips" aria-label={strings.chosenLabel} data-testid="chosen-files">
          {chosen.files.map((f, i) => (
            <li key={`${i}:${f.name}`} className="file-chip small">
              <span dir="auto">{f.name}</span> <span className="muted">({fileSize(f.size)})</span>
              <button
                type="button"
                aria-label={strings.removeFile(f.name)}
                onClick={() => {
                  chosen.remove(i)
                  // The chip (and this button) goes: focus stays in the reply, on Attach.
                  attach.current?.focus()
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {/* Always rendered, so a screen reader hears what comes into it. */}
      <p className="file-notice small" role="status" data-testid="file-notice">
        {chosen.notice}
      </p>
    </div>
  )
}
