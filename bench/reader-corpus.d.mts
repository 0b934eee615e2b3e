export type CorpusName = 'readability' | 'defuddle';

export interface CorpusPage {
  readonly corpus: CorpusName;
  readonly name: string;
  readonly url: string;
  readonly html: string;
  /** The expected article as scorable text. */
  readonly expected: string;
}

export const CORPORA: URL;
export function loadCorpus(corpus: CorpusName): CorpusPage[];
export function htmlText(html: string): string;
export function markdownText(markdown: string): string;
export function f1(output: string, expected: string): number;
