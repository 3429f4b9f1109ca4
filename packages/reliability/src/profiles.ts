/**
 * Credentials the suite gives a capability, where a placeholder is not enough to reach its counterparts:
 * host names the egress proxy double maps to the suite's hostile servers. Every other declared credential
 * gets a placeholder (`reliability-<NAME>`). A new capability needs an entry only if it has host credentials.
 */
export const CREDENTIALS: Record<string, Record<string, string>> = {
  "catalogue-email": {
    SMTP_HOST: "smtp.fastmail.com",
    SMTP_PORT: "465",
    IMAP_HOST: "imap.fastmail.com",
    EMAIL_USERNAME: "alice@fastmail.test",
    EMAIL_PASSWORD: "reliability-password",
  },
  "catalogue-file-manager": {
    WEBDAV_URL: "https://hostile-web.example.org/dav/",
    WEBDAV_USERNAME: "reliability",
    WEBDAV_PASSWORD: "reliability-password",
  },
};

/**
 * Credentials added for the hostile web servers, for a capability whose HTTPS counterpart only a certain
 * setting reaches: the email capability asks its OAuth2 token endpoint only when signed in with OAuth2.
 */
export const WEB_CREDENTIALS: Record<string, Record<string, string>> = {
  "catalogue-email": {
    OAUTH_PROVIDER: "microsoft",
    OAUTH_CLIENT_ID: "reliability-client",
    OAUTH_REFRESH_TOKEN: "reliability-refresh-token",
  },
};

/** Ports whose hosts get the hostile IMAP or SMTP server; every other mapped host gets the hostile HTTPS server. */
export const IMAP_PORTS = new Set([993, 143]);
export const SMTP_PORTS = new Set([465, 587, 25]);

/** The name image and page URLs in fuzzed arguments point at (allowed under `network: any`; a public-looking name, as capabilities refuse reserved suffixes like .test). */
export const HOSTILE_WEB_HOST = "hostile-web.example.org";

/**
 * Arguments that pass a tool's own checks and reach its counterpart, for tools whose required fields a
 * schema can't describe well enough to generate (addresses checked by code). Others use generated ones.
 */
export const SAMPLE_ARGS: Record<string, Record<string, Record<string, unknown>>> = {
  "catalogue-email": {
    send_email: { to: ["bob@example.com"], subject: "Hello", text: "Hi Bob", save_to_sent: false },
  },
  "catalogue-pdf": {
    create_pdf_document: { title: "Pictures", sections: [{ heading: "From the web", content: [{ type: "image", url: `https://${HOSTILE_WEB_HOST}/chart.png` }] }] },
  },
};
