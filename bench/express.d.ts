// The part of express's API that bench/servers/peer.ts uses (express ships no types; @types/express is not a dependency).
declare module 'express' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';

  interface Request extends IncomingMessage {
    body: unknown;
  }
  interface Response extends ServerResponse {
    type(contentType: string): Response;
    send(body: string): Response;
  }
  type Handler = (req: Request, res: Response, next: () => void) => unknown;
  interface Express {
    use(handler: Handler): Express;
    post(path: string, handler: Handler): Express;
    listen(port: number, host: string, callback: () => void): Server;
  }
  interface ExpressModule {
    (): Express;
    urlencoded(options: { extended: boolean }): Handler;
  }
  const express: ExpressModule;
  export default express;
}
