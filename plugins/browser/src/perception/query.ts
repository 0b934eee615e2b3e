/**
 * `browser_read query`: CSS over the main document, in the isolated world — at most 50
 * elements, 500 characters of text each, and the fields asked for (attributes, box, computed
 * styles). The elements get refs like those of `read`, from the same table.
 */
import { ArgumentError } from '@vmark/sdk';
import type { PagePerception } from './page-perception.js';
import type { QueriedElement, QueryAnswer, QueryFields } from './world/world-query.js';

export interface QueryResult {
  readonly count: number;
  readonly elements: QueriedElement[];
  readonly truncated?: true;
}

export async function query(
  perception: PagePerception,
  generation: number,
  selector: string,
  fields: QueryFields,
): Promise<QueryResult> {
  const document = await perception.frames.main();
  const answer = await perception.refs.allocate(
    generation,
    document,
    (next) =>
      document.world.library<QueryAnswer>(document.frameId, 'query', 'query', [
        generation,
        next,
        selector,
        fields,
      ]),
    (got) => ('elements' in got ? got.elements.map((element) => element.ref) : []),
  );
  if ('invalidSelector' in answer) {
    throw new ArgumentError(
      `query: ${JSON.stringify(selector)} is not a valid CSS selector (${answer.invalidSelector})`,
    );
  }
  return {
    count: answer.count,
    elements: answer.elements,
    ...(answer.truncated ? { truncated: true as const } : {}),
  };
}
