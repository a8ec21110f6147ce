import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from './mailer';

/** An SMTP server on loopback that answers the dialogue a client needs and keeps what it is sent. */
function startSmtpServer(): Promise<{ server: Server; port: number; received: string[] }> {
  const received: string[] = [];
  const server = createServer((socket) => {
    let inData = false;
    let data = '';
    let pending = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      let end = pending.indexOf('\r\n');
      while (end !== -1) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(data);
            socket.write('250 queued\r\n');
          } else data += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 test\r\n');
        else if (/^DATA/i.test(line)) {
          inData = true;
          data = '';
          socket.write('354 go on\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
        end = pending.indexOf('\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, received })),
  );
}

describe('the SMTP mailer', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => new Promise<void>((done) => smtp.server.close(() => done())));

  it('delivers a message over SMTP', async () => {
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${smtp.port}`, 'Dialflow <noreply@dialflow.test>');
    expect(mailer.kind).toBe('smtp');
    await expect(mailer.send({ to: 'ama@example.com', subject: 'Reset your password', text: 'Follow the link.' })).resolves.toBe('sent');
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toContain('Subject: Reset your password');
    expect(smtp.received[0]).toContain('To: ama@example.com');
    expect(smtp.received[0]).toContain('Follow the link.');
  });

  it('fails a send when no server answers', async () => {
    const mailer = createSmtpMailer('smtp://127.0.0.1:1', 'noreply@dialflow.test');
    await expect(mailer.send({ to: 'ama@example.com', subject: 'x', text: 'y' })).rejects.toThrow(/ECONNREFUSED/);
  });
});
