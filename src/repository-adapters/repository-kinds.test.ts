import { describe, expect, it } from 'vitest';
import { CapabilityUnsupportedError } from '../shared/errors.js';
import { createAdapter } from './create-adapter.js';
import { REPOSITORY_KIND_DECLARATIONS, featuresOf, requireFacet } from './repository-kinds.js';

const ldp = () => createAdapter({ type: 'LDP', rootUri: 'http://127.0.0.1:9/root/' });
const fedora = () => createAdapter({ type: 'FEDORA', rootUri: 'http://127.0.0.1:9/rest/' });

describe('repository kinds', () => {
  it('an absent facet is the CapabilityUnsupportedError the context answers', () => {
    for (const capability of ['transactions', 'versions', 'fixity'] as const) {
      const absent = () => requireFacet(ldp(), capability);
      expect(absent).toThrow(CapabilityUnsupportedError);
      expect(absent).toThrow(new RegExp(`^The LDP repository does not support ${capability}$`));
    }
    expect(requireFacet(fedora(), 'versions')).toBeDefined();
  });

  it('features follow the facets, in their wire order', () => {
    expect(JSON.stringify(featuresOf(fedora()))).toBe(
      '{"versioning":true,"verifying":true,"transacting":true,"queryable":true,"fixity":true}',
    );
    expect(JSON.stringify(featuresOf(ldp()))).toBe(
      '{"versioning":false,"verifying":true,"transacting":false,"queryable":true,"fixity":false}',
    );
    expect(REPOSITORY_KIND_DECLARATIONS.map((d) => d.kind)).toEqual(['FEDORA', 'LDP']);
  });
});
