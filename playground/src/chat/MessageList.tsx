import type { ChannelState } from '@tandem/realtime'
import { useMessages, useRealtime } from '@tandem/react/realtime'
import { memo, Profiler, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { describeError } from '../lib/format.js'
import { CHAT_TEXT, type ChatText } from './chat-text.js'
import { MessageChunk } from './message-chunk.js'
import type { ChatMessage } from './message-row.js'
import { Announcer, latestFrom } from './Announcer.js'
import { useDeliveryCheck } from './use-delivery-check.js'
import { useScrollAnchor } from './use-scroll-anchor.js'
import { FOLLOW, pageDown, pageUp, WINDOW, windowOf, type ChatWindow } from './window.js'

/**
 * Dev only: counts the commits in which the list rendered (`window.__chatListCommits`), so the
 * browser tests can check that a keystroke or a hidden panel renders none of it. Profiler's
 * callback never runs in a production build.
 */
const countCommits = () => {
  if (!import.meta.env.DEV) return // compiled out of a production build, the counter's name too
  const w = window as unknown as { __chatListCommits?: number }
  w.__chatListCommits = (w.__chatListCommits ?? 0) + 1
}

/** How close to the bottom (px) still counts as "at the bottom": new messages then scroll into view. */
const STICK_PX = 48

export interface MessageListProps {
  channel: string
  user: string
  state: ChannelState
  /** False while the panel is hidden: the list keeps collecting but renders nothing new. */
  active: boolean
  text?: Partial<ChatText>
}

/**
 * The chat's header and messages. Only a window of the messages held is in the DOM (the newest
 * 150 while the reader follows; more, up to 400, as they page back), so the page stays light
 * however long the history. It follows new messages while the reader is at the bottom, and leaves
 * a reader who scrolled up where they are, with a button that counts what arrived since.
 *
 * It reads the log's `chunks`, never `messages`: at the 10,000-message cap a new message re-renders
 * the newest chunk only, and no prop holds the whole list (React's development build diffs every
 * changed prop of every component it renders, for its performance tracks: a 10,000-item array whose
 * items all moved by one cost it a long task per frame).
 */
export const MessageList = memo(function MessageList({ channel, user, state, active, text }: MessageListProps) {
  const t = { ...CHAT_TEXT, ...text }
  const log = useMessages<ChatMessage>(channel, { event: 'message', paused: !active })
  const { chunks, count, loaded, loading, hasEarlier, error } = log
  const scroller = useRef<HTMLDivElement>(null)
  const delivery = useDeliveryCheck(useRealtime().channel(channel), scroller)

  // The window: following the newest (`pinned` undefined) or held where the reader paged back to.
  const [view, setView] = useState<ChatWindow>(FOLLOW)
  const shown = windowOf(chunks, view)
  const following = view.pinned === undefined
  const newest = chunks.at(-1)?.at(-1)?.messageId

  // Rows that come or go above the reader (earlier messages, a sliding window) leave what they see
  // where it is; the ones that came are announced (the list itself is not a live region).
  const [added, setAdded] = useState(0)
  const anchor = useScrollAnchor(scroller, {
    enabled: active && !following,
    rows: `${shown.parts[0]?.messages[0]?.messageId}…${shown.parts.at(-1)?.messages.at(-1)?.messageId}`,
    onAdded: setAdded,
  })

  const onScroll = () => {
    const el = scroller.current
    if (!el || el.clientHeight === 0) return // hidden: no position to read
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX
    if (!atBottom || !following) anchor.read()
    // Leaving the bottom holds the window where it is; at the bottom of a held window, the next
    // page comes in below (the anchor keeps what the reader sees in place).
    if (!atBottom && following) setView((v) => ({ ...v, pinned: newest }))
    else if (atBottom && !following) setView((v) => (shown.after === 0 ? FOLLOW : pageDown(chunks, v)))
  }
  // Follow the newest message, also when the panel is first shown.
  useLayoutEffect(() => {
    const el = scroller.current
    if (active && following && el) el.scrollTop = el.scrollHeight
  }, [active, following, newest, shown.start])

  const toBottom = () => {
    setView(FOLLOW)
    scroller.current?.focus()
  }
  const earlier = () => {
    anchor.read() // where the reader is now, also when the list did not scroll (it fits the view)
    setAdded(0) // the next count is a new announcement, even when it is the same number
    setView((v) => pageUp(chunks, v))
    // Nothing older held here: ask the service's history for the page before.
    if (shown.start === 0) void log.loadEarlier(WINDOW.page)
  }
  const canGoBack = shown.start > 0 || hasEarlier
  // The button goes once history is exhausted: if it had the focus, the list takes it (not the page).
  const hadFocus = useRef(false)
  useEffect(() => {
    if (canGoBack || !hadFocus.current) return
    hadFocus.current = false
    if (document.activeElement === document.body || document.activeElement === null) scroller.current?.focus()
  }, [canGoBack])

  return (
    <>
      <Profiler id="chat-list" onRender={countCommits}>
        <header className="list-head chat-head">
          <h2>#{channel.split(':')[1]}</h2>
          <span className="muted small chat-channel">
            <code>{channel}</code> · {state}
          </span>
          <span className="grow" />
          <span className="small muted" data-testid="chat-counts">
            {t.count(count)} ·{' '}
            <span className={delivery.lost ? 'error' : ''} data-testid="lost">
              {t.lost(delivery.lost)}
            </span>{' '}
            ·{' '}
            <span className={delivery.duplicated ? 'error' : ''} data-testid="duplicates">
              {t.duplicated(delivery.duplicated)}
            </span>
          </span>
        </header>
        <div className="chat-viewport">
          <div
            className="chat-scroll"
            ref={scroller}
            onScroll={onScroll}
            data-testid="messages"
            data-history={loaded ? 'loaded' : 'loading'}
            data-count={count}
            data-following={following}
            aria-label={t.history}
            role="region"
            // Scrollable: the keyboard must be able to reach it to scroll it.
            tabIndex={0}
          >
            {canGoBack && (
              <button
                type="button"
                className="chat-earlier"
                // aria-disabled, not disabled: a disabled button would drop the keyboard's focus to the page.
                aria-disabled={loading}
                onClick={() => void (loading || earlier())}
                onFocus={() => void (hadFocus.current = true)}
                data-testid="load-earlier"
              >
                {loading ? t.loadingEarlier : t.loadEarlier}
              </button>
            )}
            {error && (
              <p className="error small chat-history-error" role="alert">
                {t.historyFailed} {describeError(error)}
              </p>
            )}
            {count === 0 ? (
              <p className="muted empty-chat">{loaded ? t.empty : t.loading}</p>
            ) : (
              <ol className="chat-rows">
                {shown.parts.map((p) => (
                  <MessageChunk key={p.key} messages={p.messages} user={user} />
                ))}
              </ol>
            )}
          </div>
          {shown.after > 0 && (
            <button type="button" className="chat-new" onClick={toBottom} data-testid="new-messages">
              {t.newer(shown.after)}
            </button>
          )}
        </div>
      </Profiler>
      {/* The list is not a live region (paging adds rows): new lines from others are read from here. */}
      <Announcer latest={latestFrom(chunks, user)} active={active} said={t.said} />
      <p className="sr-only" aria-live="polite" data-testid="chat-list-status">
        {added > 0 ? t.loadedEarlier(added) : ''}
      </p>
    </>
  )
})
