import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { connectCapability, invokeCapability, Orchestrator, type ManifestView } from "@selu-catalogue/testkit/orchestrator";
import { sandboxCommand } from "@selu-catalogue/testkit/container";
import { startCapabilityProcess, type CapabilityProcess } from "@selu-catalogue/testkit/process";
import { startEgressProxy, type EgressProxy } from "@selu-catalogue/testkit/proxy";
import { createTestCa, type TestCa } from "@selu-catalogue/testkit/tls";
import { startImapServer, startSmtpServer, type ImapTestServer, type SeedMessage, type SmtpTestServer } from "@selu-catalogue/testkit/mail";
import { startOAuthProvider, type OAuthProviderOptions, type OAuthTestProvider } from "@selu-catalogue/testkit/oauth";

export const dir = fileURLToPath(new URL("..", import.meta.url));
export const USER = "alice@fastmail.test";
export const PASSWORD = "app-password-7f3c9a";

/** The account as Selu's credential settings would hold it (STARTTLS on 587, IMAP on 993). */
export const CREDENTIALS = {
  SMTP_HOST: "smtp.fastmail.com",
  SMTP_PORT: "587",
  IMAP_HOST: "imap.fastmail.com",
  EMAIL_USERNAME: USER,
  EMAIL_PASSWORD: PASSWORD,
  EMAIL_FROM_NAME: "Alice Example",
};

/**
 * Everything an email test meets: real SMTP servers (STARTTLS on 587, implicit TLS on 465) and Dovecot,
 * all with certificates for the provider's names from a test CA, reached only through the egress proxy
 * double with the manifest's own allowlist; the production entrypoint in a child process under the
 * container constraints (bubblewrap), trusting the CA through NODE_EXTRA_CA_CERTS; and an orchestrator
 * double holding the user's credentials.
 */
export interface MailWorld {
  ca: TestCa;
  smtp: SmtpTestServer;
  smtps: SmtpTestServer;
  imap: ImapTestServer;
  proxy: EgressProxy;
  proc: CapabilityProcess;
  manifest: ManifestView;
  /** resources.max_memory_mb of the manifest. */
  manifestMemoryMb: number;
  orchestrator: Orchestrator;
  /** The OAuth2 provider double (Microsoft's token host), when the world was started with `oauth`. */
  oauth: OAuthTestProvider | undefined;
  /** Another orchestrator double with other credentials against the same process. */
  withCredentials(overrides: Record<string, string | undefined>): Promise<Orchestrator>;
  close(): Promise<void>;
}

/** The token host of the OAuth2 provider double: Microsoft's, as the `microsoft` preset asks it. */
export const TOKEN_HOST = "login.microsoftonline.com";

/** Options of {@link startMailWorld}. */
export interface MailWorldOptions {
  /** Start an OAuth2 provider double, and let the SMTP servers and Dovecot accept its access tokens too. */
  oauth?: Omit<OAuthProviderOptions, "ca" | "names" | "username">;
  /** Extra environment of the capability process (LOG_LEVEL). */
  env?: Record<string, string>;
}

export async function startMailWorld(seed: readonly SeedMessage[] = [], options: MailWorldOptions = {}): Promise<MailWorld> {
  const ca = createTestCa();
  const users = { [USER]: PASSWORD };
  const oauth = options.oauth ? await startOAuthProvider({ ...options.oauth, ca, names: [TOKEN_HOST], username: USER }) : undefined;
  const acceptsToken = oauth ? { acceptsToken: oauth.accepts } : {};
  const [smtp, smtps, imap] = await Promise.all([
    startSmtpServer({ ca, names: ["smtp.fastmail.com"], users, rejectRecipients: ["bounce@example.com"], ...acceptsToken }),
    startSmtpServer({ ca, names: ["smtp.fastmail.com"], users, security: "tls", ...acceptsToken }),
    startImapServer({ ca, names: ["imap.fastmail.com"], users, seed, ...(oauth ? { oauth2: { introspectionUrl: oauth.introspectionUrl } } : {}) }),
  ]);
  const { manifest, problems } = loadManifest(`${dir}/manifest.yaml`);
  if (!manifest) throw new Error(`manifest.yaml: ${JSON.stringify(problems)}`);
  const proxy = await startEgressProxy({
    policy: manifest.network,
    capability: "catalogue-email",
    map: {
      "smtp.fastmail.com:587": `${smtp.host}:${smtp.port}`,
      "smtp.fastmail.com:465": `${smtps.host}:${smtps.port}`,
      "imap.fastmail.com:993": `${imap.host}:${imap.port}`,
      ...(oauth ? { [`${TOKEN_HOST}:443`]: `${oauth.host}:${oauth.port}` } : {}),
    },
  });
  const caFile = await ca.writeCertFile();
  // Under Selu's container constraints (uid 1000, read-only root, own /tmp), the CA file shown read-only.
  const proc = await startCapabilityProcess(dir, {
    env: { ...proxy.env, NODE_EXTRA_CA_CERTS: caFile, ...options.env },
    wrap: (command) => sandboxCommand(command, { readOnly: [dirname(caFile)] }),
  });
  const orchestrators: Orchestrator[] = [];
  const withCredentials = async (overrides: Record<string, string | undefined>) => {
    const set = Object.fromEntries(Object.entries({ ...CREDENTIALS, ...overrides }).filter((e): e is [string, string] => e[1] !== undefined));
    const orchestrator = new Orchestrator({ credentials: { "catalogue-email": set } });
    await orchestrator.install(manifest as ManifestView, proc.address);
    orchestrators.push(orchestrator);
    return orchestrator;
  };
  const orchestrator = await withCredentials({});
  return {
    ca,
    smtp,
    smtps,
    imap,
    proxy,
    proc,
    manifest: manifest as ManifestView,
    manifestMemoryMb: manifest.resources.max_memory_mb,
    orchestrator,
    oauth,
    withCredentials,
    async close() {
      for (const o of orchestrators) await o.close();
      await proc.stop();
      await Promise.all([proxy.close(), smtp.close(), smtps.close(), imap.close(), oauth?.close()]);
      await rm(dirname(caFile), { recursive: true, force: true });
    },
  };
}

/** Calls a tool and returns its result, failing the test with the error text otherwise. */
export async function ok(orchestrator: Orchestrator, tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const outcome = await orchestrator.call(`catalogue-email__${tool}`, args);
  if (!outcome.ok) throw new Error(`${tool} failed: ${outcome.error}`);
  return outcome.result;
}

/** Calls a tool that must fail and returns its own error text (else the error the model sees, in Selu's words). */
export async function fails(orchestrator: Orchestrator, tool: string, args: Record<string, unknown>): Promise<string> {
  const outcome = await orchestrator.call(`catalogue-email__${tool}`, args);
  if (outcome.ok) throw new Error(`${tool} succeeded unexpectedly: ${JSON.stringify(outcome.result)}`);
  return outcome.capabilityError ?? outcome.error;
}

/**
 * Invokes a tool straight over gRPC, as an orchestrator would after its own checks: for arguments
 * the orchestrator double would refuse first (an element that already has capability_artifact_id).
 */
export async function invokeDirect(world: MailWorld, tool: string, args: unknown, options: { deadlineMs?: number; config?: Record<string, string> } = {}) {
  const client = connectCapability(world.proc.address);
  try {
    const request = {
      toolName: tool,
      argsJson: Buffer.from(JSON.stringify(args)),
      configJson: Buffer.from(JSON.stringify(options.config ?? CREDENTIALS)),
      sessionId: "direct",
      capabilityId: "catalogue-email",
      threadId: "",
    };
    const res = await invokeCapability(client, request, { deadlineMs: options.deadlineMs ?? 30_000 });
    return { error: res.error, result: res.error ? undefined : (JSON.parse(res.resultJson.toString()) as unknown), resultJson: res.resultJson };
  } finally {
    client.close();
  }
}
