import { defineCapability, type Capability } from "@selu-catalogue/kit";
import { optionsFromEnv, type FileManagerOptions } from "./config.js";
import { credentials, isReadOnly, type FileManagerCredentials } from "./credentials.js";
import { exportFile, getFileInfo } from "./tools/info-export.js";
import { grep } from "./tools/grep.js";
import { importAttachment, unzipTool, zipTool } from "./tools/artifact-tools.js";
import { listDirectory } from "./tools/list-directory.js";
import { readFile, readFiles } from "./tools/read-tools.js";
import { remoteDownload, remoteList, remoteUpload } from "./tools/remote-tools.js";
import { directoryTree, searchFiles } from "./tools/walk-tools.js";
import { copyTool, createDirectory, deleteTool, editFile, moveTool, writeFile } from "./tools/write-tools.js";
import { SecureFs } from "./workspace/secure-fs.js";

/** Tools that never change the workspace or the remote store: offered in read-only mode. */
export const READ_TOOLS = ["list_directory", "directory_tree", "read_file", "read_files", "get_file_info", "search_files", "grep", "export_file"] as const;
/** Tools that write or delete in the workspace. */
export const WRITE_TOOLS = ["write_file", "edit_file", "create_directory", "move", "copy", "delete", "import_attachment", "zip", "unzip"] as const;
/** Tools of the WebDAV store, offered only when WEBDAV_URL is set. */
export const REMOTE_READ_TOOLS = ["remote_list"] as const;
export const REMOTE_WRITE_TOOLS = ["remote_download", "remote_upload"] as const;

/**
 * The file manager for a workspace root. Which tools Selu sees depends on the system settings
 * (discovery): WORKSPACE_READ_ONLY leaves only the read tools, WEBDAV_URL adds the remote ones.
 */
export function createFileManager(options: FileManagerOptions): Capability<FileManagerCredentials> {
  const env = { fs: new SecureFs(options.root), options };
  return defineCapability({
    id: "catalogue-file-manager",
    credentials,
    limits: {
      // Files move in and out as artifacts; 16 MiB is Selu's message bound, and memory is 128 MiB.
      maxArtifactBytes: 16 * 1024 * 1024,
      artifactBudgetBytes: 32 * 1024 * 1024,
      httpMaxResponseBytes: 16 * 1024 * 1024,
    },
    tools: ({ tool }) => ({
      list_directory: listDirectory(tool, env),
      directory_tree: directoryTree(tool, env),
      read_file: readFile(tool, env),
      read_files: readFiles(tool, env),
      get_file_info: getFileInfo(tool, env),
      search_files: searchFiles(tool, env),
      grep: grep(tool, env),
      export_file: exportFile(tool, env),
      write_file: writeFile(tool, env),
      edit_file: editFile(tool, env),
      create_directory: createDirectory(tool, env),
      move: moveTool(tool, env),
      copy: copyTool(tool, env),
      delete: deleteTool(tool, env),
      import_attachment: importAttachment(tool, env),
      zip: zipTool(tool, env),
      unzip: unzipTool(tool, env),
      remote_list: remoteList(tool, env),
      remote_download: remoteDownload(tool, env),
      remote_upload: remoteUpload(tool, env),
    }),
    discovery: {
      offer(config) {
        const readOnly = isReadOnly(config.WORKSPACE_READ_ONLY);
        const remote = config.WEBDAV_URL !== undefined;
        return [...READ_TOOLS, ...(readOnly ? [] : WRITE_TOOLS), ...(remote ? REMOTE_READ_TOOLS : []), ...(remote && !readOnly ? REMOTE_WRITE_TOOLS : [])];
      },
      refusal(tool, config) {
        if ((REMOTE_READ_TOOLS as readonly string[]).concat(REMOTE_WRITE_TOOLS).includes(tool) && config.WEBDAV_URL === undefined) {
          return "no remote store is configured (an administrator sets WEBDAV_URL, WEBDAV_USERNAME and WEBDAV_PASSWORD)";
        }
        if (isReadOnly(config.WORKSPACE_READ_ONLY)) return "the workspace is read-only (WORKSPACE_READ_ONLY is set by an administrator)";
        return undefined;
      },
    },
  });
}

/** The capability as served: the workspace root from WORKSPACE_ROOT (default /workspace). */
export default createFileManager(optionsFromEnv(process.env));
