// /admin/messages: filters All / Unread / Important, refresh,
// a list at most 600 px tall loaded 50 at a time, and the detail pane with read / important
// toggles, delete (confirmed) and Reply (a mailto: link). Opening a message loads its detail and
// marks it read. Flag changes patch the cached lists in place, so a message just read stays in
// the Unread list until the next refresh instead of vanishing under the pointer.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { ConfirmDialog } from '~/client/ui/confirm-dialog'
import { button, Button } from '~/client/ui/button'
import { Spinner } from '~/client/ui/spinner'
import { toast } from '~/client/ui/toaster'
import type { MessageFilter } from '~/shared/validators/admin'
import { css, cx } from 'styled-system/css'
import { ErrorPanel, pageTitle, panel, RefreshIcon } from '../users/parts'
import { MessageDetail, type Message } from './message-detail'
import { MessageList, type MessageSummary } from './message-list'
import { stack } from 'styled-system/patterns'

const PAGE_SIZE = 50
const FILTERS: Array<{ value: MessageFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'important', label: 'Important' },
]

type Page = { messages: MessageSummary[]; nextCursor: string | null; counts: { total: number; unread: number; important: number } }

export function MessagesPage() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [filter, setFilter] = useState<MessageFilter>('all')
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const detailRef = useRef<HTMLDivElement>(null)

  const list = useInfiniteQuery({
    ...trpc.admin.messages.list.infiniteQueryOptions({ filter, limit: PAGE_SIZE }, { getNextPageParam: (last) => last.nextCursor ?? undefined }),
    retry: false,
  })
  const detail = useQuery({ ...trpc.admin.messages.byId.queryOptions({ id: selectedId ?? '' }), enabled: selectedId !== null, retry: false })

  useEffect(() => {
    if (list.error) toast({ title: 'Failed to fetch messages', description: errorMessage(list.error, 'An unexpected error occurred'), type: 'error' })
  }, [list.error])
  useEffect(() => {
    if (detail.error) toast({ title: 'Failed to load message details', description: errorMessage(detail.error, 'An unexpected error occurred'), type: 'error' })
  }, [detail.error])

  /** Applies new flags to every cached list page and to the counts, and to the cached detail. */
  const patchCaches = (id: string, before: { read: boolean; important: boolean }, after: { read: boolean; important: boolean }) => {
    const unreadDelta = before.read === after.read ? 0 : after.read ? -1 : 1
    const importantDelta = before.important === after.important ? 0 : after.important ? 1 : -1
    queryClient.setQueriesData<InfiniteData<Page>>(
      trpc.admin.messages.list.pathFilter(),
      (data) =>
        data && {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            counts: { ...p.counts, unread: p.counts.unread + unreadDelta, important: p.counts.important + importantDelta },
            messages: p.messages.map((m) => (m.id === id ? { ...m, ...after } : m)),
          })),
        },
    )
    queryClient.setQueryData(trpc.admin.messages.byId.queryKey({ id }), (old) => old && { ...old, ...after })
    // The other filters' cached lists may now miss or wrongly hold this message: reload them when shown.
    void queryClient.invalidateQueries({ ...trpc.admin.messages.list.pathFilter(), refetchType: 'none' })
  }

  const findSummary = (id: string) => list.data?.pages.flatMap((p) => p.messages).find((m) => m.id === id)

  const update = useMutation(
    trpc.admin.messages.update.mutationOptions({
      // Every call flips the flags it names (a toggle, or unread → read on open).
      onSuccess: (message, vars) =>
        patchCaches(
          message.id,
          { read: vars.read === undefined ? message.read : !message.read, important: vars.important === undefined ? message.important : !message.important },
          { read: message.read, important: message.important },
        ),
    }),
  )

  // Toggles from the detail pane announce themselves; the mark-read on open is silent.
  const toggle = (message: Message, field: 'read' | 'important') => {
    const value = !message[field]
    update.mutate(
      { id: message.id, [field]: value },
      {
        onSuccess: () =>
          toast({
            title:
              field === 'read'
                ? value
                  ? 'Message marked as read'
                  : 'Message marked as unread'
                : value
                  ? 'Message marked as important'
                  : 'Message marked as not important',
            type: 'success',
          }),
        onError: (error) => toast({ title: 'Failed to update message', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' }),
      },
    )
  }

  // Opening an unread message marks it read once its detail has arrived (after the GET, so a
  // late detail answer cannot overwrite the new flag).
  const [markRead, setMarkRead] = useState<string | null>(null)
  const { mutate } = update
  useEffect(() => {
    if (!markRead || detail.data?.id !== markRead) return
    setMarkRead(null)
    if (!detail.data.read)
      mutate(
        { id: markRead, read: true },
        { onError: (error) => toast({ title: 'Failed to update message', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' }) },
      )
  }, [markRead, detail.data, mutate])

  const open = (summary: MessageSummary) => {
    setSelectedId(summary.id)
    setMarkRead(summary.read ? null : summary.id)
    // On phones the detail sits below the list: bring it into view.
    if (window.matchMedia('(max-width: 767px)').matches) requestAnimationFrame(() => detailRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }))
  }

  const remove = useMutation(
    trpc.admin.messages.delete.mutationOptions({
      onSuccess: ({ id }) => {
        const gone = detail.data?.id === id ? detail.data : findSummary(id)
        queryClient.setQueriesData<InfiniteData<Page>>(
          trpc.admin.messages.list.pathFilter(),
          (data) =>
            data && {
              ...data,
              pages: data.pages.map((p) => ({
                ...p,
                counts: gone
                  ? { total: p.counts.total - 1, unread: p.counts.unread - (gone.read ? 0 : 1), important: p.counts.important - (gone.important ? 1 : 0) }
                  : p.counts,
                messages: p.messages.filter((m) => m.id !== id),
              })),
            },
        )
        queryClient.removeQueries({ queryKey: trpc.admin.messages.byId.queryKey({ id }) })
        void queryClient.invalidateQueries({ ...trpc.admin.messages.list.pathFilter(), refetchType: 'none' })
        setConfirmDelete(false)
        setSelectedId(null)
        toast({ title: 'Message deleted successfully', type: 'success' })
      },
      onError: (error) => {
        setConfirmDelete(false)
        toast({ title: 'Failed to delete message', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' })
      },
    }),
  )

  const messages = list.data?.pages.flatMap((p) => p.messages) ?? []
  const counts = list.data?.pages[0]?.counts
  const refresh = () => {
    void queryClient.invalidateQueries(trpc.admin.messages.list.pathFilter())
    if (selectedId) void detail.refetch()
  }

  return (
    <section aria-labelledby="messages-title" className={stack({ gap: '5' })}>
      <div>
        <Link to="/admin/dashboard" className={button({ variant: 'outline', size: 'sm' })}>
          <span aria-hidden="true">←</span> Back to Dashboard
        </Link>
      </div>
      <header className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <div>
          <h2 id="messages-title" className={pageTitle}>
            Messages
          </h2>
          <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
            {counts ? `${counts.total} total · ${counts.unread} unread · ${counts.important} important` : 'Contact form messages'}
          </p>
        </div>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          {/* biome-ignore lint/a11y/useSemanticElements: a row of filter buttons, not a form fieldset */}
          <div
            role="group"
            aria-label="Filter messages"
            className={css({ display: 'inline-flex', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg', p: '0.5', gap: '0.5' })}
          >
            {FILTERS.map((f) => (
              <button
                key={f.value}
                type="button"
                aria-pressed={filter === f.value}
                onClick={() => setFilter(f.value)}
                className={css({
                  h: '7',
                  px: '3',
                  fontSize: 'sm',
                  fontWeight: 'medium',
                  borderRadius: 'md',
                  cursor: 'pointer',
                  color: 'fg.muted',
                  _hover: { color: 'fg.default' },
                  '&[aria-pressed=true]': { bg: 'accent.muted', color: 'fg.default' },
                })}
              >
                {f.label}
              </button>
            ))}
          </div>
          <Button variant="outline" size="sm" onClick={refresh} disabled={list.isFetching} aria-label="Refresh messages">
            <RefreshIcon /> Refresh
          </Button>
        </div>
      </header>

      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'minmax(260px, 2fr) 3fr' }, gap: '5', alignItems: 'start' })}>
        <div className={cx(panel, css({ p: '0 !important', overflow: 'hidden' }))}>
          {list.isPending || (list.isFetching && !list.isFetchingNextPage && messages.length === 0) ? (
            <div className={css({ display: 'flex', justifyContent: 'center', py: '12' })}>
              <Spinner label="Loading messages" />
            </div>
          ) : list.isError ? (
            <div className={css({ p: '4' })}>
              <ErrorPanel message="Failed to fetch messages" onRetry={() => void list.refetch()} />
            </div>
          ) : messages.length === 0 ? (
            <p className={css({ color: 'fg.muted', textAlign: 'center', py: '12', px: '4' })}>No messages match the current filter</p>
          ) : (
            <MessageList
              messages={messages}
              selectedId={selectedId}
              onOpen={open}
              hasMore={list.hasNextPage}
              loadingMore={list.isFetchingNextPage}
              onLoadMore={() => void list.fetchNextPage()}
            />
          )}
        </div>
        <div ref={detailRef} className={cx(panel, css({ scrollMarginTop: '20', minH: { md: '72' } }))}>
          {selectedId === null ? (
            <p className={css({ color: 'fg.muted', textAlign: 'center', py: '16' })}>Select a message to view</p>
          ) : detail.isPending ? (
            <div className={css({ display: 'flex', justifyContent: 'center', py: '16' })}>
              <Spinner label="Loading message" />
            </div>
          ) : detail.isError ? (
            <ErrorPanel message={errorMessage(detail.error, 'Failed to load message details')} onRetry={() => void detail.refetch()} />
          ) : (
            <MessageDetail
              message={detail.data}
              busy={update.isPending || remove.isPending}
              onToggle={(field) => toggle(detail.data, field)}
              onDelete={() => setConfirmDelete(true)}
            />
          )}
        </div>
      </div>

      <ConfirmDialog
        open={confirmDelete && selectedId !== null}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => selectedId && remove.mutate({ id: selectedId })}
        busy={remove.isPending}
        title="Delete Message"
        description="Are you sure you want to delete this message?"
      />
    </section>
  )
}
