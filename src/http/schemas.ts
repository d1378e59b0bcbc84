/**
 * Plain JSON Schema fragments for the OpenAPI document: responses, path parameters and query strings.
 * They describe; they do not validate. Request bodies are TypeBox schemas, which Fastify does validate
 * (each capability's *.schema.ts, http/validation-errors.ts).
 */
export type JsonSchema = Record<string, unknown>;

export function envelopeSchema(payload: JsonSchema = { type: 'object' }): JsonSchema {
  return {
    type: 'object',
    description: 'The response envelope. On INVALID the payload is `ValidationResults`; on ERROR it is `{}`.',
    properties: {
      meta: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['SUCCESS', 'INVALID', 'ERROR', 'UNAUTHORIZED', 'REFRESH'] },
          action: { type: 'null' },
          message: { type: 'string' },
          id: { type: 'null' },
        },
      },
      payload,
    },
  };
}

export function payloadOf(key: string, value: JsonSchema): JsonSchema {
  return { type: 'object', properties: { [key]: value } };
}
