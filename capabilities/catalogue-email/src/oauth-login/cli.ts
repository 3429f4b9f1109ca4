#!/usr/bin/env node
// oauth-login: signs a mailbox in once with OAuth2 and prints the credentials to paste into Selu
// (issue 18). Run on the operator's machine after `./dev build`:
//   ./dev --filter @selu-catalogue/email oauth-login --provider microsoft --client-id <id>
import { parseArgs } from "node:util";
import { DEFAULT_TENANT, OAUTH_PRESETS, presetFor } from "../oauth/providers.js";
import { deviceLogin } from "./device-login.js";
import { loopbackLogin } from "./loopback-login.js";
import { LoginError } from "./token-post.js";

const USAGE = `Usage: oauth-login --provider microsoft|google --client-id <id> [--client-secret <secret>] [--tenant <tenant>]
                   [--flow device|loopback] [--port <port>]
       oauth-login --token-url <url> --scope <scopes> --client-id <id> [--client-secret <secret>]
                   (--device-url <url> | --authorize-url <url> [--port <port>])

Signs the mailbox in once and prints the credentials to paste into Selu's settings of the email
capability. Microsoft signs in with a device code (open the printed page, enter the code); Google with
a browser sent back to this machine (open the printed address here). See the capability's README.`;

const OPTIONS = {
  provider: { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  tenant: { type: "string" },
  flow: { type: "string" },
  port: { type: "string" },
  "device-url": { type: "string" },
  "authorize-url": { type: "string" },
  "token-url": { type: "string" },
  scope: { type: "string" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];

/** Signs in as the options say; resolves with the credential lines to print and the hosts to suggest. */
async function signIn(values: Values, say: (line: string) => void): Promise<{ lines: string[]; hosts: string | undefined }> {
  const clientId = values["client-id"]?.trim();
  if (!clientId) throw new LoginError("--client-id is required: the application (client) id of your app registration");
  const clientSecret = values["client-secret"]?.trim() || undefined;
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) throw new LoginError("--port must be a port number (1-65535)");
  const credentials: [string, string][] = [];
  let tokenUrl: string;
  let scope: string;
  let flow: string;
  let device: string | undefined;
  let authorize: { url: string; redirectHost: "localhost" | "127.0.0.1"; params: Readonly<Record<string, string>> } | undefined;
  let hosts: string | undefined;
  if (values.provider) {
    const name = values.provider.trim().toLowerCase();
    const preset = presetFor(name);
    if (!preset) throw new LoginError(`--provider must be ${Object.keys(OAUTH_PRESETS).join(" or ")}; for another provider give --token-url, --scope and --device-url or --authorize-url`);
    if (preset.needsSecret && !clientSecret) throw new LoginError(`--client-secret is required: ${preset.label} issues one with the app's client id`);
    const tenant = values.tenant?.trim() || DEFAULT_TENANT;
    tokenUrl = preset.tokenUrl(tenant);
    scope = values.scope?.trim() || preset.scope;
    flow = values.flow ?? preset.loginFlow;
    device = preset.deviceCodeUrl(tenant);
    authorize = { url: preset.authorizeUrl(tenant), redirectHost: preset.redirectHost, params: preset.authorizeParams };
    credentials.push(["OAUTH_PROVIDER", name]);
    if (values.tenant?.trim()) credentials.push(["OAUTH_TENANT", tenant]);
    hosts = preset.servers;
  } else {
    const given = { token: values["token-url"]?.trim(), scope: values.scope?.trim(), device: values["device-url"]?.trim(), authorize: values["authorize-url"]?.trim() };
    if (!given.token || !given.scope || (!given.device && !given.authorize)) throw new LoginError("give --provider, or --token-url, --scope and --device-url or --authorize-url");
    tokenUrl = given.token;
    scope = given.scope;
    device = given.device;
    authorize = given.authorize ? { url: given.authorize, redirectHost: "127.0.0.1", params: {} } : undefined;
    flow = values.flow ?? (device ? "device" : "loopback");
    credentials.push(["OAUTH_TOKEN_URL", tokenUrl]);
  }
  credentials.push(["OAUTH_CLIENT_ID", clientId]);
  if (clientSecret) credentials.push(["OAUTH_CLIENT_SECRET", clientSecret]);
  let result;
  if (flow === "device" && device) {
    result = await deviceLogin({ deviceCodeUrl: device, tokenUrl, clientId, clientSecret, scope }, { say });
  } else if (flow === "loopback" && authorize) {
    const request = { authorizeUrl: authorize.url, tokenUrl, clientId, clientSecret, scope, redirectHost: authorize.redirectHost, authorizeParams: authorize.params };
    result = await loopbackLogin(port === undefined ? request : { ...request, port }, { say });
  } else {
    throw new LoginError("--flow must be device (with a device-code URL) or loopback (with an authorize URL)");
  }
  credentials.push(["OAUTH_REFRESH_TOKEN", result.refreshToken]);
  return { lines: credentials.map(([name, value]) => `${name}=${value}`), hosts };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const say = (line: string) => process.stderr.write(`${line}\n`);
  try {
    const { values } = parseArgs({ args, options: OPTIONS, strict: true });
    const { lines, hosts } = await signIn(values, say);
    say("\nSigned in. Set these credentials of the email capability in Selu (keep the refresh token secret):\n");
    process.stdout.write(`${lines.join("\n")}\n`);
    say(`\nAlso set EMAIL_USERNAME to the mailbox's address${hosts ? `, and ${hosts}` : ", and the provider's SMTP and IMAP hosts"}; leave EMAIL_PASSWORD empty.`);
    return 0;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      say(`oauth-login: ${(err as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof LoginError) {
      say(`oauth-login: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

process.exitCode = await main();
