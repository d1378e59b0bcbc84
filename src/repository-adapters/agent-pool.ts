import { Agent } from 'undici';

/**
 * The keep-alive connection pools under every repository client: one undici Agent per pair of timeouts,
 * shared by every client the owner creates (adapters are cheap to create, connections are not). The app
 * creates one pool and closes it with itself, so no socket outlives `app.close()`.
 */
export class AgentPool {
  private readonly agents = new Map<string, Agent>();
  private closed = false;

  /** The agent for these timeouts, created on first use. */
  agentFor(connectTimeoutMs: number, responseTimeoutMs: number): Agent {
    // A client created after close would open sockets nobody closes.
    if (this.closed) throw new Error('The repository connection pool is closed');
    const key = `${connectTimeoutMs}/${responseTimeoutMs}`;
    let agent = this.agents.get(key);
    if (agent === undefined) {
      agent = new Agent({
        connect: { timeout: connectTimeoutMs },
        headersTimeout: responseTimeoutMs,
        bodyTimeout: responseTimeoutMs,
        keepAliveTimeout: 4_000,
        maxRedirections: 0,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** Closes every agent: waits for requests under way, then ends the idle keep-alive connections. */
  async close(): Promise<void> {
    this.closed = true;
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map((agent) => agent.close()));
  }
}
