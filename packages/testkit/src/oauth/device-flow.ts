import { randomBytes } from "node:crypto";
import { errorBody, type ProviderStyle } from "./error-shapes.js";

type Reply = (status: number, body: unknown) => void;

/** The device-code sign-in of the provider double (RFC 8628), as a test drives it. */
export interface DeviceFlow {
  /** The scope the last device authorization asked for. */
  readonly scope: string | undefined;
  /** Polls of the token endpoint so far. */
  readonly polls: number;
  /** Signs the user in: the next poll gets the tokens. */
  approve(): void;
  /** The user declines: the next poll gets the provider's refusal. */
  decline(): void;
  /** Called on each poll while the user has not decided, before it is answered (approve or decline there). */
  onPoll(handler: (polls: number) => void): void;
}

export interface DeviceGrant extends DeviceFlow {
  authorize(form: Record<string, string>, reply: Reply): void;
  poll(form: Record<string, string>, reply: Reply): void;
}

interface Options {
  style: ProviderStyle;
  clientId: string;
  /** The token answer once the user approved (with a refresh token). */
  issue(): Record<string, unknown>;
}

/** Device authorization and polling with the provider's field names (Google: verification_url). */
export function deviceGrant(options: Options): DeviceGrant {
  const { style } = options;
  let deviceCode: string | undefined;
  let state: "pending" | "approved" | "declined" = "pending";
  let scope: string | undefined;
  let polls = 0;
  let onPoll: (polls: number) => void = () => {};
  return {
    get scope() {
      return scope;
    },
    get polls() {
      return polls;
    },
    approve: () => void (state = "approved"),
    decline: () => void (state = "declined"),
    onPoll: (handler) => void (onPoll = handler),
    authorize(form, reply) {
      // The device authorization takes the client id only (both providers); the secret comes with the polls.
      if (form.client_id !== options.clientId) {
        return reply(401, errorBody(style, "invalid_client", "the client id or secret is wrong"));
      }
      deviceCode = `dc-${randomBytes(12).toString("hex")}`;
      state = "pending";
      scope = form.scope;
      const userCode = "BDWP-HQPK";
      const uri = style === "google" ? "https://www.google.com/device" : "https://microsoft.com/devicelogin";
      reply(200, {
        device_code: deviceCode,
        user_code: userCode,
        [style === "google" ? "verification_url" : "verification_uri"]: uri,
        expires_in: 900,
        interval: 1,
        ...(style === "microsoft" ? { message: `To sign in, use a web browser to open the page ${uri} and enter the code ${userCode} to authenticate.` } : {}),
      });
    },
    poll(form, reply) {
      polls += 1;
      if (!deviceCode || form.device_code !== deviceCode) return reply(400, errorBody(style, "invalid_grant", "unknown device code"));
      if (state === "pending") onPoll(polls);
      if (state === "pending") return reply(400, errorBody(style, "authorization_pending", "the user has not yet finished signing in"));
      deviceCode = undefined;
      if (state === "declined") return reply(400, errorBody(style, style === "google" ? "access_denied" : "authorization_declined", "the user declined"));
      reply(200, options.issue());
    },
  };
}
