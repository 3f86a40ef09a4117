// Reordering: the list changes at once; the order is sent after a
// 500 ms pause. `saving` is true from the first change until the server has answered.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { folderErrorMessage } from './folder-errors'
import { useTRPC } from '~/client/trpc'
import { toast } from '~/client/ui/toaster'
import type { Folder } from './types'
import { useFolderAuthError } from './use-folder-auth-error'

export const REORDER_SAVE_DELAY_MS = 500

export function useOrderSaver() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const handleAuthError = useFolderAuthError()
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const [saving, setSaving] = useState(false)
  const listKey = trpc.folders.list.queryKey()

  const reorder = useMutation(
    trpc.folders.reorder.mutationOptions({
      onSuccess: (list) => {
        if (!timer.current) queryClient.setQueryData(listKey, list)
      },
      onError: (error) => {
        if (handleAuthError(error)) return
        // Shown for every failure (the global handler's generic toast, if any, is replaced): the
        // cards jump back to the saved order, and this says why.
        toast({
          title: 'Failed to save folder order',
          description: folderErrorMessage('reorder', error),
          type: 'error',
        })
        // Back to what the server holds.
        void queryClient.invalidateQueries({ queryKey: listKey })
      },
      onSettled: () => {
        if (!timer.current) setSaving(false)
      },
    }),
  )
  const mutate = reorder.mutate

  const schedule = useCallback(
    (items: Folder[]) => {
      setSaving(true)
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => {
        timer.current = null
        mutate({ folderIds: items.map((f) => f.id) })
      }, REORDER_SAVE_DELAY_MS)
    },
    [mutate],
  )

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), [])
  return { schedule, saving }
}
