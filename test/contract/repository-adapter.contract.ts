import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapter } from '../../src/repository-adapters/create-adapter.js';
import { detectFedoraDialect } from '../../src/repository-adapters/fedora-dialect-detection.js';
import { literal } from '../../src/linked-data/rdf/terms.js';
import type { RepositoryKind } from '../../src/repository-adapters/repository-adapter.js';
import {
  REPOSITORY_KIND_DECLARATIONS,
  capabilitiesOf,
  featuresFrom,
  featuresOf,
} from '../../src/repository-adapters/repository-kinds.js';
import type { RepositoryHttpClientOptions } from '../../src/repository-adapters/repository-http-client.js';
import { describeBinaryContract } from './binaries.contract.js';
import { describeConditionalWriteContract } from './conditional-writes.contract.js';
import {
  TITLE,
  type Adapter,
  type ContractRun,
  type ContractSetup,
  type ContractTarget,
  type ContractView,
} from './contract.support.js';
import { describeNamedCreationContract } from './named-creation.contract.js';
import { describeResourceContract } from './resources.contract.js';
import { startStubServers, type StubServers } from './stub-servers.js';
import { describeTransactionContract } from './transactions.contract.js';
import { describeVerificationContract } from './verification.contract.js';
import { describeVersionContract } from './versions.contract.js';

export type { ContractSetup, ContractTarget, ContractView } from './contract.support.js';

function declarationOf(kind: RepositoryKind) {
  const declaration = REPOSITORY_KIND_DECLARATIONS.find((d) => d.kind === kind);
  if (declaration === undefined) throw new Error(`No declaration for ${kind}`);
  return declaration;
}

/**
 * The adapter contract: one suite of behaviours every `RepositoryAdapter` must show against a real
 * server of its kind. A capability the kind lacks (per its `features`) is asserted to fail cleanly with a
 * CapabilityUnsupportedError naming the feature — never skipped. This runner starts the target once and
 * holds every theme module (`*.contract.ts` beside it) against it, so each runner file checks them all.
 */
export function describeRepositoryAdapter(name: string, setup: ContractSetup): void {
  const { kind, dialect } = setup;
  const declaration = declarationOf(kind);
  const features = featuresFrom(declaration.capabilities);

  describe(name, () => {
    let target: ContractTarget;
    let stubs: StubServers;
    let workspace: string;

    const adapterFor = (view: ContractView, options: RepositoryHttpClientOptions = {}): Adapter =>
      createAdapter({ type: kind, ...view, ...(dialect === undefined ? {} : { dialect }) }, options);
    const adapter = (options: RepositoryHttpClientOptions = {}): Adapter => adapterFor(target.view, options);
    const run: ContractRun = {
      kind,
      dialect,
      features,
      get target() {
        return target;
      },
      get stubs() {
        return stubs;
      },
      get workspace() {
        return workspace;
      },
      adapterFor,
      adapter,
    };

    beforeAll(async () => {
      target = await setup.start();
      stubs = await startStubServers(2_000);
      workspace = await adapter().createChild(target.view.rootUri, [
        { predicate: TITLE, object: literal(`contract ${randomUUID()}`) },
      ]);
    }, 60_000);

    afterAll(async () => {
      await stubs.close();
      await target.close();
    });

    it(`provides exactly the facets the ${kind} declaration lists`, () => {
      expect(adapter().kind).toBe(kind);
      expect(capabilitiesOf(adapter()).sort()).toEqual([...declaration.capabilities].sort());
      expect(featuresOf(adapter())).toEqual(features);
      expect(Object.keys(featuresOf(adapter())).sort()).toEqual([
        'fixity',
        'queryable',
        'transacting',
        'verifying',
        'versioning',
      ]);
    });

    it(`is detected as ${setup.detects} (fedora-api.md §1.9)`, async () => {
      const a = adapter();
      expect(await detectFedoraDialect(a.client)).toBe(setup.detects);
      expect(a.client.requestCount).toBeLessThanOrEqual(3);
    });

    describeResourceContract(run);
    describeBinaryContract(run);
    describeConditionalWriteContract(run);
    describeNamedCreationContract(run);
    describeTransactionContract(run);
    describeVersionContract(run);
    describeVerificationContract(run);
  });
}
