import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceAgent } from './premis-model.js';

/**
 * The service as a PREMIS software agent: its name and the version in its package.json, found by walking
 * up from this module (src/ under tsx and tests, dist/ when built), read once.
 */
export function serviceAgent(from = path.dirname(fileURLToPath(import.meta.url))): ServiceAgent {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'scriptorium' && typeof manifest.version === 'string')
        return { name: 'Scriptorium', version: manifest.version };
    }
    if (path.dirname(dir) === dir) return { name: 'Scriptorium', version: 'unknown' };
  }
}
