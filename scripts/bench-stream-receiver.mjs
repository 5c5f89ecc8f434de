// A worker of the streams bench: holds its share of SSE streams, read straight off TCP sockets (no HTTP parser, no
// string decoding per chunk), and reports when each got its next `unleash-updated` event, as epoch milliseconds.
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { base, token, count } = workerData;
const { hostname, port } = new URL(base);
const now = () => performance.timeOrigin + performance.now();

function open() {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    socket.setNoDelay(true);
    socket.write(`GET /api/client/streaming HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: ${token}\r\naccept: text/event-stream\r\n\r\n`);
    const stream = { socket, connected: false, armed: false, at: undefined, head: '' };
    socket.on('data', (chunk) => {
      const at = now();
      if (!stream.connected) {
        stream.head += chunk.toString('latin1');
        if (!stream.head.startsWith('HTTP/1.1 200')) return reject(new Error(`stream: ${stream.head.slice(0, 200)}`));
        if (stream.head.includes('event: unleash-connected')) {
          stream.connected = true;
          resolve(stream);
        }
        return;
      }
      if (stream.armed && stream.at === undefined && chunk.includes('event: unleash-updated')) {
        stream.at = at;
        if (--waiting === 0) parentPort.postMessage({ arrivals: streams.map((s) => s.at) });
      }
    });
    socket.on('error', reject);
  });
}

const streams = [];
let waiting = 0;
for (let start = 0; start < count; start += 100) {
  streams.push(...(await Promise.all(Array.from({ length: Math.min(100, count - start) }, open))));
}
parentPort.on('message', (message) => {
  if (message === 'arm') {
    waiting = streams.length;
    for (const stream of streams) stream.armed = true;
    parentPort.postMessage('armed');
  }
  if (message === 'close') {
    for (const stream of streams) stream.socket.destroy();
    parentPort.close();
  }
});
parentPort.postMessage('ready');
