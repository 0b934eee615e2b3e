import { CommandLineError } from '@vmark/sdk';

/** `--port N`: 0–65535, 0 (the default) picking a free one. */
export function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new CommandLineError(`--port must be 0–65535, got ${value}`);
  return port;
}
