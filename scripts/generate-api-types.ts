import fs from 'node:fs';
import { apiTypesSource, API_TYPES_FILE } from './api-types.js';

/** `npm run gen:api`: writes the workbench's API types from the service's OpenAPI document. */
const source = await apiTypesSource();
fs.writeFileSync(API_TYPES_FILE, source);
process.stdout.write(`wrote ${API_TYPES_FILE}\n`);
