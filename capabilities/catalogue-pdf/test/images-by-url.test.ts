import type { IncomingMessage, ServerResponse } from "node:http";
import { createTestCa, startEgressProxy, startHttpsServer, type EgressProxy, type LocalServer } from "@selu-catalogue/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "./fixtures/png.js";
import { startPdf, type PdfHarness } from "./support/harness.js";
import { pageJpeg, pdfImages } from "./support/poppler.js";

// Image blocks with https URLs: fetched through Selu's egress proxy (the double, with the manifest's
// policy) from a real HTTPS server under a production-like name, with a certificate from a test CA.
let pdf: PdfHarness;
let proxy: EgressProxy;
let server: LocalServer;
const requests: string[] = [];
const chart = gradientPng(640, 320);
let photo: Buffer;

beforeAll(async () => {
  const ca = createTestCa();
  photo = pageJpeg(Buffer.from(await (await import("pdf-lib")).PDFDocument.create().then(async (d) => (d.addPage([200, 100]), d.save()))));
  server = await startHttpsServer(ca.issue(["images.example.com"]), (req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? "");
    const send = (status: number, type: string, body: Buffer | string) => res.writeHead(status, { "content-type": type }).end(body);
    if (req.url === "/chart.png") return send(200, "image/png", chart);
    if (req.url === "/photo.jpg") return send(200, "image/jpeg", photo);
    if (req.url === "/page.html") return send(200, "text/html", "<html>not an image</html>");
    if (req.url === "/moved.png") return res.writeHead(302, { location: "/chart.png" }).end();
    if (req.url === "/to-http.png") return res.writeHead(301, { location: "http://images.example.com/chart.png" }).end();
    if (req.url === "/to-internal.png") return res.writeHead(307, { location: "https://127.0.0.1/x.png" }).end();
    if (req.url === "/bad-location.png") return res.writeHead(302, { location: "https://[not-a-host/x.png" }).end();
    if (req.url === "/loop.png") return res.writeHead(302, { location: "/loop.png" }).end();
    if (req.url === "/huge.png") return send(200, "image/png", Buffer.alloc(6 * 1024 * 1024));
    send(404, "text/plain", "not found");
  });
  proxy = await startEgressProxy({ policy: { mode: "any", hosts: [] }, capability: "catalogue-pdf" });
  proxy.map("images.example.com:443", `127.0.0.1:${server.port}`);
  pdf = await startPdf({ ...proxy.env, NODE_EXTRA_CA_CERTS: await ca.writeCertFile() });
}, 30_000);
afterAll(async () => {
  await pdf?.stop();
  await proxy?.close();
  await server?.close();
});

const withImage = (url: string, extra: unknown[] = []) => ({ title: "Pictures", sections: [{ heading: "H", content: [{ type: "image", url, caption: "From the web" }, ...extra] }] });

describe("images from https URLs", () => {
  it("fetches PNG and JPEG images through the egress proxy and embeds them", async () => {
    const result = await pdf.ok("create_pdf_document", withImage("https://images.example.com/chart.png", [{ type: "image", url: "https://images.example.com/photo.jpg" }]));
    const images = pdfImages(pdf.bytes(result)).filter((i) => i.type === "image");
    expect(images.map((i) => [i.width, i.height])).toContainEqual([640, 320]);
    expect(images.some((i) => i.enc === "jpeg")).toBe(true);
    const connects = proxy.attempts.filter((a) => a.host === "images.example.com");
    expect(connects.length).toBeGreaterThan(0);
    expect(connects.every((a) => a.method === "CONNECT" && a.decision === "mapped")).toBe(true);
  });

  it("fetches an image used twice only once", async () => {
    const before = requests.filter((r) => r === "/chart.png").length;
    await pdf.ok("create_pdf_document", withImage("https://images.example.com/chart.png", [{ type: "image", url: "https://images.example.com/chart.png", width: 0.3 }]));
    expect(requests.filter((r) => r === "/chart.png").length - before).toBe(1);
  });

  it("follows redirects to https URLs", async () => {
    const result = await pdf.ok("create_pdf_document", withImage("https://images.example.com/moved.png"));
    expect(pdfImages(pdf.bytes(result)).map((i) => [i.width, i.height])).toContainEqual([640, 320]);
  });

  it("refuses redirects to plain http, to internal addresses, and endless ones", async () => {
    expect(await pdf.fails("create_pdf_document", withImage("https://images.example.com/to-http.png"))).toBe(
      "sections[0].content[0].url: images.example.com redirects to a non-https URL, which is not fetched",
    );
    expect(await pdf.fails("create_pdf_document", withImage("https://images.example.com/to-internal.png"))).toMatch(/^sections\[0\]\.content\[0\]\.url: refusing to connect to 127\.0\.0\.1/);
    expect(await pdf.fails("create_pdf_document", withImage("https://images.example.com/loop.png"))).toBe("sections[0].content[0].url: more than 3 redirects; give the image's final URL");
  });

  it("names the block when a redirect's Location is not a valid URL", async () => {
    expect(await pdf.fails("create_pdf_document", withImage("https://images.example.com/bad-location.png"))).toBe(
      'sections[0].content[0].url: images.example.com redirects to "https://[not-a-host/x.png", which is not a valid URL; give the image\'s final URL',
    );
  });

  it("names the block and the status when the server answers an error", async () => {
    expect(await pdf.fails("create_pdf_document", withImage("https://images.example.com/gone.png"))).toBe("sections[0].content[0].url: images.example.com answered HTTP 404; check the URL");
  });

  it("refuses a page that is not an image", async () => {
    expect(await pdf.fails("create_pdf_document", withImage("https://images.example.com/page.html"))).toBe("sections[0].content[0].url: is not a PNG or JPEG image; convert it to one of those");
  });

  it("stops reading an image larger than the response cap", async () => {
    expect(await pdf.fails("create_pdf_document", withImage("https://images.example.com/huge.png"))).toMatch(/^sections\[0\]\.content\[0\]\.url: .*(larger|limit)/);
  });

  it("refuses internal addresses before asking the proxy (SSRF guard)", async () => {
    for (const url of ["https://127.0.0.1/x.png", "https://169.254.169.254/latest/meta-data", "https://[::1]/x.png", "https://localhost/x.png"]) {
      expect(await pdf.fails("create_pdf_document", withImage(url))).toMatch(/^sections\[0\]\.content\[0\]\.url: refusing to connect/);
    }
    const internal = ["127.0.0.1", "169.254.169.254", "::1", "localhost"];
    expect(proxy.attempts.filter((a) => internal.includes(a.host))).toEqual([]);
  });

  it("reports a host the proxy can't reach", async () => {
    expect(await pdf.fails("create_pdf_document", withImage("https://unreachable.example.org/x.png"))).toMatch(/^sections\[0\]\.content\[0\]\.url: /);
  });
});
