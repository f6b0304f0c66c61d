import type { Conversation, ConversationCreate, Mailbox } from '@tandem/core'
import { useMutation } from '@tandem/react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { ErrorDetails } from '../lib/ErrorDetails.js'
import { errorField } from '../lib/format.js'

interface Props {
  mailboxes: readonly Mailbox[]
  defaultMailboxId: string | undefined
  onCreated(c: Conversation): void
  onCancel(): void
}

/** A conversation as a customer would start it (here, from the agent's own tab, for the demo). */
export function NewConversation({ mailboxes, defaultMailboxId, onCreated, onCancel }: Props) {
  const [mailboxId, setMailboxId] = useState(defaultMailboxId ?? mailboxes[0]?.id ?? '')
  const [subject, setSubject] = useState('Where is my order?')
  const [name, setName] = useState('Kim Lee')
  const [email, setEmail] = useState('kim@example.com')
  const [text, setText] = useState('Hi! My order #1042 has not arrived yet. Could you check?')
  // No `invalidate` needed: the new conversation reaches every open list through the live channel.
  const create = useMutation((input: ConversationCreate, client) => client.support.conversations.create(input), {
    onSuccess: onCreated,
  })

  // Opened: the keyboard is in the form at once (its first field), not left on the button that opened it.
  const first = useRef<HTMLSelectElement>(null)
  useEffect(() => first.current?.focus(), [])

  // An edit makes the last refusal stale: its field errors go (the next submit checks again).
  const edited =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v)
      if (create.status === 'error') create.reset()
    }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (create.status === 'pending') return
    create.mutate({ mailboxId: mailboxId || (mailboxes[0]?.id ?? ''), subject, customer: { email, name }, text })
  }

  // The field a refusal is about gets it: aria-invalid, and the sentence as its description.
  const refused = create.status === 'error' ? (errorField(create.error) ?? '') : undefined
  const invalid = (...fields: string[]) =>
    refused !== undefined && fields.some((f) => refused === f || refused.startsWith(`${f}.`))
      ? { 'aria-invalid': true, 'aria-describedby': 'new-conversation-error' }
      : {}

  return (
    <form className="new-conversation" onSubmit={submit} aria-label="New conversation">
      <h2>New conversation</h2>
      <p className="muted small">As a customer writing in. Other tabs see it appear live.</p>
      <label>
        Mailbox
        <select
          ref={first}
          value={mailboxId}
          onChange={(e) => edited(setMailboxId)(e.target.value)}
          {...invalid('mailboxId')}
        >
          {mailboxes.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Subject{' '}
        <input
          value={subject}
          onChange={(e) => edited(setSubject)(e.target.value)}
          required
          dir="auto"
          {...invalid('subject')}
        />
      </label>
      <div className="row">
        <label className="grow">
          Customer name{' '}
          <input
            value={name}
            onChange={(e) => edited(setName)(e.target.value)}
            dir="auto"
            {...invalid('customer.name')}
          />
        </label>
        <label className="grow">
          Email{' '}
          <input
            type="email"
            value={email}
            onChange={(e) => edited(setEmail)(e.target.value)}
            required
            {...invalid('customer.email', 'customer')}
          />
        </label>
      </div>
      <label>
        Message{' '}
        <textarea
          rows={4}
          value={text}
          onChange={(e) => edited(setText)(e.target.value)}
          required
          dir="auto"
          {...invalid('text')}
        />
      </label>
      {create.status === 'error' && (
        <ErrorDetails error={create.error} service="support" id="new-conversation-error" data-testid="create-error" />
      )}
      <div className="row">
        <span className="grow" />
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {/* aria-disabled while sending: a disabled button drops focus to the body, and a refusal
            then left the keyboard nowhere near the fields to fix. */}
        <button type="submit" className="primary" aria-disabled={create.status === 'pending'}>
          {create.status === 'pending' ? 'Creating…' : 'Create'}
        </button>
      </div>
    </form>
  )
}
