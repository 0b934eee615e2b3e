import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

/** The field of the approval form that says how long an accept holds. */
export const ALLOW_FIELD = 'allow';

/**
 * The elicitation form of an approval (DESIGN §5, vmark-notes §3.1). A yes/no question has no
 * fields: the answer is the action itself (accept / decline). Where a standing grant may be given,
 * one required choice says what "accept" means — once (the default, so a client that fills in
 * defaults never grants by accident) or on this site — while decline stays decline.
 */
export function approvalForm(offerSite: string | undefined): ElicitRequestFormParams['requestedSchema'] {
  if (offerSite === undefined) return { type: 'object', properties: {} };
  return {
    type: 'object',
    properties: {
      [ALLOW_FIELD]: {
        type: 'string',
        title: 'Allow',
        description: `Once, or every such request from this client on ${offerSite} until you revoke it or VMark stops`,
        oneOf: [
          { const: 'once', title: 'Accept once' },
          { const: 'site', title: `Accept on this site (${offerSite})` },
        ],
        default: 'once',
      },
    },
    required: [ALLOW_FIELD],
  };
}
