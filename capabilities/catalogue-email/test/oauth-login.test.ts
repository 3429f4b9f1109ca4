import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthProvider, type OAuthTestProvider } from "@selu-catalogue/testkit/oauth";
import { createTestCa, type TestCa } from "@selu-catalogue/testkit/tls";
import { dir } from "./harness.js";

const CLIENT_ID = "9f1c2e3d-4b5a-4c6d-8e7f-client000002";
const REFRESH_TOKEN = "1//0g-refresh-token-of-the-device-sign-in";
const SCOPE = "offline_access https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send";

let ca: TestCa;
let caFile: string;

beforeAll(async () => {
  ca = createTestCa();
  caFile = await ca.writeCertFile();
});

afterAll(async () => {
  if (caFile) await rm(dirname(caFile), { recursive: true, force: true });
});

/**
 * Runs the built command as an operator would, trusting the test CA; resolves with its exit and output.
 * `onStderr` sees what the operator reads so far (the page to open), as it arrives.
 */
function oauthLogin(args: string[], onStderr?: (text: string) => void): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["dist/oauth-login/cli.js", ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: caFile } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      onStderr?.(stderr);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("oauth-login (device-code sign-in)", () => {
  let idp: OAuthTestProvider;
  const urls = () => ["--device-url", `https://localhost:${idp.port}/consumers/oauth2/v2.0/devicecode`, "--token-url", `https://localhost:${idp.port}/consumers/oauth2/v2.0/token`];

  beforeAll(async () => {
    idp = await startOAuthProvider({ ca, names: ["localhost"], clientId: CLIENT_ID, refreshToken: REFRESH_TOKEN, username: "alice@outlook.test" });
  });

  afterAll(async () => {
    await idp?.close();
  });

  it("shows the page and code, polls until the user signs in, and prints the credentials to paste", async () => {
    idp.device.onPoll((polls) => {
      if (polls === 2) idp.device.approve();
    });
    const { code, stdout, stderr } = await oauthLogin([...urls(), "--scope", SCOPE, "--client-id", CLIENT_ID]);
    expect(stderr).toContain("Open https://microsoft.com/devicelogin in a browser, sign in with the mailbox's account and enter the code BDWP-HQPK.");
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toEqual([`OAUTH_TOKEN_URL=https://localhost:${idp.port}/consumers/oauth2/v2.0/token`, `OAUTH_CLIENT_ID=${CLIENT_ID}`, `OAUTH_REFRESH_TOKEN=${REFRESH_TOKEN}`]);
    expect(idp.device.scope).toBe(SCOPE);
    // One pending poll, then the tokens.
    expect(idp.device.polls).toBe(2);
    expect(idp.requests.at(-1)!.form).toMatchObject({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", client_id: CLIENT_ID });
  });

  it("stops with advice when the user declines", async () => {
    idp.device.onPoll(() => idp.device.decline());
    const { code, stdout, stderr } = await oauthLogin([...urls(), "--scope", SCOPE, "--client-id", CLIENT_ID]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("oauth-login: the sign-in was declined in the browser; run oauth-login again");
  });

  it("names the client id when the provider does not know the app", async () => {
    const { code, stderr } = await oauthLogin([...urls(), "--scope", SCOPE, "--client-id", "not-registered"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/the device authorization was refused \(invalid_client: AADSTS7000215.*\); check the client id/);
  });

  it("asks for the client secret Google issues, and for a client id", async () => {
    const google = await oauthLogin(["--provider", "google", "--client-id", CLIENT_ID]);
    expect(google.code).toBe(1);
    expect(google.stderr).toContain("--client-secret is required: Google (Gmail, Google Workspace) issues one");
    const missing = await oauthLogin(["--provider", "microsoft"]);
    expect(missing.stderr).toContain("--client-id is required");
  });
});

describe("oauth-login against a provider with Google's answers", () => {
  /** Plays the browser: opens the printed sign-in address once, and follows the provider's redirect back. */
  const browse = (act: (url: string) => string) => {
    let opened = false;
    return (text: string) => {
      const url = /\n {2}(https:\/\/\S+)\n/.exec(text)?.[1];
      if (!url || opened) return;
      opened = true;
      void fetch(act(url)).catch(() => {});
    };
  };

  it("signs in through the browser with PKCE and a loopback redirect, and prints the credentials", async () => {
    const idp = await startOAuthProvider({ ca, names: ["localhost"], clientId: CLIENT_ID, clientSecret: "GOCSPX-secret", refreshToken: REFRESH_TOKEN, username: "alice@gmail.test", style: "google" });
    try {
      const base = `https://localhost:${idp.port}`;
      const args = ["--authorize-url", `${base}/o/oauth2/v2/auth`, "--token-url", `${base}/token`, "--scope", "https://mail.google.com/", "--client-id", CLIENT_ID, "--client-secret", "GOCSPX-secret"];
      const { code, stdout, stderr } = await oauthLogin(
        args,
        browse((url) => idp.browser.signIn(url)),
      );
      expect(stderr).toContain("Open this address in a browser on this machine");
      expect(code).toBe(0);
      expect(stdout).toBe(`OAUTH_TOKEN_URL=${base}/token\nOAUTH_CLIENT_ID=${CLIENT_ID}\nOAUTH_CLIENT_SECRET=GOCSPX-secret\nOAUTH_REFRESH_TOKEN=${REFRESH_TOKEN}\n`);
      const asked = idp.browser.lastAuthorize!;
      expect(asked.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(asked.get("scope")).toBe("https://mail.google.com/");
      // The exchange carried the verifier (the double checks it against the challenge) and the secret.
      expect(idp.requests.at(-1)!.form).toMatchObject({ grant_type: "authorization_code", client_secret: "GOCSPX-secret" });
      expect(idp.requests.at(-1)!.form.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } finally {
      await idp.close();
    }
  });

  it("stops with advice when the user declines in the browser", async () => {
    const idp = await startOAuthProvider({ ca, names: ["localhost"], clientId: CLIENT_ID, refreshToken: REFRESH_TOKEN, username: "alice@gmail.test", style: "google" });
    try {
      const base = `https://localhost:${idp.port}`;
      const args = ["--authorize-url", `${base}/auth`, "--token-url", `${base}/token`, "--scope", "https://mail.google.com/", "--client-id", CLIENT_ID];
      const { code, stdout, stderr } = await oauthLogin(
        args,
        browse((url) => idp.browser.decline(url)),
      );
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toContain("oauth-login: the sign-in was refused in the browser (access_denied: The user declined.)");
    } finally {
      await idp.close();
    }
  });

  it("reads verification_url and sends the client secret with each poll", async () => {
    const idp = await startOAuthProvider({ ca, names: ["localhost"], clientId: CLIENT_ID, clientSecret: "GOCSPX-secret", refreshToken: REFRESH_TOKEN, username: "alice@gmail.test", style: "google" });
    try {
      idp.device.onPoll(() => idp.device.approve());
      const base = `https://localhost:${idp.port}`;
      const { code, stdout, stderr } = await oauthLogin([
        "--device-url",
        `${base}/device/code`,
        "--token-url",
        `${base}/token`,
        "--scope",
        "https://mail.google.com/",
        "--client-id",
        CLIENT_ID,
        "--client-secret",
        "GOCSPX-secret",
      ]);
      expect(stderr).toContain("Open https://www.google.com/device");
      expect(code).toBe(0);
      expect(stdout).toContain("OAUTH_CLIENT_SECRET=GOCSPX-secret\n");
      expect(stdout).toContain(`OAUTH_REFRESH_TOKEN=${REFRESH_TOKEN}\n`);
    } finally {
      await idp.close();
    }
  });
});
