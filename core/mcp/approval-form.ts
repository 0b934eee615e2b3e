import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

/** The field of the approval form that says how long an accept holds. */
export const ALLOW_FIELD = 'allow';

/** What a form may offer besides "accept once". */
export interface FormOffers {
  readonly offerSite?: string;
  readonly offerUntilNavigation?: boolean;
}

/**
 * The elicitation form of an approval (DESIGN §5, vmark-notes §3.1). A yes/no question has no
 * fields: the answer is the action itself (accept / decline). Where a standing grant may be given,
 * or an allowance until the page navigates, one required choice says what "accept" means — once
 * (the default, so a client that fills in defaults never allows more by accident), on this site,
 * or until navigation — while decline stays decline.
 */
export function approvalForm(offers: FormOffers | undefined): ElicitRequestFormParams['requestedSchema'] {
  const site = offers?.offerSite;
  const untilNavigation = offers?.offerUntilNavigation === true;
  if (site === undefined && !untilNavigation) return { type: 'object', properties: {} };
  const longer = [
    ...(site === undefined
      ? []
      : [
          {
            choice: { const: 'site', title: `Accept on this site (${site})` },
            words: `every such request from this client on ${site} until you revoke it or VMark stops`,
          },
        ]),
    ...(untilNavigation
      ? [
          {
            choice: { const: 'until-navigation', title: 'Accept until navigation' },
            words: 'until the page navigates',
          },
        ]
      : []),
  ];
  return {
    type: 'object',
    properties: {
      [ALLOW_FIELD]: {
        type: 'string',
        title: 'Allow',
        description: `Once, or ${longer.map((offer) => offer.words).join(', or ')}`,
        oneOf: [{ const: 'once', title: 'Accept once' }, ...longer.map((offer) => offer.choice)],
        default: 'once',
      },
    },
    required: [ALLOW_FIELD],
  };
}
