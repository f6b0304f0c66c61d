// Every string the chat shows, in one place: an app passes its own (another language, its tone).
export const CHAT_TEXT = {
  history: 'Chat history',
  loading: 'Loading the conversation…',
  empty: 'No messages yet. Say hello, then open this page in another tab.',
  loadEarlier: 'Load earlier messages',
  loadingEarlier: 'Loading earlier messages…',
  loadedEarlier: (n: number) => `${n.toLocaleString('en')} earlier ${n === 1 ? 'message' : 'messages'} loaded`,
  historyFailed: 'Could not load the history.',
  newer: (n: number) => `${n.toLocaleString('en')} newer ${n === 1 ? 'message' : 'messages'} ↓`,
  count: (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'message' : 'messages'}`,
  lost: (n: number) => `${n.toLocaleString('en')} lost`,
  duplicated: (n: number) => `${n.toLocaleString('en')} duplicated`,
  said: (who: string, text: string) => `${who}: ${text}`,
  online: 'Online',
  onlineCount: (n: number) => `(${n})`,
  offlinePresence: 'Not connected: this is who was online when the connection was lost.',
  flood: 'Flood 1,000 messages',
}
export type ChatText = typeof CHAT_TEXT
