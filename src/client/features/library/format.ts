// Small display helpers shared by the library's lists.

/**
 * A track's or album's length (3:07, 1:02:03) by the player's one rule: whole seconds passed, so a
 * length reads the same in the library, Up Next and the player's clock.
 */
export { formatTime as clock } from '~/shared/player/track'

export { plural } from '~/shared/plural'
