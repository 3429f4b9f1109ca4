// Messages between the bench (parent) and a server child over process IPC.

/** Parent -> child: a report request. */
export interface ReportRequest {
  type: "report";
  id: number;
}

/** Child -> parent: the child's own CPU time and memory, answering a ReportRequest. */
export interface Report {
  type: "report";
  id: number;
  /** process.cpuUsage(), µs since the child started. */
  userUs: number;
  systemUs: number;
  /** Current RSS and the highest RSS sampled every ~20 ms since start, bytes. */
  rss: number;
  maxRss: number;
  /** RSS without file-backed pages (RssAnon of /proc/self/status), now and the sampled maximum, bytes. */
  rssAnon: number;
  maxRssAnon: number;
  rssSamples: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** Child -> parent once the server is bound. */
export interface Listening {
  type: "listening";
  port: number;
}

export type ChildMessage = Report | Listening;
