import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import forge from "node-forge";

/** A leaf certificate and its private key, both PEM: hand them to `https.createServer` / `tls.createServer`. */
export interface IssuedCertificate {
  cert: string;
  key: string;
}

/** Options of {@link TestCa.issue}. */
export interface IssueOptions {
  /** Days the leaf stays valid from now; negative issues one that expired that many days ago. Default 1. */
  validDays?: number;
}

/**
 * A certificate authority that exists only for one test run, in memory. Servers present leaves it issues
 * for the real production names (`api.search.brave.com`), and clients trust it explicitly (`ca: certPem`)
 * or through `NODE_EXTRA_CA_CERTS` in a child process, so TLS verification stays on in every test.
 */
export interface TestCa {
  /** The CA certificate, PEM. */
  readonly certPem: string;
  /**
   * Issues a server certificate whose subjectAltName lists `names`: DNS names, or IPv4/IPv6 literals
   * (which become IP entries, as TLS clients check IP targets against those only).
   * @throws {Error} when `names` is empty.
   */
  issue(names: readonly string[], options?: IssueOptions): IssuedCertificate;
  /**
   * Writes the CA certificate to `path` (default: a new file in a fresh temp directory) and returns the
   * path, for `NODE_EXTRA_CA_CERTS` in a child process.
   */
  writeCertFile(path?: string): Promise<string>;
}

/** Options of {@link createTestCa}. */
export interface TestCaOptions {
  /**
   * Subject common name of the CA. Default "Selu catalogue test CA <random hex>": unique, so a client
   * trusting another test CA fails with "unable to get local issuer certificate", not a signature error.
   */
  commonName?: string;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Creates a fresh test CA (RSA 2048 keys from node:crypto, certificates built by node-forge).
 * Each call gives an unrelated CA, so a second one stands in for "a certificate nobody trusts".
 *
 * @example
 * const ca = createTestCa();
 * const server = https.createServer(ca.issue(["api.example.com"]), handler);
 * await request("https://api.example.com/", { ca: ca.certPem });
 */
export function createTestCa(options: TestCaOptions = {}): TestCa {
  const subject = [{ name: "commonName", value: options.commonName ?? `Selu catalogue test CA ${randomBytes(4).toString("hex")}` }];
  const caKeys = newKeyPair();
  const caCert = buildCertificate({
    publicKey: caKeys.publicKey,
    subject,
    issuer: subject,
    validDays: 1,
    extensions: [{ name: "basicConstraints", cA: true, critical: true }, { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true }, { name: "subjectKeyIdentifier" }],
  });
  caCert.sign(caKeys.privateKey, forge.md.sha256.create());
  const certPem = forge.pki.certificateToPem(caCert);

  return {
    certPem,
    issue(names, issueOptions = {}) {
      if (names.length === 0) throw new Error("a certificate needs at least one DNS name or IP address");
      const leafKeys = newKeyPair();
      const leaf = buildCertificate({
        publicKey: leafKeys.publicKey,
        subject: [{ name: "commonName", value: names[0]! }],
        issuer: subject,
        validDays: issueOptions.validDays ?? 1,
        extensions: [
          { name: "basicConstraints", cA: false },
          { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
          { name: "extKeyUsage", serverAuth: true },
          { name: "subjectAltName", altNames: names.map(altName) },
        ],
      });
      leaf.sign(caKeys.privateKey, forge.md.sha256.create());
      return { cert: forge.pki.certificateToPem(leaf), key: leafKeys.privateKeyPem };
    },
    async writeCertFile(path) {
      const target = path ?? join(await mkdtemp(join(tmpdir(), "selu-test-ca-")), "ca.pem");
      await writeFile(target, certPem, { mode: 0o644 });
      return target;
    },
  };
}

interface KeyPair {
  publicKey: forge.pki.rsa.PublicKey;
  privateKey: forge.pki.rsa.PrivateKey;
  privateKeyPem: string;
}

// Native key generation: forge's pure-JS RSA keygen takes seconds; signing with it is fast.
function newKeyPair(): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
  });
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey),
    privateKey: forge.pki.privateKeyFromPem(privateKey),
    privateKeyPem: privateKey,
  };
}

interface CertificateSpec {
  publicKey: forge.pki.rsa.PublicKey;
  subject: forge.pki.CertificateField[];
  issuer: forge.pki.CertificateField[];
  validDays: number;
  extensions: object[];
}

function buildCertificate(spec: CertificateSpec): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = spec.publicKey;
  // Positive 128-bit serial: the high bit cleared so DER doesn't read it as negative.
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = serial.toString("hex");
  // A valid certificate starts an hour ago (clock skew); an expired one ended `-validDays` days ago.
  const end = Date.now() + spec.validDays * DAY_MS;
  cert.validity.notBefore = new Date(spec.validDays >= 0 ? Date.now() - HOUR_MS : end - DAY_MS);
  cert.validity.notAfter = new Date(end);
  cert.setSubject(spec.subject);
  cert.setIssuer(spec.issuer);
  cert.setExtensions(spec.extensions);
  return cert;
}

function altName(name: string): { type: number; value?: string; ip?: string } {
  // GeneralName types from RFC 5280: 2 = dNSName, 7 = iPAddress.
  const bare = name.startsWith("[") && name.endsWith("]") ? name.slice(1, -1) : name;
  return isIP(bare) ? { type: 7, ip: bare } : { type: 2, value: name };
}
