import type { HostHooks } from '@vmark/sdk';
import type { Container, ServiceIdentifier } from 'inversify';
import type { HostOptions } from './host-options.js';

/** Host-internal services; plugins never see these tokens. */
export const HostHooksToken: ServiceIdentifier<HostHooks> = Symbol.for('vmark.core.HostHooks');
export const HostOptionsToken: ServiceIdentifier<HostOptions> = Symbol.for('vmark.core.HostOptions');
/** The host's root container: each plugin gets a child of it. */
export const HostContainerToken: ServiceIdentifier<Container> = Symbol.for('vmark.core.HostContainer');
