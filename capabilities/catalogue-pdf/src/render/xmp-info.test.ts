import { describe, expect, it } from "vitest";
import { xmlText, xmpInfo } from "./xmp-info.js";

describe("xmlText", () => {
  it("escapes markup characters and leaves out what XML 1.0 cannot hold", () => {
    expect(xmlText("R&D <draft> & \"quotes\" 'too'")).toBe("R&amp;D &lt;draft&gt; &amp; \"quotes\" 'too'");
    expect(xmlText("tab\there\nline\rend")).toBe("tab\there\nline\rend");
    expect(xmlText("bell\u0007 null\0 \ufffe\uffff")).toBe("bell null ");
    expect(xmlText("lone \ud800 and \udc00, pair 😀")).toBe("lone  and , pair 😀");
    expect(xmlText(undefined)).toBe("");
  });
});

describe("xmpInfo", () => {
  it("writes the elements pdfkit writes, a title cannot add any of its own", () => {
    const xml = xmpInfo({ CreationDate: new Date(Date.UTC(2026, 10, 23, 9, 0, 0, 500)), Creator: "C", Producer: "P", Title: "</rdf:li><dc:rights>mine</dc:rights><rdf:li>" });
    expect(xml).toContain("<xmp:CreateDate>2026-11-23T09:00:00Z</xmp:CreateDate>");
    expect(xml).not.toContain("<dc:rights>");
    expect(xml).not.toContain("dc:creator");
    expect(xml.match(/<rdf:Description /g)).toHaveLength(3);
  });
});
