// Every word the messenger shows or announces, in English. `el.strings = { … }` merges a partial
// set over these, so a page translates what it needs and keeps the rest; plurals and sentences
// that hold a value are functions.

export interface MessengerStrings {
  /** The launcher button's name. */
  launcherLabel: string
  /** The panel's heading (the dialog's name). */
  title: string
  close: string
  back: string
  conversationsTab: string
  helpTab: string
  newConversation: string
  noConversations: string
  loading: string
  loadFailed: string
  retry: string
  /** The composer's label (visually hidden) and placeholder. */
  messageLabel: string
  messagePlaceholder: string
  send: string
  sendFailed: string
  you: string
  /** An agent with no name. */
  agent: string
  /** A conversation's status, when it is closed. */
  closed: string
  searchLabel: string
  search: string
  noResults: string
  /** Read after an article link's text (visually hidden): it opens in a new tab. */
  opensInNewTab: string
  /** What an article shows for an image (never loaded): its alt text, or a word when it has none. */
  image: (alt: string) => string
  /** The badge's accessible name, and each conversation's unread count. */
  unread: (count: number) => string
  /** `name` is null when the agent has none. */
  typing: (name: string | null) => string
  /** What the live region says when an agent's message arrives. */
  newMessage: (author: string, text: string) => string
  /** The push control (shown only when the page gives the element a `push` controller). */
  pushEnable: string
  pushEnabling: string
  pushOn: string
  pushDisable: string
  /** Said when the customer turns notifications off. */
  pushOff: string
  pushDenied: string
  /** Turning on failed; `reason` is the controller's (e.g. `permission_dismissed`), or null. */
  pushFailed: (reason: string | null) => string
  /** The attach button's name (it opens the file picker; files may also be dropped or pasted). */
  attach: string
  /** A chosen file's remove button. */
  removeFile: (name: string) => string
  /** A file's size as shown beside its name (chips and sent files). */
  fileSize: (bytes: number) => string
  /** Said when files join the message. */
  filesAdded: (count: number) => string
  /** Refusals, shown and announced. `name` is null when the service refused without saying which file. */
  fileTooBig: (name: string | null, max: string) => string
  fileWrongType: (name: string | null) => string
  tooManyFiles: (max: number) => string
  /** A chosen file whose name is longer than the service keeps. */
  fileNameTooLong: (max: number) => string
  fileQuota: string
  fileFailed: string
  /** The progress bar's name while a message's files go up. */
  sendingFiles: string
  /** The button that stops a message's files going up. */
  cancelSending: string
  /** Beside a message's progress when its send failed and waits to be tried again (Cancel stays). */
  filesWillRetry: string
  /** Said once a sending was cancelled (the text and the files stay in the composer). */
  sendCancelled: string
}

export const DEFAULT_STRINGS: Readonly<MessengerStrings> = Object.freeze({
  launcherLabel: 'Messages',
  title: 'Messages',
  close: 'Close',
  back: 'Back',
  conversationsTab: 'Messages',
  helpTab: 'Help',
  newConversation: 'New conversation',
  noConversations: 'No conversations yet. Ask us anything.',
  loading: 'Loading…',
  loadFailed: 'Could not load this.',
  retry: 'Try again',
  messageLabel: 'Message',
  messagePlaceholder: 'Write a message…',
  send: 'Send',
  sendFailed: 'Not sent. Your text is kept: try again.',
  you: 'You',
  agent: 'Support',
  closed: 'Closed',
  searchLabel: 'Search the help centre',
  search: 'Search',
  noResults: 'No articles match.',
  opensInNewTab: '(opens in a new tab)',
  image: (alt: string) => (alt ? `[Image: ${alt}]` : '[Image]'),
  unread: (count: number) => (count === 1 ? '1 unread message' : `${count} unread messages`),
  typing: (name: string | null) => `${name ?? 'An agent'} is typing…`,
  newMessage: (author: string, text: string) => `${author}: ${text}`,
  pushEnable: 'Notify me of replies',
  pushEnabling: 'Turning notifications on…',
  pushOn: 'Notifications on',
  pushDisable: 'Turn off',
  pushOff: 'Notifications off',
  pushDenied: 'Notifications are blocked in your browser settings.',
  pushFailed: (reason: string | null) =>
    `Notifications could not be turned on${reason ? ` (${reason.replace(/_/g, ' ')})` : ''}. Try again.`,
  attach: 'Attach files',
  removeFile: (name: string) => `Remove ${name}`,
  fileSize: (bytes: number) =>
    bytes < 1024
      ? `${bytes} B`
      : bytes < 1048576
        ? `${Math.round(bytes / 1024)} KB`
        : `${(bytes / 1048576).toFixed(1)} MB`,
  filesAdded: (count: number) => (count === 1 ? '1 file attached' : `${count} files attached`),
  fileTooBig: (name: string | null, max: string) => `${name ?? 'A file'} is too big to send: the limit is ${max}.`,
  fileWrongType: (name: string | null) =>
    `${name ?? 'A file'} cannot be sent: only images (PNG, JPEG, GIF, WebP), PDFs and text files can.`,
  tooManyFiles: (max: number) => `Up to ${max} files can go in one message.`,
  fileNameTooLong: (max: number) => `A file's name is too long: rename it to at most ${max} characters.`,
  fileQuota: 'There is no room left for your files. Send fewer or smaller ones.',
  fileFailed: 'The files could not be sent. Your message is kept: try again.',
  sendingFiles: 'Sending files',
  cancelSending: 'Cancel',
  filesWillRetry: 'Sending failed; trying again.',
  sendCancelled: 'Sending cancelled. Your message is kept.',
})
