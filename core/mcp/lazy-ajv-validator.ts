import { createRequire } from 'node:module';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

type AjvProvider = { AjvJsonSchemaValidator: typeof AjvJsonSchemaValidator };

// Required on the first check, not at start: ajv with its formats is ~0.1 s of CPU a host start
// and an HTTP session would pay for a check that only an elicitation's answer needs (ADR 88).
const require = createRequire(import.meta.url);

/** The MCP SDK's own ajv validator, built the first time a schema is checked. */
export class LazyAjvValidator implements jsonSchemaValidator {
  #ajv: jsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.#ajv ??= new (
      require('@modelcontextprotocol/sdk/validation/ajv') as AjvProvider
    ).AjvJsonSchemaValidator();
    return this.#ajv.getValidator<T>(schema);
  }
}
