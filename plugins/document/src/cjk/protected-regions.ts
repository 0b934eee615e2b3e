/**
 * Every region of a Markdown document that the CJK transforms must leave byte for
 * byte as it is (design notes §6: fenced and indented code, inline code, YAML front
 * matter, link destinations and titles, autolinks, image paths, HTML, math, backslash
 * escapes, reference definitions), plus Markdown's own punctuation, wiki links,
 * footnote markers, character references and, on request, reference sections.
 */
import { frontMatterLength } from '@vmark/sdk/markdown';
import { scanMarkdown, type Heading } from './markdown-regions.js';
import { scanLightMarkdown } from './light-regions.js';
import { findMathRegions } from './math-regions.js';
import { coalesceRegions, insideRegions } from './region-set.js';
import type { ProtectedRegion } from './region-types.js';

export interface RegionOptions {
  /** Also protect "References"/"Further Reading" sections (setting `skipReferenceSections`). */
  skipReferenceSections?: boolean;
  /**
   * The regions a narrow transform (`cjk-spacing`, `cjk-punctuation`) needs: without the
   * Markdown punctuation that no narrow rewrite can touch (ADR 58).
   */
  narrow?: boolean;
}

/** `[[target]]` and `[[target|shown]]`: an Obsidian-style vault's links. */
const WIKI_LINK = /\[\[[^[\]\n]+\]\]/g;

/**
 * Section titles whose contents are citations, where punctuation is the citation
 * style's and not the prose's. The Chinese and Japanese titles are there because a
 * setting meant for CJK documents should recognize CJK headings.
 */
const REFERENCE_TITLE =
  /^(?:references?|further reading|bibliography|works cited|参考文献|参考资料|參考資料|参考|延伸阅读|延伸閱讀|引用文献)[:：]?$/i;

/** The protected regions of `content`: ordered, disjoint half-open ranges. */
export function findProtectedRegions(content: string, options: RegionOptions = {}): ProtectedRegion[] {
  const regions: ProtectedRegion[] = [];
  const frontMatter = frontMatterLength(content);
  if (frontMatter > 0) regions.push({ from: 0, to: frontMatter, kind: 'front-matter', inline: false });

  const body = frontMatter > 0 ? content.slice(frontMatter) : content;
  // The light scanner when the document is in its subset (ADR 58): without the Markdown
  // punctuation for a narrow transform, with it for `cjk-format` (ADR 84). It finds no
  // headings, so a setting that needs them takes the full parse.
  const light = options.skipReferenceSections ? null : scanLightMarkdown(body, frontMatter, !options.narrow);
  const scan = light ? { regions: light, headings: [] } : scanMarkdown(body, frontMatter);
  // Math and wiki links are found in the text the parser left as prose. Emphasis and
  // strikethrough marks do not count as "not prose": `$a*b*c$` is math even though the
  // parser saw an emphasis in it.
  const opaque = coalesceRegions([
    ...regions,
    ...scan.regions.filter((region) => !(region.kind === 'markup' && region.inline)),
  ]);
  const isOpaque = (position: number) => insideRegions(opaque, position);
  regions.push(...scan.regions, ...findMathRegions(content, isOpaque));
  for (const match of content.matchAll(WIKI_LINK)) {
    if (!isOpaque(match.index)) {
      regions.push({ from: match.index, to: match.index + match[0].length, kind: 'wiki-link', inline: true });
    }
  }
  if (options.skipReferenceSections) regions.push(...referenceSections(scan.headings, content.length));
  return coalesceRegions(regions);
}

/** From a reference heading to the next heading of the same or a higher level. */
function referenceSections(headings: readonly Heading[], end: number): ProtectedRegion[] {
  const sections: ProtectedRegion[] = [];
  headings.forEach((heading, index) => {
    if (!REFERENCE_TITLE.test(heading.title)) return;
    const next = headings.slice(index + 1).find((other) => other.level <= heading.level);
    sections.push({
      from: heading.from,
      to: next ? next.from : end,
      kind: 'reference-section',
      inline: false,
    });
  });
  return sections;
}
