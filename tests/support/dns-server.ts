import dns2 from 'dns2';

const { Packet } = dns2;

/** What the test's zone says about one name. */
type Entry = { txt: string[][] } | { failure: 'servfail' };

/**
 * A real DNS server on 127.0.0.1 (dns2, over UDP) answering from a zone the test fills in: TXT
 * records per name, NXDOMAIN for a name it never set, no data for a name set without TXT, and
 * SERVFAIL where the test says the servers are failing. The server under test asks it through
 * DNS_RESOLVER, as it would ask any resolver.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as DNS_RESOLVER takes it. */
  address: string;
  /** Publishes TXT records at `name` (each record may be split into several strings). */
  setTxt(name: string, records: string[][]): void;
  /** The name exists but has no TXT records. */
  setEmpty(name: string): void;
  /** Questions about `name` are answered SERVFAIL. */
  fail(name: string): void;
  /** Questions asked so far, by name. */
  asked(name: string): number;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, Entry>();
  const questions = new Map<string, number>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase().replace(/\.$/, '');
      questions.set(name, (questions.get(name) ?? 0) + 1);
      const entry = zone.get(name);
      if (!entry) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if ('failure' in entry) response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (question?.type === Packet.TYPE.TXT)
        for (const strings of entry.txt)
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, data: strings }));
      send(response);
    },
  });
  const { udp } = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  if (!udp) throw new Error('the test DNS server did not bind its UDP port');
  return {
    address: `127.0.0.1:${udp.port}`,
    setTxt: (name, records) => zone.set(name.toLowerCase(), { txt: records }),
    setEmpty: (name) => zone.set(name.toLowerCase(), { txt: [] }),
    fail: (name) => zone.set(name.toLowerCase(), { failure: 'servfail' }),
    asked: (name) => questions.get(name.toLowerCase()) ?? 0,
    close: () => server.close(),
  };
}
