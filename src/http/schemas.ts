/**
 * JSON Schema fragments for the OpenAPI document. They describe; they do not validate (see server.ts).
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
