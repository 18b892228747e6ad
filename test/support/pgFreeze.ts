/**
 * A TCP relay in front of the test PostgreSQL server that can freeze, as a stopped (SIGSTOP) or
 * unplugged database does: connections are still accepted and bytes still sent, but nothing ever
 * answers. Unlike a refused connection, every query and every new connection just waits.
 */
import { createServer, connect, type AddressInfo, type Socket } from "node:net";

export interface FreezableDatabase {
  /** The database URL through the relay. */
  url: string;
  /** From now on nothing answers: open connections go silent, new ones are held unanswered. */
  freeze(): void;
  /** Everything held goes through, as when the database runs again. */
  thaw(): void;
  close(): Promise<void>;
}

export async function freezableDatabase(databaseUrl: string): Promise<FreezableDatabase> {
  const target = new URL(databaseUrl);
  let frozen = false;
  const sockets = new Set<Socket>();
  const held: Socket[] = [];

  const relay = (client: Socket) => {
    const server = connect(Number(target.port), target.hostname);
    for (const [from, to] of [[client, server], [server, client]] as const) {
      sockets.add(from);
      from.on("data", (chunk) => to.write(chunk));
      from.on("close", () => (sockets.delete(from), to.destroy()));
      from.on("error", () => to.destroy());
      if (frozen) from.pause();
      else from.resume();
    }
  };
  const listener = createServer((client) => {
    if (!frozen) return relay(client);
    client.pause();
    client.on("error", () => undefined);
    held.push(client);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((listener.address() as AddressInfo).port);

  return {
    url: url.toString(),
    freeze() {
      frozen = true;
      for (const s of sockets) s.pause();
    },
    thaw() {
      frozen = false;
      for (const s of sockets) s.resume();
      for (const client of held.splice(0)) relay(client);
    },
    async close() {
      for (const s of [...sockets, ...held.splice(0)]) s.destroy();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}
