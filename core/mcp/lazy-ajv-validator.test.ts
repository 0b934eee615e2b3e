import { createRequire } from 'node:module';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';
import { describe, expect, it } from 'vitest';
import { approvalForm } from './approval-form.js';
import { LazyAjvValidator } from './lazy-ajv-validator.js';

const require = createRequire(import.meta.url);
// The build the lazy validator requires (this test imports the SDK's ESM build, a module apart).
const sdkAjvProvider = require.resolve('@modelcontextprotocol/sdk/validation/ajv');

const siteForm = approvalForm({ offerSite: 'https://example.com' }) as JsonSchemaType;
const emailForm: JsonSchemaType = {
  type: 'object',
  properties: { to: { type: 'string', format: 'email' } },
  required: ['to'],
};
const answers: [JsonSchemaType, unknown][] = [
  [siteForm, { allow: 'once' }],
  [siteForm, { allow: 'site' }],
  [siteForm, { allow: 'forever' }],
  [siteForm, {}],
  [approvalForm(undefined), {}],
  [emailForm, { to: 'a@example.com' }],
  [emailForm, { to: 'not an address' }],
];

describe('LazyAjvValidator', () => {
  it('loads ajv on the first check, not when it is made', () => {
    expect(require.cache[sdkAjvProvider]).toBeUndefined();
    const validator = new LazyAjvValidator();
    expect(require.cache[sdkAjvProvider]).toBeUndefined();
    validator.getValidator(siteForm);
    expect(require.cache[sdkAjvProvider]).toBeDefined();
  });

  it('answers as the SDK’s own ajv validator, formats included', () => {
    const lazy = new LazyAjvValidator();
    const own = new AjvJsonSchemaValidator();
    const results = answers.map(([schema, input]) => lazy.getValidator(schema)(input));
    expect(results).toEqual(answers.map(([schema, input]) => own.getValidator(schema)(input)));
    expect(results.map((result) => result.valid)).toEqual([true, true, false, false, true, true, false]);
  });
});
