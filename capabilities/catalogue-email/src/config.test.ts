import { describe, expect, it } from "vitest";
import { readImapSettings, readSender, readSmtpSettings } from "./config.js";

describe("readSmtpSettings", () => {
  it("derives security from the port unless set", () => {
    expect(readSmtpSettings({ SMTP_HOST: "smtp.example.com" })).toEqual({ host: "smtp.example.com", port: 587, security: "starttls" });
    expect(readSmtpSettings({ SMTP_HOST: "smtp.example.com", SMTP_PORT: "465" })).toMatchObject({ security: "tls" });
    expect(readSmtpSettings({ SMTP_HOST: "smtp.example.com", SMTP_PORT: "2525", SMTP_SECURITY: "TLS" })).toMatchObject({ port: 2525, security: "tls" });
  });

  it.each([
    [{ SMTP_HOST: "smtps://smtp.example.com" }, /SMTP_HOST must be a host name/],
    [{ SMTP_HOST: "smtp.example.com:587" }, /SMTP_HOST must be a host name/],
    [{ SMTP_HOST: "smtp.example.com", SMTP_PORT: "70000" }, /SMTP_PORT must be a port number/],
    [{ SMTP_HOST: "smtp.example.com", SMTP_SECURITY: "none" }, /SMTP_SECURITY must be "starttls" or "tls"/],
    [{}, /missing credential SMTP_HOST/],
  ])("names the credential that is wrong: %j", (values, expected) => {
    expect(() => readSmtpSettings(values)).toThrow(expected);
  });
});

describe("readImapSettings", () => {
  it("defaults to implicit TLS on port 993", () => expect(readImapSettings({ IMAP_HOST: "IMAP.Example.com" })).toEqual({ host: "imap.example.com", port: 993, security: "tls" }));

  it("uses STARTTLS on port 143 unless told otherwise, and never clear text", () => {
    expect(readImapSettings({ IMAP_HOST: "imap.example.com", IMAP_PORT: "143" })).toMatchObject({ port: 143, security: "starttls" });
    expect(readImapSettings({ IMAP_HOST: "imap.example.com", IMAP_PORT: "1143", IMAP_SECURITY: "STARTTLS" })).toMatchObject({ security: "starttls" });
    expect(readImapSettings({ IMAP_HOST: "imap.example.com", IMAP_PORT: "143", IMAP_SECURITY: "tls" })).toMatchObject({ security: "tls" });
    expect(() => readImapSettings({ IMAP_HOST: "imap.example.com", IMAP_SECURITY: "none" })).toThrow(/IMAP_SECURITY must be "starttls" or "tls"/);
  });
});

describe("readSender", () => {
  it("uses EMAIL_FROM_ADDRESS, else the user name", () => {
    expect(readSender({ EMAIL_USERNAME: "a@example.com" })).toEqual({ address: "a@example.com", name: undefined });
    expect(readSender({ EMAIL_USERNAME: "alice", EMAIL_FROM_ADDRESS: "a@example.com", EMAIL_FROM_NAME: "Alice" })).toEqual({ address: "a@example.com", name: "Alice" });
  });

  it("refuses a display name that would inject headers", () => {
    expect(() => readSender({ EMAIL_USERNAME: "a@example.com", EMAIL_FROM_NAME: "Alice\r\nBcc: x@example.com" })).toThrow(/EMAIL_FROM_NAME must be one line/);
  });
});
