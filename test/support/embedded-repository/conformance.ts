import { NS } from '../repository-client.js';

/** Terms the conformance suite (`conformance-*.test.ts`) asserts on. */
export const LDP_CONTAINS = `${NS.ldp}contains`;
export const CONSTRAINED_BY = `${NS.ldp}constrainedBy`;
export const TITLE = `${NS.dcterms}title`;
export const PREFER_CONTAINMENT = `${NS.ldp}PreferContainment`;
export const PREFER_MINIMAL = `${NS.ldp}PreferMinimalContainer`;
