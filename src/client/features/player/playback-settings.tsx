// The player's "Playback settings" under "Up Next": ReplayGain Off / Track /
// Album and crossfade 0–12 s, kept in this browser (player-settings.ts); closed by default so the
// player screen keeps its usual layout. Not a lazy chunk: the loader would weigh what the fields do.
import { css } from 'styled-system/css'
import { MAX_CROSSFADE_SECONDS, REPLAY_GAIN_MODES, type ReplayGainMode } from '~/shared/player/settings'
import { playerSettings, usePlayerSettings } from './player-settings'

const MODE_LABELS: Record<ReplayGainMode, string> = { off: 'Off', track: 'Track', album: 'Album' }

export function PlaybackSettings() {
  return (
    <details className={panel}>
      <summary className={css({ cursor: 'pointer', fontWeight: 'semibold', fontSize: 'sm', py: '3' })}>Playback settings</summary>
      <PlaybackSettingsForm />
    </details>
  )
}

function PlaybackSettingsForm() {
  const settings = usePlayerSettings()
  const set = playerSettings.set
  return (
    <div className={css({ display: 'grid', gap: '3', pt: '2', fontSize: 'sm' })}>
      <label className={row}>
        <span>ReplayGain</span>
        <select value={settings.replayGain} onChange={(e) => set({ replayGain: e.target.value })} className={field}>
          {REPLAY_GAIN_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </label>
      <label className={row}>
        <span>Crossfade</span>
        <input
          type="range"
          min={0}
          max={MAX_CROSSFADE_SECONDS}
          step={1}
          value={settings.crossfade}
          onChange={(e) => set({ crossfade: Number(e.target.value) })}
          aria-valuetext={settings.crossfade === 0 ? 'Off' : `${settings.crossfade} seconds`}
          className={css({ flex: '1', accentColor: 'accent.pink', minH: '11' })}
        />
        <output className={css({ minW: '10', textAlign: 'right', color: 'fg.muted' })}>{settings.crossfade === 0 ? 'Off' : `${settings.crossfade} s`}</output>
      </label>
    </div>
  )
}

const row = css({ display: 'flex', alignItems: 'center', gap: '3' })
const field = css({ minH: '11', px: '2', borderRadius: 'md', borderWidth: '1px', borderColor: 'border.default', bg: 'bg.surface', color: 'fg.default' })

const panel = css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: '2xl', px: { base: '3', md: '4' }, py: '1' })
