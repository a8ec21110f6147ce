/**
 * Creates an embedded database's data folder (PGlite's initdb) in a process of its own, then exits: creating a folder
 * grows PGlite's WebAssembly memory to about 700 MB, which a process never gives back while it runs (client.ts).
 * Plain JavaScript, so it starts without a TypeScript loader. Arguments: the folder, the start parameters as JSON.
 */
import { PGlite } from '@electric-sql/pglite';

const [dataDir, startParams] = process.argv.slice(2);
const pg = new PGlite({ dataDir, startParams: JSON.parse(startParams) });
await pg.waitReady;
await pg.close();
