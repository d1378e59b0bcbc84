// @ts-check
/**
 * The body of a SPARQL Update worker thread (see update-runner.ts). Plain JavaScript that imports only
 * oxigraph, so that Node loads it as it is wherever the service runs: from src/ under vitest or tsx, and
 * from dist/ (tsc copies it there with allowJs). Evaluation is synchronous WebAssembly, which nothing can
 * interrupt from inside: the main thread terminates this thread when the time limit passes.
 */
import * as oxigraph from 'oxigraph';

/**
 * @typedef {{ readonly update: string, readonly count: string | null }} UpdateStep
 *   One operation of the update, and the query counting its WHERE solutions (up to the limit + 1).
 * @typedef {{
 *   readonly triples: string,
 *   readonly steps: readonly UpdateStep[],
 *   readonly base: string,
 *   readonly maxSolutions: number,
 *   readonly countVariable: string,
 *   readonly started?: import('node:worker_threads').MessagePort,
 * }} UpdateTask
 * @typedef {{ readonly termType: string, readonly value: string, readonly language?: string,
 *   readonly datatype?: { readonly value: string } }} PlainTerm
 * @typedef {{ readonly subject: PlainTerm, readonly predicate: PlainTerm, readonly object: PlainTerm }} PlainQuad
 * @typedef {{ readonly kind: 'done', readonly quads: PlainQuad[] }
 *   | { readonly kind: 'tooManySolutions' }
 *   | { readonly kind: 'failed', readonly message: string }} UpdateOutcome
 */

/**
 * @param {import('oxigraph').Term} term
 * @returns {PlainTerm}
 */
function plain(term) {
  if (term.termType === 'Literal') {
    return {
      termType: 'Literal',
      value: term.value,
      language: term.language,
      datatype: { value: term.datatype.value },
    };
  }
  return { termType: term.termType, value: term.value };
}

/**
 * Runs the steps in order on a store holding `triples` (N-Triples): before each operation with a WHERE,
 * counts its solutions and stops if they exceed the limit. Answers the resulting default graph.
 * @param {UpdateTask} task
 * @returns {UpdateOutcome}
 */
export default function runUpdate(task) {
  // Tells the main thread that evaluation starts now: time spent queued or starting the thread is not counted.
  // Absent when the main thread runs a bounded update itself (update-runner.ts).
  task.started?.postMessage('started');
  task.started?.close();
  const store = new oxigraph.Store();
  try {
    if (task.triples !== '') store.load(task.triples, { format: 'application/n-triples' });
    for (const step of task.steps) {
      if (step.count !== null) {
        const rows = /** @type {Map<string, import('oxigraph').Term>[]} */ (
          store.query(step.count, { base_iri: task.base })
        );
        const solutions = Number(rows[0]?.get(task.countVariable)?.value ?? '0');
        if (solutions > task.maxSolutions) return { kind: 'tooManySolutions' };
      }
      store.update(step.update, { base_iri: task.base });
    }
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  const quads = store.match(null, null, null, oxigraph.defaultGraph()).map((q) => ({
    subject: plain(q.subject),
    predicate: plain(q.predicate),
    object: plain(q.object),
  }));
  return { kind: 'done', quads };
}
