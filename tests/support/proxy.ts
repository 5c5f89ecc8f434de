// A TCP proxy on a free port whose target can change: a client keeps one address while the service behind it restarts.
import net, { type AddressInfo } from 'node:net';
import { afterFile } from './file-end.js';

export interface Proxy {
  url: string;
  /** Where new connections go (`http://127.0.0.1:<port>`). */
  target: string;
  /** Cuts every connection made so far. */
  cut(): void;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  const sockets = new Set<net.Socket>();
  const proxy: Proxy = { url: '', target, cut: () => {}, close: async () => {} };
  const server = net.createServer((client) => {
    const { hostname, port } = new URL(proxy.target);
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  proxy.close = async () => {
    proxy.cut();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  afterFile(proxy.close);
  return proxy;
}
