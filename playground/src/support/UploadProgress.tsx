import { useUploads } from '@tandem/react/uploads'
import { describeError, fileSize } from '../lib/format.js'
import type { HeldFile } from './use-held-replies.js'
import type { SupportStrings } from './strings.js'

interface Props {
  /** The reply's idempotency key (the outbox entry's): the uploads store keys its progress by it. */
  writeKey: string
  /** Its files as the outbox stored them: shown as waiting until their upload starts (offline, after a reload). */
  files: readonly HeldFile[]
  strings: SupportStrings
  /** Cancel removes this row (and the button with focus): focus goes here instead of the page's body. */
  onCancelled(): void
}

/**
 * A held reply's files: one progress bar for the message (bytes of all its files), each file's state,
 * and Cancel, which removes the uploads on the service and drops the reply from the outbox.
 */
export function UploadProgress({ writeKey, files, strings, onCancelled }: Props) {
  const { messages, cancel } = useUploads()
  const upload = messages.find((m) => m.key === writeKey)
  const total = upload?.bytesTotal ?? files.reduce((n, f) => n + f.size, 0)
  const sent = upload?.bytesSent ?? 0
  const label = strings.uploadLabel(files.length)
  const rows = upload
    ? upload.files.map((f) => ({ name: f.name, size: f.size, status: f.status }))
    : files.map((f) => ({ ...f, status: 'waiting' as const }))
  return (
    <div className="upload-progress small" data-testid="upload-progress" data-status={upload?.status ?? 'waiting'}>
      <div className="row">
        <progress className="grow" value={sent} max={total || 1} aria-label={label} />
        <span className="muted">{strings.uploadBytes(fileSize(sent), fileSize(total))}</span>
        <button
          type="button"
          className="small"
          // Once every file is up the reply itself is on its way: there is nothing left to cancel.
          disabled={!upload || upload.status === 'sending'}
          aria-label={strings.cancelUploadLabel}
          onClick={() => {
            if (!upload) return
            onCancelled()
            void cancel(upload.key)
          }}
          data-testid="cancel-upload"
        >
          {strings.cancelUpload}
        </button>
      </div>
      <ul className="upload-files">
        {rows.map((f, i) => (
          <li key={i} dir="auto">
            {f.name} <span className="muted">({fileSize(f.size)})</span> · {strings.fileStatus[f.status]}
          </li>
        ))}
      </ul>
      {upload?.error && (
        <p className="upload-error" data-testid="upload-error">
          {strings.uploadFailed(describeError(upload.error))}
        </p>
      )}
    </div>
  )
}
