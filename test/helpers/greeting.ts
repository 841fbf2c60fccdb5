/** What a TCP server on the loopback sends first, for tests of a guest's display (VNC) without a client library. */
import * as net from 'node:net';

/**
 * The first `bytes` bytes (latin1) a server on 127.0.0.1:`port` sends after the connection opens: 12 for VNC's
 * ProtocolVersion greeting (RFC 6143 §7.1.1, `RFB 003.008\n`). Rejects with the socket's error, or when fewer than
 * `bytes` arrive within `timeoutMs` (milliseconds).
 */
export function serverGreeting(port: number, bytes = 12, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no greeting of ${bytes} bytes on port ${port} within ${timeoutMs / 1000} s (got ${JSON.stringify(got)})`));
    }, timeoutMs);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (got.length >= bytes) {
        clearTimeout(timer);
        socket.destroy();
        resolve(got.slice(0, bytes));
      }
    });
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
