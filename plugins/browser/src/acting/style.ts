/**
 * `style` (vmark-notes §3.1): changes how a page looks — inline properties and classes of the
 * element a `ref` or a `selector` names, or a page-wide stylesheet (`injectCss`) — to dismiss an
 * overlay or mark a target. Act-class: a person approves the exact change, on this page (operation
 * `style`, which may stand on a site). It runs in the isolated world, so the page's JavaScript can
 * neither see nor fake it. A bad selector or a stale ref is refused before anyone is asked.
 */
import type { Approvals, ToolCall } from '@vmark/sdk';
import { ArgumentError, TokenError } from '@vmark/sdk';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { approvePageChange } from './page-approval.js';
import type { StyleChange } from './style-args.js';
import {
  describeElement,
  type ElementChange,
  type ElementsStyled,
  injectStylesheet,
  selected,
  styleElements,
} from './world-style.js';

export interface StyleResult {
  readonly url: string;
  readonly generation: number;
  /** How many elements the element changes were applied to (0 for `injectCss` alone). */
  readonly elements: number;
  /** Properties of `set` the browser did not take: unknown, or a value it could not parse. */
  readonly rejected?: string[];
  /** The rules of the injected stylesheet the browser parsed (fewer than written: some did not parse). */
  readonly injectedRules?: number;
}

const BY_SELECTOR = `function ({ selector, change }) {
  const found = (${selected.toString()})(selector);
  return Array.isArray(found) ? (${styleElements.toString()})(found, change) : found;
}`;
const COUNT = `function (selector) {
  const found = (${selected.toString()})(selector);
  return Array.isArray(found) ? { count: found.length } : found;
}`;
const ON_ELEMENT = `function (element, change) { return (${styleElements.toString()})([element], change); }`;

export async function styleTab(
  tab: BrowserTab,
  change: StyleChange,
  approvals: Approvals,
  call: ToolCall,
): Promise<StyleResult> {
  const target = await describeTarget(tab, change);
  await approvePageChange(approvals, call, {
    tab,
    operation: 'style',
    what: describeChange(target, change),
    noted: target === undefined ? "change the page's style" : `change the style of ${target}`,
    retry: { action: 'style', tabId: tab.id },
  });
  const generation = tab.generation;
  const elementChange = onlyElementChange(change);
  let styled: ElementsStyled = { elements: 0, rejected: [] };
  if (change.target !== undefined && 'ref' in change.target) {
    styled = await tab.perception.withElement<ElementsStyled>(change.target.ref, ON_ELEMENT, elementChange);
  } else if (change.target !== undefined) {
    const answer = await tab.world.evaluate<ElementsStyled | { invalidSelector: string }>(BY_SELECTOR, {
      selector: change.target.selector,
      change: elementChange,
    });
    if ('invalidSelector' in answer) throw invalidSelector(change.target.selector, answer.invalidSelector);
    styled = answer;
  }
  const injected =
    change.injectCss === undefined
      ? undefined
      : await tab.world.evaluate<{ rules: number }>(
          `function (css) { return (${injectStylesheet.toString()})(css); }`,
          change.injectCss,
        );
  return {
    url: tab.url,
    generation,
    elements: styled.elements,
    ...(styled.rejected.length > 0 ? { rejected: styled.rejected } : {}),
    ...(injected === undefined ? {} : { injectedRules: injected.rules }),
  };
}

/** The target as the person is shown it; a stale ref, a bad selector or one matching nothing is refused here. */
async function describeTarget(tab: BrowserTab, change: StyleChange): Promise<string | undefined> {
  const target = change.target;
  if (target === undefined) return undefined;
  if ('ref' in target) {
    const element = await tab.perception.withElement<string>(target.ref, describeElement.toString());
    return `${element} (ref ${target.ref})`;
  }
  const answer = await tab.world.evaluate<{ count: number } | { invalidSelector: string }>(
    COUNT,
    target.selector,
  );
  if ('invalidSelector' in answer) throw invalidSelector(target.selector, answer.invalidSelector);
  if (answer.count === 0) {
    throw new TokenError(
      'NO_MATCH',
      `style: no element matches the selector ${JSON.stringify(target.selector)}`,
      {
        selector: target.selector,
        tabId: tab.id,
      },
    );
  }
  return `every element matching the CSS selector ${JSON.stringify(target.selector)}`;
}

/** Exactly what the call changes, whole: every property and value, every class, all the CSS. */
function describeChange(target: string | undefined, change: StyleChange): string {
  const parts: string[] = [];
  if (change.set !== undefined) {
    const declarations = Object.entries(change.set).map(([property, value]) => `${property}: ${value}`);
    parts.push(`set ${declarations.join('; ')}`);
  }
  if (change.addClasses !== undefined) parts.push(`add the classes ${change.addClasses.join(' ')}`);
  if (change.removeClasses !== undefined) parts.push(`remove the classes ${change.removeClasses.join(' ')}`);
  const lines = target === undefined ? [] : [`style ${target}: ${parts.join('; ')}`];
  if (change.injectCss !== undefined) {
    const bytes = Buffer.byteLength(change.injectCss, 'utf8');
    lines.push(`add this page-wide CSS (${bytes} bytes):\n${change.injectCss}`);
  }
  return lines.join('\n');
}

function onlyElementChange(change: StyleChange): ElementChange {
  return {
    ...(change.set === undefined ? {} : { set: change.set }),
    ...(change.addClasses === undefined ? {} : { addClasses: change.addClasses }),
    ...(change.removeClasses === undefined ? {} : { removeClasses: change.removeClasses }),
  };
}

function invalidSelector(selector: string, why: string): ArgumentError {
  return new ArgumentError(`style: ${JSON.stringify(selector)} is not a valid CSS selector (${why})`);
}
