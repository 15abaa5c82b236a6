/** An API key's mode, as every key, id, metric and message spells it. */
export type Mode = 'live' | 'test';

/** The mode a `livemode` flag stands for: the one place the flag is spelled as a word. */
export function modeOf(livemode: boolean): Mode {
  return livemode ? 'live' : 'test';
}
