/**
 * Trees of resources written with bare HTTP to a Fedora repository (the embedded one, in any dialect) or an
 * LDP server (Community Solid Server), for COPY jobs' tests: the source collection, and hand-made copies the
 * comparison walk is tried on. A tree is written the way clients write it (PUT at a chosen name), not
 * through the service, so what it checks does not depend on the code under test.
 */
export const DCTERMS = 'http://purl.org/dc/terms/';
export const PCDM = 'http://pcdm.org/models#';
export const EBUCORE_FILENAME = 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#filename';
const LDP = 'http://www.w3.org/ns/ldp#';
const PROV_WAS_DERIVED_FROM = 'http://www.w3.org/ns/prov#wasDerivedFrom';

export interface TreeBinary {
  readonly bytes: Buffer;
  readonly filename: string;
  readonly contentType: string;
}

export interface TreeNode {
  /** The path segment, decoded (written percent-encoded). */
  readonly name: string;
  /**
   * N-Triples lines about the resource (its own IRI or `<iri>#fragment` as subjects), given the IRI of
   * any resource of the tree where it is being written: `iri('')` the tree's root, `iri('a/b')` below it.
   */
  readonly statements?: (iri: (path: string) => string) => string;
  /** Present for a binary (no children then). */
  readonly binary?: TreeBinary;
  readonly children?: readonly TreeNode[];
}

export interface RawRepository {
  readonly kind: 'FEDORA' | 'LDP';
  /** Sent on every request (a Fedora repository's Basic authorization; none for the tests' CSS). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Every resource of a tree, parents first: its path below the root ('' the root) and whether it is a binary. */
export function treePaths(tree: TreeNode): { path: string; node: TreeNode }[] {
  const out: { path: string; node: TreeNode }[] = [];
  const visit = (node: TreeNode, path: string) => {
    out.push({ path, node });
    for (const child of node.children ?? []) visit(child, path === '' ? child.name : `${path}/${child.name}`);
  };
  visit(tree, '');
  return out;
}

/** The IRIs a tree gets when written as a child of `parent` (LDP containers end with `/`, binaries do not). */
export function treeIris(
  kind: RawRepository['kind'],
  parent: string,
  tree: TreeNode,
): (path: string) => string {
  const binaries = new Set(
    treePaths(tree)
      .filter((entry) => entry.node.binary !== undefined)
      .map((e) => e.path),
  );
  const base = `${parent.replace(/\/+$/, '')}/${encodeURIComponent(tree.name)}`;
  return (path: string) => {
    const below = path === '' ? '' : `/${path.split('/').map(encodeURIComponent).join('/')}`;
    return kind === 'LDP' && !binaries.has(path) ? `${base}${below}/` : `${base}${below}`;
  };
}

/**
 * Writes `tree` as a child of `parent`, parents before children; answers the root's IRI. With `derivedFrom`
 * every resource also gets `prov:wasDerivedFrom <derivedFrom(path)>` (a copy made by hand).
 */
export async function writeTree(
  repository: RawRepository,
  parent: string,
  tree: TreeNode,
  options: { readonly derivedFrom?: (path: string) => string } = {},
): Promise<string> {
  const iri = treeIris(repository.kind, parent, tree);
  for (const { path, node } of treePaths(tree)) {
    const self = iri(path);
    const derivation =
      options.derivedFrom === undefined
        ? ''
        : `<${self}> <${PROV_WAS_DERIVED_FROM}> <${options.derivedFrom(path)}> .\n`;
    const statements = `${node.statements?.(iri) ?? ''}\n${derivation}`;
    if (node.binary === undefined) await writeContainer(repository, self, statements);
    else await writeBinary(repository, self, node.binary, statements);
  }
  return iri('');
}

async function writeContainer(repository: RawRepository, uri: string, statements: string): Promise<void> {
  const headers = {
    ...repository.headers,
    'content-type': 'text/turtle',
    link: `<${LDP}BasicContainer>; rel="type"`,
  };
  if (repository.kind === 'FEDORA') {
    await expectOk('PUT', uri, headers, statements);
    return;
  }
  // CSS keeps a container's triples in its `.meta` description and ignores a container's body.
  await expectOk('PUT', uri, headers, '');
  if (statements.trim() !== '') await insertData(repository, `${uri}.meta`, statements);
}

async function writeBinary(
  repository: RawRepository,
  uri: string,
  binary: TreeBinary,
  statements: string,
): Promise<void> {
  await expectOk(
    'PUT',
    uri,
    {
      ...repository.headers,
      'content-type': binary.contentType,
      'content-disposition': `attachment; filename="${binary.filename}"`,
      link: `<${LDP}NonRDFSource>; rel="type"`,
    },
    binary.bytes,
  );
  if (repository.kind === 'FEDORA') {
    if (statements.trim() !== '') await insertData(repository, `${uri}/fcr:metadata`, statements);
    return;
  }
  // An LDP server drops the filename: it is kept in the description, as the LDP adapter keeps it.
  await insertData(
    repository,
    `${uri}.meta`,
    `<${uri}> <${EBUCORE_FILENAME}> ${JSON.stringify(binary.filename)} .\n${statements}`,
  );
}

/** A SPARQL `INSERT DATA` of N-Triples lines, sent to a resource or a description. */
export async function insertData(repository: RawRepository, uri: string, lines: string): Promise<void> {
  await expectOk(
    'PATCH',
    uri,
    { ...repository.headers, 'content-type': 'application/sparql-update' },
    `INSERT DATA { ${lines} }`,
  );
}

/** A SPARQL `DELETE DATA` of N-Triples lines. */
export async function deleteData(repository: RawRepository, uri: string, lines: string): Promise<void> {
  await expectOk(
    'PATCH',
    uri,
    { ...repository.headers, 'content-type': 'application/sparql-update' },
    `DELETE DATA { ${lines} }`,
  );
}

/** A bare request that must answer 2xx; answers the body as text (read whole, so the connection is reused). */
export async function expectOk(
  method: string,
  uri: string,
  headers: Readonly<Record<string, string>>,
  body?: string | Buffer,
): Promise<string> {
  const payload = typeof body === 'string' || body === undefined ? body : new Uint8Array(body);
  const response = await fetch(uri, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${uri} → ${response.status} ${text.slice(0, 500)}`);
  return text;
}
