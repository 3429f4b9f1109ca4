// Everything the catalogue's end-to-end flows run against, as in a real Selu: each capability's production
// entrypoint in its own process behind its own egress proxy double (enforcing its manifest's network
// policy), real mail servers behind a provider's production names, and one orchestrator double that
// carries artifacts from one capability to the next.
import { fileURLToPath } from "node:url";
import { loadManifest, type Manifest } from "@selu-catalogue/manifest";
import { createTestCa, Orchestrator, startCapabilityProcess, startEgressProxy, type CapabilityProcess, type EgressProxy, type TestCa } from "@selu-catalogue/testkit";
import { startImapServer, startSmtpServer, type ImapTestServer, type SeedMessage, type SmtpTestServer } from "@selu-catalogue/testkit/mail";

/** The mailbox the agent acts for, at a provider the email manifest allows. */
export const MAILBOX = { user: "ann@example.com", password: "ann-app-password", name: "Ann Lee" };
export const SMTP_NAME = "smtp.fastmail.com";
export const IMAP_NAME = "imap.fastmail.com";

const capabilityDir = (id: string) => fileURLToPath(new URL(`../../capabilities/${id}/`, import.meta.url));

export interface CatalogueWorld {
  readonly ca: TestCa;
  readonly smtp: SmtpTestServer;
  readonly imap: ImapTestServer;
  readonly orchestrator: Orchestrator;
  readonly capabilities: Readonly<Record<"pdf" | "email", { process: CapabilityProcess; proxy: EgressProxy; manifest: Manifest }>>;
  /** Stops everything; returns each capability's exit code after SIGTERM. */
  close(): Promise<Record<string, number | null>>;
}

export interface CatalogueWorldOptions {
  /** Messages in the mailbox before the agent looks. */
  seed?: readonly SeedMessage[];
  /** LOG_LEVEL for the capabilities (default warn, so demo output stays readable). */
  logLevel?: string;
}

/**
 * Real SMTP and IMAP servers for {@link MAILBOX} under the provider's names, with certificates from `ca`;
 * their stops are pushed onto `stack`.
 */
export async function startMailServers(ca: TestCa, stack: (() => Promise<unknown>)[], seed: readonly SeedMessage[] = []): Promise<{ smtp: SmtpTestServer; imap: ImapTestServer }> {
  const users = { [MAILBOX.user]: MAILBOX.password };
  const smtp = await startSmtpServer({ ca, users, names: [SMTP_NAME], security: "starttls" });
  stack.push(() => smtp.close());
  const imap = await startImapServer({ ca, users, names: [IMAP_NAME], seed });
  stack.push(() => imap.close());
  return { smtp, imap };
}

export async function startCatalogueWorld(options: CatalogueWorldOptions = {}): Promise<CatalogueWorld> {
  const stack: (() => Promise<unknown>)[] = [];
  const close = async () => {
    const codes: Record<string, number | null> = {};
    for (const stop of stack.reverse()) {
      const result = await stop().catch(() => null);
      if (result && typeof result === "object") Object.assign(codes, result);
    }
    return codes;
  };
  try {
    const ca = createTestCa();
    const caFile = await ca.writeCertFile();
    const { smtp, imap } = await startMailServers(ca, stack, options.seed);

    const start = async (id: "catalogue-pdf" | "catalogue-email", map: Record<string, string>) => {
      const manifest = loadManifest(`${capabilityDir(id)}manifest.yaml`).manifest;
      if (!manifest) throw new Error(`capabilities/${id}/manifest.yaml does not load`);
      const proxy = await startEgressProxy({ policy: manifest.network, capability: id, map });
      stack.push(() => proxy.close());
      const env = { ...proxy.env, NODE_EXTRA_CA_CERTS: caFile, LOG_LEVEL: options.logLevel ?? "warn" };
      const process = await startCapabilityProcess(capabilityDir(id), { env });
      stack.push(async () => ({ [id]: await process.stop() }));
      return { process, proxy, manifest };
    };
    const pdf = await start("catalogue-pdf", {});
    const email = await start("catalogue-email", {
      [`${SMTP_NAME}:587`]: `127.0.0.1:${smtp.port}`,
      [`${IMAP_NAME}:993`]: `127.0.0.1:${imap.port}`,
    });

    const orchestrator = new Orchestrator({
      credentials: {
        "catalogue-email": {
          SMTP_HOST: SMTP_NAME,
          SMTP_PORT: "587",
          IMAP_HOST: IMAP_NAME,
          EMAIL_USERNAME: MAILBOX.user,
          EMAIL_PASSWORD: MAILBOX.password,
          EMAIL_FROM_NAME: MAILBOX.name,
        },
      },
    });
    stack.push(() => orchestrator.close());
    await orchestrator.install(pdf.manifest, pdf.process.address);
    await orchestrator.install(email.manifest, email.process.address);
    return { ca, smtp, imap, orchestrator, capabilities: { pdf, email }, close };
  } catch (err) {
    await close();
    throw err;
  }
}
