// Why a track cannot play on this server (Track.unavailable, e.g. "needs ffmpeg" for a format only
// a conversion plays): shown as a small tag beside the track wherever a list offers it.
import { css } from 'styled-system/css'

export function UnavailableMark({ reason }: { reason: string | undefined }) {
  if (!reason) return null
  return (
    <span
      className={css({
        flexShrink: 0,
        fontSize: '2xs',
        fontWeight: 'bold',
        px: '1.5',
        py: '0.5',
        ml: '1',
        borderRadius: 'md',
        borderWidth: '1px',
        borderColor: 'border.default',
        color: 'fg.muted',
        whiteSpace: 'nowrap',
      })}
    >
      {reason}
    </span>
  )
}
