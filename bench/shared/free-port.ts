import net from 'node:net';

/** A loopback port free right now, for a server that needs its port before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => {
        resolve(address.port);
      });
    });
  });
}
