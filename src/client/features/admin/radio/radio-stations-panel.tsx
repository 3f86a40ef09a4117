// The Music page's Internet radio section: the stations every member sees on /radio (and apps through
// getInternetRadioStations). Add, edit and delete (confirmed); the server checks each URL with the
// remote-folder address policy and its refusal shows under the field it names.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { ConfirmDialog } from '~/client/ui/confirm-dialog'
import { Button } from '~/client/ui/button'
import { Modal, modalFooter } from '~/client/ui/modal'
import { table, TableHead } from '~/client/ui/table'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { relativeTime } from '~/shared/relative-time'
import { RadioStationFormSchema } from '~/shared/validators'
import { EmptyState, ErrorBox, Panel, PanelLoading, TableScroll } from '../panels/panel'

type Station = { id: string; name: string; streamUrl: string; homepageUrl: string | null; updatedAt: Date; updatedBy: string | null }

/** The field a server refusal names (the address policy's answers carry it), for the form to show it there. */
function fieldOf(error: unknown): 'streamUrl' | 'homepageUrl' | 'name' | null {
  const fields = (error as { data?: { fieldErrors?: Record<string, string> } })?.data?.fieldErrors ?? {}
  return (['streamUrl', 'homepageUrl', 'name'] as const).find((f) => f in fields) ?? null
}

function StationDialog({ station, open, onOpenChange }: { station: Station | null; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [busy, setBusy] = useState(false)
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      title={station ? 'Edit station' : 'Add station'}
      description="The stream is played through this server; its address must be one the server may reach."
    >
      <StationForm station={station} onBusy={setBusy} onClose={() => onOpenChange(false)} />
    </Modal>
  )
}

function StationForm({ station, onBusy, onClose }: { station: Station | null; onBusy: (busy: boolean) => void; onClose: () => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const form = useForm(RadioStationFormSchema, { name: station?.name ?? '', streamUrl: station?.streamUrl ?? '', homepageUrl: station?.homepageUrl ?? '' })
  const [serverError, setServerError] = useState<{ field: string | null; message: string } | null>(null)
  const options = {
    onMutate: () => {
      setServerError(null)
      onBusy(true)
    },
    onSettled: () => onBusy(false),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.radio.pathKey() })
      toast({ title: station ? 'Station saved' : 'Station added', type: 'success' })
      onClose()
    },
    onError: (error: unknown) => setServerError({ field: fieldOf(error), message: errorMessage(error, 'Could not save the station') }),
  }
  const create = useMutation(trpc.radio.create.mutationOptions(options))
  const update = useMutation(trpc.radio.update.mutationOptions(options))
  const pending = create.isPending || update.isPending
  const errorFor = (field: 'name' | 'streamUrl' | 'homepageUrl') => form.error(field) ?? (serverError?.field === field ? serverError.message : undefined)

  return (
    <form
      noValidate
      className={stack({ gap: '4' })}
      onSubmit={(e) => {
        e.preventDefault()
        if (!form.isValid) return form.touchAll()
        const values = form.parsed()
        if (station) update.mutate({ ...values, id: station.id })
        else create.mutate(values)
      }}
    >
      <TextField label="Name" autoComplete="off" disabled={pending} {...form.field('name')} error={errorFor('name')} />
      <TextField
        label="Stream URL"
        type="url"
        placeholder="https://stream.example.org/live.mp3"
        autoComplete="off"
        disabled={pending}
        {...form.field('streamUrl')}
        error={errorFor('streamUrl')}
      />
      <TextField
        label="Homepage (optional)"
        type="url"
        placeholder="https://example.org/"
        autoComplete="off"
        disabled={pending}
        {...form.field('homepageUrl')}
        error={errorFor('homepageUrl')}
      />
      {serverError && !serverError.field && (
        <p role="alert" className={css({ color: 'danger.fg', fontSize: 'sm' })}>
          {serverError.message}
        </p>
      )}
      <div className={modalFooter}>
        <Button variant="outline" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : station ? 'Save' : 'Add station'}
        </Button>
      </div>
    </form>
  )
}

export function RadioStationsPanel() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const stations = useQuery(trpc.radio.list.queryOptions())
  const [editing, setEditing] = useState<Station | 'new' | null>(null)
  const [deleting, setDeleting] = useState<Station | null>(null)
  const remove = useMutation(
    trpc.radio.delete.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.radio.pathKey() })
        toast({ title: 'Station deleted', type: 'success' })
        setDeleting(null)
      },
      onError: (error) => toast({ title: 'Could not delete the station', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' }),
    }),
  )
  // The admin's own favourites come first on /radio; here, by name.
  const list = [...(stations.data ?? [])].sort((a, b) => a.name.localeCompare(b.name))

  return (
    <Panel title="Internet radio" actions={<Button onClick={() => setEditing('new')}>Add station</Button>}>
      <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '4' })}>Stations members can play on the Radio page and in their apps.</p>
      {stations.isPending ? (
        <PanelLoading label="Loading stations" />
      ) : stations.isError ? (
        <ErrorBox message={errorMessage(stations.error, 'Failed to load stations')} />
      ) : list.length === 0 ? (
        <EmptyState title="No stations yet" text="Add a station by its stream URL (MP3, AAC or Ogg over http or https)." />
      ) : (
        <TableScroll label="Radio stations">
          <table className={table({ layout: 'cards' })}>
            <caption className={css({ srOnly: true })}>Radio stations</caption>
            <TableHead columns={['Name', 'Stream', 'Homepage', 'Changed', { label: 'Actions', srOnly: true }]} />
            <tbody>
              {list.map((s) => (
                <tr key={s.id} data-station-id={s.id}>
                  <td data-label="Name" className={css({ fontWeight: 'semibold', fontSize: { base: 'md', md: 'sm' }, _before: { display: 'none' } })}>
                    <span className={css({ overflowWrap: 'anywhere' })}>{s.name}</span>
                  </td>
                  <td data-label="Stream" className={css({ color: 'fg.muted' })}>
                    <span className={css({ overflowWrap: 'anywhere', textAlign: { base: 'right', md: 'left' } })}>{s.streamUrl}</span>
                  </td>
                  <td data-label="Homepage" className={css({ color: 'fg.muted' })}>
                    <span className={css({ overflowWrap: 'anywhere', textAlign: { base: 'right', md: 'left' } })}>{s.homepageUrl ?? '–'}</span>
                  </td>
                  <td data-label="Changed" className={css({ color: 'fg.muted', whiteSpace: 'nowrap' })}>
                    {relativeTime(s.updatedAt)}
                    {s.updatedBy ? ` by ${s.updatedBy}` : ''}
                  </td>
                  <td data-label="Actions" className={css({ _before: { display: 'none' } })}>
                    <div className={css({ display: 'flex', gap: '2', justifyContent: { base: 'flex-start', md: 'flex-end' }, flexWrap: 'wrap', w: 'full' })}>
                      <Button variant="outline" size="sm" aria-label={`Edit ${s.name}`} onClick={() => setEditing(s)}>
                        Edit
                      </Button>
                      <Button variant="ghost" size="sm" aria-label={`Delete ${s.name}`} className={css({ color: 'danger.fg' })} onClick={() => setDeleting(s)}>
                        Delete
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      <StationDialog station={editing === 'new' ? null : editing} open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        busy={remove.isPending}
        title="Delete station"
        description={deleting ? `Delete "${deleting.name}"? Members lose it from the Radio page and their favourites.` : undefined}
      />
    </Panel>
  )
}
