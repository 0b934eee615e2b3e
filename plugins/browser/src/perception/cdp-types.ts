/**
 * The DevTools protocol types perception uses. Playwright types `CDPSession.send` with the
 * whole protocol but does not export its namespace, so they are taken from `send` itself.
 */
import type { CDPSession } from 'playwright-core';

declare const _session: CDPSession;

type Params<M extends Parameters<CDPSession['send']>[0]> = NonNullable<
  Parameters<typeof _session.send<M>>[1]
>;
type Returns<M extends Parameters<CDPSession['send']>[0]> = Awaited<ReturnType<typeof _session.send<M>>>;

export type AXNode = Returns<'Accessibility.getFullAXTree'>['nodes'][number];
export type AXValue = NonNullable<AXNode['name']>;
export type CallArgument = NonNullable<Params<'Runtime.callFunctionOn'>['arguments']>[number];
export type CallResult = Returns<'Runtime.callFunctionOn'>;
export type RemoteObject = CallResult['result'];
export type DeepSerializedValue = NonNullable<RemoteObject['deepSerializedValue']>;
