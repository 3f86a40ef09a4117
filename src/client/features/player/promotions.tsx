// Promotions from the server: the "Featured Promotions" grid and the advert shown between tracks.
import { Dialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import { useQuery } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { useTRPC } from '~/client/trpc'
import { button } from '~/client/ui/button'
import { Icon } from '~/client/ui/icon'

export type Promotion = { id: string; title: string; description: string; imageUrl: string; linkUrl: string; backgroundColor: string; textColor: string }

function usePromotionList() {
  const trpc = useTRPC()
  return useQuery(trpc.playlist.promotions.list.queryOptions(undefined, { staleTime: 10 * 60_000 })).data
}

export function usePromotions(): Promotion[] {
  return usePromotionList()?.promotions ?? []
}

/** The operator's advert chance at a track end, 0–1 (0 when adverts are off, none until loaded). */
export function useAdvertChance(): number {
  const adverts = usePromotionList()?.adverts
  return adverts?.enabled ? adverts.chancePercent / 100 : 0
}

export const AD_SECONDS = 5

export function FeaturedPromotions() {
  const promotions = usePromotions()
  if (promotions.length === 0) return null
  return (
    <section aria-labelledby="featured-promotions" className={css({ mt: '10' })}>
      <h2 id="featured-promotions" className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '4' })}>
        Featured Promotions
      </h2>
      <ul className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' }, gap: '4' })}>
        {promotions.map((p) => (
          <li
            key={p.id}
            className={css({
              borderRadius: 'xl',
              overflow: 'hidden',
              display: 'flex',
              flexDirection: 'column',
              borderWidth: '1px',
              borderColor: 'border.default',
            })}
            style={{ background: p.backgroundColor, color: p.textColor }}
          >
            <img
              src={p.imageUrl}
              alt=""
              width={320}
              height={180}
              loading="lazy"
              className={css({ w: 'full', h: 'auto', aspectRatio: '16/9', objectFit: 'cover' })}
            />
            <div className={css({ p: '4', display: 'flex', flexDirection: 'column', gap: '2', flex: '1' })}>
              <h3 className={css({ fontWeight: 'bold' })}>{p.title}</h3>
              <p className={css({ fontSize: 'sm', opacity: 0.85, flex: '1' })}>{p.description}</p>
              <a href={p.linkUrl} className={css({ fontSize: 'sm', fontWeight: 'semibold', textDecoration: 'underline', textUnderlineOffset: '3px' })}>
                Learn More<span className={css({ srOnly: true })}> about {p.title}</span>
              </a>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The advert between tracks: closes itself after 5 seconds (the player then plays the next track). */
export function AdvertModal({ promotion, onClose }: { promotion: Promotion | null; onClose: () => void }) {
  return (
    <Dialog.Root open={promotion !== null} onOpenChange={(d) => !d.open && onClose()} lazyMount unmountOnExit closeOnInteractOutside={false}>
      <Portal>
        <Dialog.Backdrop className={css({ position: 'fixed', inset: 0, bg: 'black/70', zIndex: 60 })} />
        <Dialog.Positioner className={css({ position: 'fixed', inset: 0, zIndex: 60, display: 'grid', placeItems: 'center', p: '4' })}>
          {promotion && (
            <Dialog.Content
              className={css({ w: 'full', maxW: 'md', borderRadius: '2xl', overflow: 'hidden', boxShadow: '2xl', position: 'relative', outline: 'none' })}
              style={{ background: promotion.backgroundColor, color: promotion.textColor }}
            >
              <img
                src={promotion.imageUrl}
                alt=""
                width={320}
                height={180}
                className={css({ w: 'full', h: 'auto', aspectRatio: '16/9', objectFit: 'cover' })}
              />
              <Dialog.CloseTrigger
                aria-label="Close advertisement"
                className={css({
                  position: 'absolute',
                  top: '2',
                  right: '2',
                  w: '9',
                  h: '9',
                  display: 'grid',
                  placeItems: 'center',
                  borderRadius: 'full',
                  bg: 'black/50',
                  color: 'white',
                  cursor: 'pointer',
                  _hover: { bg: 'black/70' },
                })}
              >
                <Icon name="close" size={18} />
              </Dialog.CloseTrigger>
              <div className={css({ p: '5', display: 'flex', flexDirection: 'column', gap: '3' })}>
                <p className={css({ fontSize: 'xs', textTransform: 'uppercase', letterSpacing: 'wider', opacity: 0.75 })}>Advertisement</p>
                <Dialog.Title className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{promotion.title}</Dialog.Title>
                <Dialog.Description className={css({ fontSize: 'sm', opacity: 0.9 })}>{promotion.description}</Dialog.Description>
                <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
                  {/* biome-ignore lint/a11y/noAmbiguousAnchorText: the product's fixed words; the dialog title names the promotion */}
                  <a href={promotion.linkUrl} target="_blank" rel="noopener" className={button({ variant: 'solid', size: 'sm' })}>
                    Learn More
                  </a>
                  <p className={css({ fontSize: 'xs', opacity: 0.8 })}>Advertisement will close in {AD_SECONDS} seconds...</p>
                </div>
              </div>
            </Dialog.Content>
          )}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}
