import { UPLOADS } from '@tandem/contract'
import { CONNECTIVITY_STRINGS } from '../lib/connectivity.js'
import { fileSize } from '../lib/format.js'

/**
 * The support panel's words, in one place so an app can replace any of them (another language,
 * its own tone): pass `strings={{ … }}` to `<SupportPanel>`; what is left out keeps its default.
 */
export const SUPPORT_STRINGS = {
  /** The list's count. The service gives no total: with more pages it is "15+", never a guess. */
  count: (loaded: number, more: boolean) => (more ? `${loaded}+` : `${loaded}`),
  countTitle: (loaded: number, more: boolean) =>
    more ? `${loaded} loaded; the service has more (Load more)` : `${loaded} in all`,
  shown: (loaded: number, more: boolean) => (more ? `${loaded} shown, more to load` : `all ${loaded} shown`),
  loadMore: 'Load more',
  loading: 'Loading…',
  close: 'Close',
  closeLabel: 'Close the conversation',
  setStatus: 'Set status',
  /** Why a status button does nothing: the service reopens a closed conversation only through a reply. */
  reopenByReply: 'A closed conversation reopens with a reply',
  /** Other agents on the conversation (resource presence). */
  alsoViewing: (names: string) => `Also viewing: ${names}`,
  typing: (names: string, many: boolean) => `${names} ${many ? 'are' : 'is'} typing…`,
  lockedBy: (name: string, until: string) => `Locked by ${name} until ${until}`,
  lockedByYou: (until: string) => `Locked by you until ${until}`,
  /** This agent clicked Lock while another holds it: the claim waits its turn (`position` 1 is next). */
  lockWaiting: (name: string, until: string, position: number) =>
    `Locked by ${name} until ${until} — ${position === 1 ? "you're next" : `${position - 1} waiting before you`}`,
  /** Said (politely) when a waiting claim comes to hold the lock. */
  lockGained: 'You now hold the lock',
  lock: 'Lock',
  unlock: 'Unlock',
  /** The button while this agent's claim waits: withdraws it. */
  stopWaiting: 'Stop waiting',
  stopWaitingTitle: 'Withdraw your claim: the lock will not pass to you',
  lockTitle: 'An advisory lock: the other agents see that you are replying (it lapses after a minute unless renewed)',
  /** Under the reply box while another agent holds the lock: a warning, not a block. */
  lockedWarning: (name: string) => `${name} holds the lock on this conversation: you can still reply.`,
  /** A reply waiting in the outbox (offline, or not applied yet): it goes when the service answers. */
  sending: 'sending…',
  heldBecause: (code: string) => `Waiting to be sent (last attempt: ${code}); it goes again by itself`,
  /** The customer types in this conversation (the service's member for them on the presence channel). */
  customerTyping: (name: string) => `${name} is typing…`,
  /** The customer when the service knows neither a name nor an email. */
  theCustomer: 'The customer',
  /** Under the last reply the customer has read (`customerRead`). */
  seen: 'Seen',
  /** Files: a message's attachments, the reply's chosen files, their upload. */
  attachmentsLabel: (n: number) => (n === 1 ? '1 file' : `${n} files`),
  imageAlt: (name: string) => `Image: ${name}`,
  attach: 'Attach files',
  attachHint: `Or drop files on the reply box. Images, PDF or text, up to ${fileSize(UPLOADS.maxFileBytes)} each.`,
  chosenLabel: 'Files to send',
  removeFile: (name: string) => `Remove ${name}`,
  tooBig: (name: string) => `${name} is larger than ${fileSize(UPLOADS.maxFileBytes)}: it was not added.`,
  wrongType: (name: string) => `${name} is not an image, a PDF or a text file: it was not added.`,
  nameTooLong: `A file's name is longer than ${UPLOADS.nameChars} characters: it was not added.`,
  tooMany: `A reply takes at most ${UPLOADS.filesPerMessage} files: the others were not added.`,
  uploadLabel: (n: number) => (n === 1 ? 'Uploading 1 file' : `Uploading ${n} files`),
  uploadBytes: (sent: string, total: string) => `${sent} of ${total}`,
  cancelUpload: 'Cancel',
  cancelUploadLabel: 'Cancel this reply and its upload',
  fileStatus: { waiting: 'waiting', uploading: 'uploading', done: 'uploaded' } as const,
  uploadFailed: (why: string) => `The upload stopped (${why}); it goes again by itself.`,
  /** The list row's badge. */
  viewers: (n: number) => `👁 ${n}`,
  viewersLabel: (names: string) => `Viewed by ${names}`,
  /** Why the list could not refresh when the connection is the cause (a polite notice; the saved rows stay). */
  offline: CONNECTIVITY_STRINGS.offline,
  unreachable: CONNECTIVITY_STRINGS.unreachable,
}

export type SupportStrings = typeof SUPPORT_STRINGS
