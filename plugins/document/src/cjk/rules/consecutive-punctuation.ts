/**
 * `consecutivePunctuationLimit`: a run of the same fullwidth `！`, `？` or `。` is cut
 * to one (limit 1) or two (limit 2); 0 leaves it.
 */
import type { ConsecutivePunctuationLimit } from '../settings.js';

const RUN_OF_TWO_OR_MORE = /([！？。])\1+/g;
const RUN_OF_THREE_OR_MORE = /([！？。])\1{2,}/g;

export function limitConsecutivePunctuation(text: string, limit: ConsecutivePunctuationLimit): string {
  if (limit === 1) return text.replace(RUN_OF_TWO_OR_MORE, '$1');
  if (limit === 2) return text.replace(RUN_OF_THREE_OR_MORE, '$1$1');
  return text;
}
