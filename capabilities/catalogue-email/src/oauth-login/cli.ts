#!/usr/bin/env node
// oauth-login: signs a mailbox in once with the OAuth2 device-code flow and prints the credentials to
// paste into Selu (issue 18). Run on the operator's machine after `./dev build`:
//   ./dev --filter @selu-catalogue/email oauth-login --provider microsoft --client-id <id>
import { parseArgs } from "node:util";
import { DEFAULT_TENANT, OAUTH_PRESETS, presetFor } from "../oauth/providers.js";
import { DeviceLoginError, deviceLogin, type DeviceLoginRequest } from "./device-login.js";

const USAGE = `Usage: oauth-login --provider microsoft|google --client-id <id> [--client-secret <secret>] [--tenant <tenant>]
       oauth-login --device-url <url> --token-url <url> --scope <scopes> --client-id <id> [--client-secret <secret>]

Signs the mailbox in once (device code: open the printed page, enter the code) and prints the
credentials to paste into Selu's settings of the email capability. See the capability's README.`;

/** The sign-in the options ask for, and the credential lines that name the provider. */
function requestFromArgs(args: readonly string[]): { request: DeviceLoginRequest; credentials: [string, string][]; hosts: string | undefined } {
  const { values } = parseArgs({
    args: [...args],
    options: {
      provider: { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      tenant: { type: "string" },
      "device-url": { type: "string" },
      "token-url": { type: "string" },
      scope: { type: "string" },
    },
    strict: true,
  });
  const clientId = values["client-id"]?.trim();
  if (!clientId) throw new DeviceLoginError("--client-id is required: the application (client) id of your app registration");
  const clientSecret = values["client-secret"]?.trim() || undefined;
  const credentials: [string, string][] = [];
  let request: DeviceLoginRequest;
  let hosts: string | undefined;
  if (values.provider) {
    const preset = presetFor(values.provider.trim().toLowerCase());
    if (!preset) throw new DeviceLoginError(`--provider must be ${Object.keys(OAUTH_PRESETS).join(" or ")}; for another provider give --device-url, --token-url and --scope`);
    if (preset.needsSecret && !clientSecret) throw new DeviceLoginError(`--client-secret is required: ${preset.label} issues one with the app's client id`);
    const tenant = values.tenant?.trim() || DEFAULT_TENANT;
    request = { deviceCodeUrl: preset.deviceCodeUrl(tenant), tokenUrl: preset.tokenUrl(tenant), clientId, clientSecret, scope: values.scope?.trim() || preset.scope };
    credentials.push(["OAUTH_PROVIDER", values.provider.trim().toLowerCase()]);
    if (values.tenant?.trim()) credentials.push(["OAUTH_TENANT", tenant]);
    hosts = `SMTP_HOST=${preset.smtp.host}  SMTP_PORT=${preset.smtp.port}  IMAP_HOST=${preset.imap.host}  IMAP_PORT=${preset.imap.port}`;
  } else {
    const deviceCodeUrl = values["device-url"]?.trim();
    const tokenUrl = values["token-url"]?.trim();
    const scope = values.scope?.trim();
    if (!deviceCodeUrl || !tokenUrl || !scope) throw new DeviceLoginError("give --provider, or all of --device-url, --token-url and --scope");
    request = { deviceCodeUrl, tokenUrl, clientId, clientSecret, scope };
    credentials.push(["OAUTH_TOKEN_URL", tokenUrl]);
  }
  credentials.push(["OAUTH_CLIENT_ID", clientId]);
  if (clientSecret) credentials.push(["OAUTH_CLIENT_SECRET", clientSecret]);
  return { request, credentials, hosts };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    const { request, credentials, hosts } = requestFromArgs(args);
    const result = await deviceLogin(request, { say: (line) => process.stderr.write(`${line}\n`) });
    const lines = [...credentials, ["OAUTH_REFRESH_TOKEN", result.refreshToken] as [string, string]].map(([name, value]) => `${name}=${value}`);
    process.stderr.write("\nSigned in. Set these credentials of the email capability in Selu (keep the refresh token secret):\n\n");
    process.stdout.write(`${lines.join("\n")}\n`);
    process.stderr.write(`\nAlso set EMAIL_USERNAME to the mailbox's address${hosts ? `, and ${hosts}` : ", and the provider's SMTP and IMAP hosts"}; leave EMAIL_PASSWORD empty.\n`);
    return 0;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`oauth-login: ${(err as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (err instanceof DeviceLoginError) {
      process.stderr.write(`oauth-login: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

process.exitCode = await main();
