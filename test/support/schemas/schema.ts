import { expect } from 'vitest';
import { body, sendJson, type TestApp } from '../test-app.js';

export const URL = '/schema';

export interface SchemaJson {
  id: number;
  name: string;
  abbreviation: string;
  namespace: string;
  properties: { uri: string; label: string }[];
  namespaces: string[];
}

export const SUCCESS_META = {
  status: 'SUCCESS',
  action: null,
  message: 'Your request was successful',
  id: null,
};
export const INVALID_META = {
  status: 'INVALID',
  action: null,
  message: 'Your request failed validation',
  id: null,
};

export function invalid(messages: Record<string, Record<string, string>>) {
  return { meta: INVALID_META, payload: { ValidationResults: { valid: false, messages } } };
}

export const TEST_PROPERTIES = [
  { uri: 'http://test-property-uri.org/ns/property1', label: 'TEST_PROPERTY_LABEL' },
  { uri: 'http://test-property-2-uri.org/ns/property2', label: 'TEST_PROPERTY_LABEL_2' },
];

/**
 * Creating and listing schemas through the API, on the app of the running test (`app` is read when a
 * helper runs, after the test file's beforeEach built it).
 */
export function schemaClient(app: () => TestApp) {
  async function create(name: string, abbreviation: string, extra: Record<string, unknown> = {}) {
    const response = await sendJson(app().app, 'POST', URL, {
      id: null,
      name,
      abbreviation,
      namespace: `http://example.org/${abbreviation}/`,
      ...extra,
    });
    expect(body(response).meta.status, response.body).toBe('SUCCESS');
    return body(response).payload.Schema as SchemaJson;
  }

  async function list(): Promise<SchemaJson[]> {
    return body(await sendJson(app().app, 'GET', URL)).payload['ArrayList<Schema>'] as SchemaJson[];
  }

  return { create, list };
}
