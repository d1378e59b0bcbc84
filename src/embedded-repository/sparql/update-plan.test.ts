import { describe, expect, it } from 'vitest';
import { repositoryPatchPolicy } from '../../linked-data/sparql/update-policies.js';
import { vetSparqlUpdate } from '../../linked-data/sparql/update-vetter.js';
import { RepositoryRefusal } from '../refusal.js';
import { planUpdate as planVetted } from './update-plan.js';

const BASE = 'http://repo.test/rest/a';

/** Plans `text` as PATCH does: vetted and parsed once, then planned. */
function planUpdate(text: string, base: string, maxSolutions: number) {
  return planVetted(text, vetSparqlUpdate(text, repositoryPatchPolicy(base)), maxSolutions);
}

describe('planUpdate', () => {
  it('gives one step per operation, with full IRIs, and a solution count for those with a WHERE', () => {
    const plan = planUpdate(
      `PREFIX ex: <http://example.org/>
       INSERT DATA { <> ex:t "x" } ;
       DELETE { <> ex:t ?v } INSERT { <> ex:u ?v } WHERE { <> ex:t ?v } ;
       DELETE WHERE { <> ex:u ?w }`,
      BASE,
      10,
    );
    expect(plan.steps).toHaveLength(3);
    expect(plan.steps[0]?.count).toBeNull();
    expect(plan.steps[0]?.update).toContain(`<${BASE}> <http://example.org/t> "x"`);
    expect(plan.steps[1]?.count).toMatch(/^SELECT \(COUNT\(\*\) AS \?solutions\) WHERE \{ SELECT \* WHERE/);
    expect(plan.steps[1]?.count).toMatch(/LIMIT 11 }$/);
    expect(plan.steps[2]?.count).toContain(`<${BASE}> <http://example.org/u> ?w`);
    for (const step of plan.steps) expect(step.update).not.toMatch(/PREFIX|BASE/);
  });

  it('counts into a variable the update does not use', () => {
    const plan = planUpdate(
      'INSERT { <> <http://x/p> ?solutions } WHERE { <> <http://x/q> ?solutions }',
      BASE,
      5,
    );
    expect(plan.countVariable).not.toBe('solutions');
    expect(plan.steps[0]?.count).toContain(`?${plan.countVariable})`);
  });

  it('refuses text that is not Unicode (400)', () => {
    for (const literal of ['"\\U00110000"', '"\\U0000DC00"']) {
      expect(() => planUpdate(`INSERT DATA { <> <http://x/p> ${literal} }`, BASE, 5)).toThrow(
        RepositoryRefusal,
      );
    }
  });
});
