import type { CredentialSpecs } from "@selu-catalogue/kit";

/**
 * System settings (an administrator's, the same for every user): they decide which tools discovery
 * offers. None is required; without any, the workspace tools are offered and no remote store.
 */
export const credentials = {
  WORKSPACE_READ_ONLY: {
    scope: "system",
    required: false,
    description: "Set to true to make the workspace read-only: only reading and searching tools are offered",
    type: "setting",
  },
  WEBDAV_URL: {
    scope: "system",
    required: false,
    description: "HTTPS URL of a WebDAV folder (e.g. https://cloud.example.com/remote.php/dav/files/alice/); adds the remote_* tools",
    type: "setting",
  },
  WEBDAV_USERNAME: { scope: "system", required: false, description: "WebDAV user name" },
  WEBDAV_PASSWORD: { scope: "system", required: false, description: "WebDAV password or app password" },
} as const satisfies CredentialSpecs;

export type FileManagerCredentials = typeof credentials;

/** True for the values an administrator would write to switch read-only mode on. */
export function isReadOnly(value: string | undefined): boolean {
  return value !== undefined && /^(true|yes|1|on)$/i.test(value.trim());
}
