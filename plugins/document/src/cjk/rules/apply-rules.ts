/**
 * The `cjk-format` rule chain (design notes §6, `rules/applyRules.ts` of the original),
 * in its order, run over one formattable segment until nothing changes.
 *
 * The order matters and a single pass is not enough: quote conversion produces corner
 * brackets that the punctuation and dash rules key on, fullwidth parentheses are
 * produced after the rules that read them, and `(中(文))` needs a pass per nesting
 * level. Every rule only moves text towards its normal form, so iterating converges;
 * `MAX_RULE_PASSES` is a safety cap, and the caller is told when it was hit.
 *
 * The passes are the reference chain's (`reference-chain.ts`), but a rule is not re-run on
 * a text it has already answered (ADR 65): the rules are pure, so the answer is the same.
 */
import { containsCjk } from '../char-classes.js';
import type { SegmentContext } from '../segments.js';
import type { CjkFormattingSettings } from '../settings.js';
import { convertDashes, fixEmdashSpacing } from './dashes.js';
import { addCjkEnglishSpacing } from './cjk-english-spacing.js';
import { limitConsecutivePunctuation } from './consecutive-punctuation.js';
import { fixCurrencySpacing } from './currency-spacing.js';
import { normalizeEllipsis } from './ellipsis.js';
import { normalizeFullwidthAlphanumeric } from './fullwidth-alphanumeric.js';
import { normalizeFullwidthBrackets } from './fullwidth-brackets.js';
import { normalizeFullwidthPunctuation } from './fullwidth-punctuation.js';
import { convertNestedCornerQuotes } from './nested-quotes.js';
import { collapseNewlines } from './newline-collapsing.js';
import { addCjkParenthesisSpacing, normalizeFullwidthParentheses } from './parentheses.js';
import { fixDoubleQuoteSpacing, fixSingleQuoteSpacing } from './quote-spacing.js';
import { fixSlashSpacing } from './slash-spacing.js';
import { convertSmartQuotes } from './smart-quotes.js';
import { collapseSpaces } from './space-collapsing.js';
import { removeTrailingSpaces } from './trailing-spaces.js';

export const MAX_RULE_PASSES = 8;

/** One rule of the chain: the setting that enables it, and where it applies. */
export interface Rule {
  setting: RuleName;
  /** Runs only on a segment that contains CJK (§6 group 2). */
  cjkOnly: boolean;
  apply(text: string, context: SegmentContext, settings: CjkFormattingSettings): string;
  /**
   * The rule's output is a fixed point of the rule itself (`apply(apply(x)) === apply(x)`):
   * the chain may skip it on the text it just produced. Property-tested per rule.
   */
  idempotent?: true;
  /**
   * Rules (by setting) whose changes this rule cannot see: whenever this rule leaves a text
   * as it is, it leaves that text with their change made as it is too. `'all'` for a rule no
   * other rule can feed. Each claim is argued where it is made and property-tested.
   */
  unaffectedBy?: readonly RuleName[] | 'all';
}

/** A rule's name: the setting that enables it. */
export type RuleName = keyof CjkFormattingSettings;

/**
 * §6's order; a rule runs when its setting is on (a limit above 0 for the punctuation limit).
 *
 * What `unaffectedBy` rests on (ADR 65), rule by rule:
 * - `cjkEnglishSpacing` only inserts a space between a CJK letter and a letter, digit,
 *   currency symbol or sign (or a digit's unit), never next to a `. , ! ? ; :`, a quote, a
 *   hyphen run, a dash or whitespace, and never into a line start a block marker could
 *   match (a CJK letter precedes it); the technical mask is unchanged, since its spans are
 *   ASCII runs, a CJK letter already ended them and no token holds a space. The rules that
 *   read only those neighbours and the mask cannot see it.
 * - `fullwidthPunctuation` turns a lone mark touching CJK into its fullwidth form, never a
 *   dot next to a dot nor a masked mark: the ellipsis patterns read dot runs, the character
 *   before them (a mark either way) and the mask, which a converted (unmasked) mark is in
 *   no token of.
 * - `fullwidthAlphanumeric` maps U+FF10–FF5A letters and digits to ASCII; no rule writes one.
 *
 * The claims of ADR 90 rest on what four writers can put next to each other. Every new
 * adjacency each one makes is, and nothing else changes:
 * - `cjkParenthesisSpacing` (CJK, space), (space, `(`), (`)`, space), (space, CJK);
 * - `fullwidthParentheses` (x, `（`), (`）`, y), (`（`, CJK), (z, `）`), and `(` `)` become `（` `）`;
 * - `fullwidthPunctuation` replaces one of `, . ! ? ; :` by its fullwidth form;
 * - `currencySpacing` (symbol, digit), (digit, unit), (digit, space), (space, currency code).
 * A reader that only looks at pairs none of these can form cannot see them:
 * - the quote-spacing rules read a quote and the character outside it; no writer above
 *   puts a quote next to anything new (and the double-quote rule's two inserts make no
 *   match for each other, so it is its own fixed point);
 * - `emdashSpacing` reads a `——` run, the spaces around it and the characters beyond them;
 *   the writers above leave every run's neighbours alone, except that `fullwidthParentheses`
 *   drops the space between a run and the parenthesis it converts, which is exactly the
 *   spacing the rule gives a `（` or `）` (it does see `fullwidthPunctuation`: `, ——` → `， ——`
 *   wants the space gone, and `smartQuoteConversion`'s corner brackets);
 * - `cjkEnglishSpacing` reads CJK next to letters, digits, signs, currency symbols and units;
 *   a window holding a fullwidth parenthesis, a space before `(` or a fullwidth mark matches
 *   none of them (it does see `currencySpacing`: `中¥  5` → `中¥5`);
 * - `cjkParenthesisSpacing` reads (CJK, `(`) and (`)`, CJK), which no writer above forms; its
 *   second insert (after `)`) makes no match for its first, so it is its own fixed point;
 * - `currencySpacing` reads a unit's end through `[\s,;.。，；、！？!?)…]`, which holds a mark
 *   and its fullwidth form alike (`:` in neither), and `\b` after a code, true at both;
 *   its three passes make no match for one another, so it is its own fixed point;
 * - `spaceCollapsing` and `trailingSpaceRemoval` read runs of spaces and what is not a space.
 */
const WRITERS_BESIDE_NO_QUOTE: readonly RuleName[] = [
  'cjkEnglishSpacing',
  'cjkParenthesisSpacing',
  'fullwidthParentheses',
  'fullwidthPunctuation',
  'currencySpacing',
];

export const RULES: readonly Rule[] = [
  {
    setting: 'ellipsisNormalization',
    cjkOnly: false,
    apply: normalizeEllipsis,
    idempotent: true,
    unaffectedBy: ['fullwidthPunctuation', 'cjkEnglishSpacing'],
  },
  {
    setting: 'fullwidthAlphanumeric',
    cjkOnly: true,
    apply: normalizeFullwidthAlphanumeric,
    idempotent: true,
    unaffectedBy: 'all',
  },
  {
    setting: 'fullwidthPunctuation',
    cjkOnly: true,
    apply: normalizeFullwidthPunctuation,
    idempotent: true,
    unaffectedBy: ['cjkEnglishSpacing'],
  },
  { setting: 'fullwidthBrackets', cjkOnly: true, apply: normalizeFullwidthBrackets },
  { setting: 'dashConversion', cjkOnly: true, apply: convertDashes, unaffectedBy: ['cjkEnglishSpacing'] },
  {
    setting: 'emdashSpacing',
    cjkOnly: true,
    apply: fixEmdashSpacing,
    unaffectedBy: [
      'quoteSpacing',
      'cjkEnglishSpacing',
      'cjkParenthesisSpacing',
      'fullwidthParentheses',
      'currencySpacing',
    ],
  },
  {
    setting: 'smartQuoteConversion',
    cjkOnly: true,
    apply: (text, _context, settings) => convertSmartQuotes(text, settings),
    unaffectedBy: ['cjkEnglishSpacing'],
  },
  { setting: 'cjkNestedQuotes', cjkOnly: true, apply: convertNestedCornerQuotes },
  {
    setting: 'quoteSpacing',
    cjkOnly: true,
    apply: fixDoubleQuoteSpacing,
    idempotent: true,
    unaffectedBy: WRITERS_BESIDE_NO_QUOTE,
  },
  {
    setting: 'singleQuoteSpacing',
    cjkOnly: true,
    apply: fixSingleQuoteSpacing,
    unaffectedBy: WRITERS_BESIDE_NO_QUOTE,
  },
  {
    setting: 'cjkEnglishSpacing',
    cjkOnly: true,
    apply: addCjkEnglishSpacing,
    idempotent: true,
    unaffectedBy: ['cjkParenthesisSpacing', 'fullwidthParentheses', 'fullwidthPunctuation'],
  },
  {
    setting: 'cjkParenthesisSpacing',
    cjkOnly: true,
    apply: addCjkParenthesisSpacing,
    idempotent: true,
    unaffectedBy: ['fullwidthParentheses', 'fullwidthPunctuation', 'currencySpacing'],
  },
  { setting: 'fullwidthParentheses', cjkOnly: true, apply: normalizeFullwidthParentheses },
  {
    setting: 'currencySpacing',
    cjkOnly: true,
    apply: fixCurrencySpacing,
    idempotent: true,
    unaffectedBy: ['fullwidthPunctuation'],
  },
  { setting: 'slashSpacing', cjkOnly: true, apply: fixSlashSpacing },
  {
    setting: 'consecutivePunctuationLimit',
    cjkOnly: true,
    apply: (text, _context, settings) =>
      limitConsecutivePunctuation(text, settings.consecutivePunctuationLimit),
  },
  {
    setting: 'spaceCollapsing',
    cjkOnly: false,
    apply: collapseSpaces,
    unaffectedBy: ['fullwidthPunctuation'],
  },
  {
    setting: 'trailingSpaceRemoval',
    cjkOnly: false,
    apply: removeTrailingSpaces,
    unaffectedBy: ['fullwidthPunctuation'],
  },
  { setting: 'newlineCollapsing', cjkOnly: false, apply: collapseNewlines },
];

export interface FormattedSegment {
  text: string;
  /** False when the chain still changed the text on its last allowed pass. */
  converged: boolean;
}

/** The rules enabled by `settings`, in order (computed once per document). */
export function enabledRules(settings: CjkFormattingSettings): readonly Rule[] {
  return RULES.filter((rule) => {
    const value = settings[rule.setting];
    return typeof value === 'number' ? value > 0 : value === true;
  });
}

/** Whether rule `reader` can skip after rule `writer` changed a text it left alone. */
export function cannotSee(reader: Rule, writer: Rule): boolean {
  const blind = reader.unaffectedBy;
  return blind === 'all' || (blind !== undefined && blind.includes(writer.setting));
}

/** A chain ready to run: its rules, and `blind[reader * length + writer]` from `cannotSee`. */
interface Plan {
  rules: readonly Rule[];
  blind: Uint8Array;
}

const plans = new WeakMap<readonly Rule[], { cjk: Plan; latin: Plan }>();

function planOf(rules: readonly Rule[], cjk: boolean): Plan {
  let cached = plans.get(rules);
  if (!cached) {
    const make = (chosen: readonly Rule[]): Plan => {
      const blind = new Uint8Array(chosen.length * chosen.length);
      chosen.forEach((reader, r) =>
        chosen.forEach((writer, w) => {
          blind[r * chosen.length + w] = cannotSee(reader, writer) ? 1 : 0;
        }),
      );
      return { rules: chosen, blind };
    };
    cached = { cjk: make(rules), latin: make(rules.filter((rule) => !rule.cjkOnly)) };
    plans.set(rules, cached);
  }
  return cjk ? cached.cjk : cached.latin;
}

/**
 * Runs `rules` over one segment to a fixed point (at most `MAX_RULE_PASSES` passes): the
 * same passes, and so the same text and the same `converged`, as `formatSegmentReference`.
 *
 * What is skipped is a rule known to leave the current text as it is: it ran and changed
 * nothing, or it is idempotent and just ran, and every change since was made by a rule it
 * cannot see (`unaffectedBy`). In the usual segment only the first pass changes anything,
 * and the second pass, which only confirms it, then runs few rules or none.
 */
export function formatSegmentText(
  text: string,
  context: SegmentContext,
  settings: CjkFormattingSettings,
  rules: readonly Rule[] = enabledRules(settings),
): FormattedSegment {
  // The gate is decided once, on the segment as it came in: the passes must converge
  // on one chain, and a fullwidth `３` that made the segment "CJK" is gone after one.
  const { rules: active, blind } = planOf(rules, containsCjk(text));
  const count = active.length;
  // settled[i]: rule i is known to leave the current text as it is.
  const settled = new Uint8Array(count);
  let current = text;
  for (let pass = 0; pass < MAX_RULE_PASSES; pass++) {
    let next = current;
    for (let index = 0; index < count; index++) {
      if (settled[index] === 1) continue;
      const rule = active[index]!;
      const output = rule.apply(next, context, settings);
      if (output !== next) {
        for (let other = 0; other < count; other++) {
          if (blind[other * count + index] === 0) settled[other] = 0;
        }
        next = output;
        settled[index] = rule.idempotent ? 1 : 0;
      } else {
        settled[index] = 1;
      }
    }
    if (next === current) return { text: next, converged: true };
    current = next;
  }
  return { text: current, converged: false };
}
