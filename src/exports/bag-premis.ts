import type { AuditEvent, AuditFilter } from '../audit/audit-event.js';
import { premisDocument } from '../audit/premis/premis-model.js';
import { PREMIS_MAX_EVENTS } from '../audit/premis/premis-source.js';
import { premisXml } from '../audit/premis/premis-xml.js';
import { serviceAgent } from '../audit/premis/service-agent.js';
import { segmentsBelow } from './bag-paths.js';

/** What the bag's premis.xml reads of the audit ledger (AuditStore). */
export interface BagLedger {
  list(filter: AuditFilter): Promise<AuditEvent[]>;
}

/** Ledger rows read per query while the scope's events are gathered. */
const PAGE = 1000;

/**
 * The scope's audit events as PREMIS 3.0 XML (DECISIONS.md §14, §15), as GET /audit/premis writes them:
 * the events of the view (and of writes made straight to /rest below its root) on the scope's resource or
 * any resource below its IRI. Read newest first a page at a time (an event appended meanwhile shifts a
 * page: each event is kept once, by id). More than PREMIS_MAX_EVENTS events in scope throws: a bag's
 * provenance is never silently cut short.
 */
export async function scopePremis(
  ledger: BagLedger,
  view: { readonly id: number; readonly rootUri: string },
  scopeUri: string,
): Promise<string> {
  const kept = new Map<number, AuditEvent>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await ledger.list({ within: [{ id: view.id, rootUri: view.rootUri }], offset, limit: PAGE });
    for (const event of page)
      if (event.contextUri !== null && segmentsBelow(event.contextUri, scopeUri) !== undefined)
        kept.set(event.id, event);
    if (kept.size > PREMIS_MAX_EVENTS)
      throw new Error(
        `The scope has more than ${PREMIS_MAX_EVENTS} audit events, too many for the bag's premis.xml`,
      );
    if (page.length < PAGE) break;
  }
  return premisXml(premisDocument([...kept.values()], serviceAgent()));
}
