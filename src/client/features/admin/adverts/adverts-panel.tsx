// Adverts & Promotions, a section of the admin's Music page: whether adverts
// interrupt playback between tracks and how often (the player reads it with the promotions), and
// the promotions the advert modal and the "Featured Promotions" grid show — add, edit, switch off,
// delete. The grid shows the first four switched-on promotions in list order.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Switch } from '~/client/ui/switch'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { PromotionFormSchema } from '~/shared/validators/adverts'
import { ErrorBox, Panel, PanelLoading } from '../panels/panel'
import { stack } from 'styled-system/patterns'
import { mutedText } from '~/client/ui/text'

type AdminPromotion = {
  id: string
  title: string
  description: string
  imageUrl: string
  linkUrl: string
  backgroundColor: string
  textColor: string
  active: boolean
}

const NEW_PROMOTION = { title: '', description: '', linkUrl: '/', imageUrl: '/promotions/premium.svg', backgroundColor: '#4c1d95', textColor: '#f5f3ff' }

function useAdvertsChanged() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.admin.adverts.get.queryKey() })
    void queryClient.invalidateQueries({ queryKey: trpc.playlist.promotions.list.queryKey() })
  }
}

export function AdvertsPanel() {
  const trpc = useTRPC()
  const query = useQuery(trpc.admin.adverts.get.queryOptions())
  const [editing, setEditing] = useState<AdminPromotion | 'new' | null>(null)
  return (
    <Panel
      title="Adverts & Promotions"
      actions={
        editing === null && (
          <Button size="sm" onClick={() => setEditing('new')}>
            Add Promotion
          </Button>
        )
      }
    >
      {query.isPending ? (
        <PanelLoading label="Loading adverts" />
      ) : query.isError ? (
        <ErrorBox message={errorMessage(query.error, 'Failed to load adverts')} />
      ) : (
        <div className={stack({ gap: '5' })}>
          <AdvertSettingsForm key={`${query.data.enabled}-${query.data.chancePercent}`} enabled={query.data.enabled} chancePercent={query.data.chancePercent} />
          {editing !== null && (
            <PromotionForm key={editing === 'new' ? 'new' : editing.id} promotion={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
          )}
          <PromotionList promotions={query.data.promotions} onEdit={setEditing} />
        </div>
      )}
    </Panel>
  )
}

function AdvertSettingsForm(props: { enabled: boolean; chancePercent: number }) {
  const trpc = useTRPC()
  const changed = useAdvertsChanged()
  const [enabled, setEnabled] = useState(props.enabled)
  const [chance, setChance] = useState(String(props.chancePercent))
  const valid = /^\d{1,3}$/.test(chance) && Number(chance) <= 100
  const save = useMutation(
    trpc.admin.adverts.setSettings.mutationOptions({
      onSuccess: (s) => {
        changed()
        toast({
          title: 'Advert settings saved',
          description: s.enabled ? `Adverts play at ${s.chancePercent}% of track ends.` : 'Adverts are off.',
          type: 'success',
        })
      },
      onError: (error) => toast({ title: 'Failed to save advert settings', description: errorMessage(error, 'Please try again.'), type: 'error' }),
    }),
  )
  return (
    <form
      noValidate
      aria-label="Advert settings"
      className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: '4' })}
      onSubmit={(e) => {
        e.preventDefault()
        if (valid) save.mutate({ enabled, chancePercent: Number(chance) })
      }}
    >
      <Switch label="Show adverts between tracks" checked={enabled} onCheckedChange={setEnabled} className={css({ h: '11' })} />
      <TextField
        label="Chance at a track end (%)"
        type="number"
        inputMode="numeric"
        min={0}
        max={100}
        value={chance}
        disabled={!enabled}
        onValueChange={setChance}
        error={valid ? undefined : 'Enter a whole number from 0 to 100'}
        className={css({ w: '56' })}
      />
      <Button type="submit" disabled={!valid || save.isPending}>
        {save.isPending ? 'Saving...' : 'Save Settings'}
      </Button>
    </form>
  )
}

function PromotionForm({ promotion, onDone }: { promotion: AdminPromotion | null; onDone: () => void }) {
  const trpc = useTRPC()
  const changed = useAdvertsChanged()
  const { id: _id, active: _active, ...initial } = promotion ?? { id: '', active: true, ...NEW_PROMOTION }
  const form = useForm(PromotionFormSchema, initial)
  const options = {
    onSuccess: () => {
      changed()
      toast({ title: promotion ? 'Promotion updated' : 'Promotion added', type: 'success' as const })
      onDone()
    },
    onError: (error: unknown) => toast({ title: 'Failed to save promotion', description: errorMessage(error, 'Please try again.'), type: 'error' }),
  }
  const create = useMutation(trpc.admin.promotions.create.mutationOptions(options))
  const update = useMutation(trpc.admin.promotions.update.mutationOptions(options))
  const pending = create.isPending || update.isPending
  return (
    <form
      noValidate
      aria-label={promotion ? `Edit ${promotion.title}` : 'New promotion'}
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' },
        gap: '4',
        bg: 'bg.subtle',
        borderRadius: 'lg',
        p: '4',
      })}
      onSubmit={(e) => {
        e.preventDefault()
        if (!form.isValid) return form.touchAll()
        const values = form.parsed()
        if (promotion) update.mutate({ id: promotion.id, ...values })
        else create.mutate(values)
      }}
    >
      <TextField label="Title" {...form.field('title')} />
      <TextField label="Link" {...form.field('linkUrl')} hint="A path on this site (/about) or an http(s) address" />
      <TextField label="Description" multiline {...form.field('description')} className={css({ gridColumn: { md: 'span 2' } })} />
      <TextField label="Image URL" {...form.field('imageUrl')} hint="A path on this site or an https address" />
      <div className={css({ display: 'flex', gap: '4' })}>
        <TextField label="Background colour" {...form.field('backgroundColor')} />
        <TextField label="Text colour" {...form.field('textColor')} />
      </div>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3', gridColumn: { md: 'span 2' } })}>
        <Button variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : promotion ? 'Update Promotion' : 'Add Promotion'}
        </Button>
      </div>
    </form>
  )
}

function PromotionList({ promotions, onEdit }: { promotions: AdminPromotion[]; onEdit: (p: AdminPromotion) => void }) {
  const trpc = useTRPC()
  const changed = useAdvertsChanged()
  const onError = (error: unknown) => toast({ title: 'Failed to change promotion', description: errorMessage(error, 'Please try again.'), type: 'error' })
  const update = useMutation(trpc.admin.promotions.update.mutationOptions({ onSuccess: changed, onError }))
  const remove = useMutation(
    trpc.admin.promotions.delete.mutationOptions({
      onSuccess: () => {
        changed()
        toast({ title: 'Promotion deleted', type: 'success' })
      },
      onError,
    }),
  )
  if (promotions.length === 0) return <p className={mutedText()}>No promotions: the grid and the adverts have nothing to show.</p>
  return (
    <ul aria-label="Promotions" className={stack({ gap: '2' })}>
      {promotions.map((p) => (
        <li key={p.id} className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '3', bg: 'bg.subtle', borderRadius: 'lg', p: '3' })}>
          <span
            aria-hidden
            className={css({ w: '10', h: '10', borderRadius: 'md', display: 'grid', placeItems: 'center', fontWeight: 'bold', flexShrink: 0 })}
            style={{ background: p.backgroundColor, color: p.textColor }}
          >
            {p.title.charAt(0)}
          </span>
          <div className={css({ flex: '1', minW: '48' })}>
            <p className={css({ fontWeight: 'semibold' })}>{p.title}</p>
            <p className={css({ fontSize: 'sm', color: 'fg.muted', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>{p.description}</p>
          </div>
          <Switch label={`Show ${p.title}`} hideLabel checked={p.active} onCheckedChange={(active) => update.mutate({ id: p.id, active })} />
          <Button size="sm" variant="outline" aria-label={`Edit ${p.title}`} onClick={() => onEdit(p)}>
            Edit
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Delete ${p.title}`} onClick={() => remove.mutate({ id: p.id })}>
            Delete
          </Button>
        </li>
      ))}
    </ul>
  )
}
