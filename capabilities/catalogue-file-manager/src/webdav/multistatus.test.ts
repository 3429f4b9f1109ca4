import { describe, expect, it } from "vitest";
import { parseMultistatus } from "./multistatus.js";

describe("parseMultistatus", () => {
  it("reads hrefs, collections, sizes and dates under any prefix, decoding entities and percent escapes", () => {
    const xml = `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:">
      <d:response><d:href>/dav/Q1%20%26%20Q2/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype><d:getlastmodified>Mon, 23 Nov 2026 10:00:00 GMT</d:getlastmodified></d:prop></d:propstat></d:response>
      <D:response xmlns:D="DAV:"><D:href>https://h.example/dav/a&amp;b.txt</D:href><D:propstat><D:prop><D:resourcetype/><D:getcontentlength>42</D:getcontentlength></D:prop></D:propstat></D:response>
    </d:multistatus>`;
    expect(parseMultistatus(xml)).toEqual([
      { href: "/dav/Q1 & Q2/", directory: true, size: null, modified: "2026-11-23T10:00:00.000Z" },
      { href: "/dav/a&b.txt", directory: false, size: 42, modified: null },
    ]);
  });

  it("ignores a property the server reports missing as a self-closing element", () => {
    const xml = `<D:multistatus xmlns:D="DAV:"><D:response><D:href>/f/</D:href><D:propstat><D:prop><a:getcontentlength xmlns:a="DAV:"/></D:prop></D:propstat><D:propstat><D:prop><D:getcontentlength>7</D:getcontentlength></D:prop></D:propstat></D:response></D:multistatus>`;
    expect(parseMultistatus(xml)[0]!.size).toBe(7);
  });
});
