// Podcasts, a section of the admin's Music page: who may add a new podcast feed to the server
// (everyone, or admins only; members may always follow a feed already added). decision 078.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Switch } from '~/client/ui/switch'
import { mutedText } from '~/client/ui/text'
import { toast } from '~/client/ui/toaster'
import { ErrorBox, Panel, PanelLoading } from '../panels/panel'

export function PodcastsPanel() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const query = useQuery(trpc.podcasts.settings.queryOptions())
  const save = useMutation(
    trpc.podcasts.setSettings.mutationOptions({
      onSuccess: (s) => {
        void queryClient.invalidateQueries({ queryKey: trpc.podcasts.settings.queryKey() })
        toast({ title: s.feedsBy === 'admins' ? 'Only admins may add new podcast feeds' : 'Every member may add podcast feeds', type: 'success' })
      },
      onError: (error) => toast({ title: 'Failed to save the podcast setting', description: errorMessage(error, 'Please try again.'), type: 'error' }),
    }),
  )
  return (
    <Panel title="Podcasts">
      {query.isPending ? (
        <PanelLoading label="Loading the podcast setting" />
      ) : query.isError ? (
        <ErrorBox message={errorMessage(query.error, 'Failed to load the podcast setting')} />
      ) : (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <Switch
            label="Only admins may add new podcast feeds"
            checked={query.data.feedsBy === 'admins'}
            disabled={save.isPending}
            onCheckedChange={(on) => save.mutate({ feedsBy: on ? 'admins' : 'everyone' })}
            className={css({ h: '11' })}
          />
          <p className={mutedText({ size: 'sm' })}>Members can still follow podcasts already on the server.</p>
        </div>
      )}
    </Panel>
  )
}
