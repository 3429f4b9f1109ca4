import { createCipheriv, createDecipheriv, createHash } from "node:crypto";
import type * as PdfLib from "pdf-lib";
import type { PDFContext, PDFObject, PDFRef } from "pdf-lib";

// PDFs encrypted by the standard security handler that open without a password: an owner password that
// only restricts printing, copying or editing, as bank statements, invoices and tickets often have. Every
// string and stream of such a file is encrypted all the same (RC4 or AES, a key per object from the file's
// key), so the read tools decrypt it once, into a plain PDF, and read that as any other. A file that
// needs a password to open is still refused.

/** The 32 bytes a password is padded with (ISO 32000-1, 7.6.3.3, Algorithm 2). */
const PAD = Buffer.from("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A", "hex");

/** How a file's objects are decrypted: the file key and the cipher of its streams and of its strings. */
interface Security {
  key: Buffer;
  /** Revision 5 or 6 (AES-256): the file key is every object's key. */
  aes256: boolean;
  streams: Cipher;
  strings: Cipher;
  /** Whether the XMP metadata stream is encrypted too (EncryptMetadata, true unless false). */
  metadata: boolean;
}

type Cipher = "rc4" | "aes" | "none";

/** Why a file can't be decrypted here: it needs a password, or it uses a handler or method we lack. */
export class CannotDecrypt extends Error {
  constructor(
    readonly needsPassword: boolean,
    message: string,
  ) {
    super(message);
  }
}

/** A measure of an object stream's decoded size (at most `cap` + 1), before pdf-lib inflates it whole. */
export type MeasureObjectStream = (stream: PdfLib.PDFRawStream) => Promise<void>;

/**
 * `bytes` decrypted into a plain PDF (all objects in the clear, no /Encrypt), or undefined when the file
 * is not encrypted. Object streams are decrypted, measured by `measure` (which throws past the limits,
 * as pdf-lib would inflate them unbounded) and parsed; other streams are decrypted, never decoded.
 * Throws CannotDecrypt for a file that needs a password or an encryption this doesn't read.
 */
export async function decryptPdf(pdfLib: typeof PdfLib, bytes: Uint8Array, measure: MeasureObjectStream): Promise<Uint8Array | undefined> {
  // First the trailer and the encryption dictionary, which are never encrypted, and no object stream.
  const found = await parseWith(pdfLib, bytes, undefined, measure);
  const encryptRef = found.trailerInfo.Encrypt;
  const encrypt = encryptRef && found.lookup(encryptRef);
  if (!(encrypt instanceof pdfLib.PDFDict)) return undefined;
  const id = found.trailerInfo.ID;
  const firstId = id instanceof pdfLib.PDFArray && id.size() > 0 ? bytesOf(pdfLib, id.get(0)) : Buffer.alloc(0);
  const security = securityOf(pdfLib, encrypt, firstId);
  const context = await parseWith(pdfLib, bytes, { security, skip: encryptRef instanceof pdfLib.PDFRef ? encryptRef : undefined }, measure);
  context.trailerInfo.Encrypt = undefined;
  const PlainDocument = pdfLib.PDFDocument as unknown as new (context: PDFContext, ignoreEncryption: boolean, updateMetadata: boolean) => PdfLib.PDFDocument;
  return new PlainDocument(context, true, false).save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
}

/** The standard security handler's key for the empty user password, and its ciphers. */
function securityOf(pdfLib: typeof PdfLib, encrypt: PdfLib.PDFDict, firstId: Buffer): Security {
  const name = (key: string) => {
    const value = encrypt.lookup(pdfLib.PDFName.of(key));
    return value instanceof pdfLib.PDFName ? value.decodeText() : undefined;
  };
  const number = (key: string, fallback: number) => {
    const value = encrypt.lookup(pdfLib.PDFName.of(key));
    return value instanceof pdfLib.PDFNumber ? value.asNumber() : fallback;
  };
  const string = (key: string) => bytesOf(pdfLib, encrypt.lookup(pdfLib.PDFName.of(key)));
  if (name("Filter") !== "Standard") throw new CannotDecrypt(false, `it uses the ${name("Filter") ?? "unnamed"} security handler (certificates or a plug-in), which only its own software opens`);
  const v = number("V", 0);
  const r = number("R", 0);
  const metadata = encrypt.lookup(pdfLib.PDFName.of("EncryptMetadata")) !== pdfLib.PDFBool.False;
  // Crypt filters (V4, V5): the method of the filter the streams and the strings use.
  const method = (key: "StmF" | "StrF"): Cipher => {
    if (v < 4) return "rc4";
    const filter = name(key) ?? "Identity";
    if (filter === "Identity") return "none";
    const filters = encrypt.lookup(pdfLib.PDFName.of("CF"));
    const dict = filters instanceof pdfLib.PDFDict ? filters.lookup(pdfLib.PDFName.of(filter)) : undefined;
    const cfm = dict instanceof pdfLib.PDFDict ? dict.lookup(pdfLib.PDFName.of("CFM")) : undefined;
    const how = cfm instanceof pdfLib.PDFName ? cfm.decodeText() : "None";
    if (how === "V2") return "rc4";
    if (how === "AESV2" || how === "AESV3") return "aes";
    if (how === "None") return "none";
    throw new CannotDecrypt(false, `it uses the crypt filter ${how}, which the standard handler does not define`);
  };
  const o = string("O");
  const u = string("U");
  if (r === 5 || r === 6) {
    if (u.length < 48) throw new CannotDecrypt(false, "its encryption dictionary is damaged");
    const hash = (salt: Buffer) => (r === 6 ? hash2B(Buffer.alloc(0), salt, Buffer.alloc(0)) : createHash("sha256").update(salt).digest());
    if (!hash(u.subarray(32, 40)).equals(u.subarray(0, 32))) throw new CannotDecrypt(true, "it needs a password to open");
    const ue = string("UE");
    if (ue.length < 32) throw new CannotDecrypt(false, "its encryption dictionary is damaged");
    const decipher = createDecipheriv("aes-256-cbc", hash(u.subarray(40, 48)), Buffer.alloc(16)).setAutoPadding(false);
    const key = Buffer.concat([decipher.update(ue.subarray(0, 32)), decipher.final()]);
    return { key, aes256: true, streams: method("StmF"), strings: method("StrF"), metadata };
  }
  if (r < 2 || r > 4) throw new CannotDecrypt(false, `its standard encryption revision ${r} is not one this reads`);
  const length = r === 2 ? 5 : Math.min(16, Math.max(5, number("Length", 40) / 8));
  const p = Buffer.alloc(4);
  p.writeInt32LE(number("P", 0) | 0);
  let hash = createHash("md5")
    .update(PAD)
    .update(o.subarray(0, 32))
    .update(p)
    .update(firstId)
    .update(r >= 4 && !metadata ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.alloc(0))
    .digest();
  if (r >= 3) for (let i = 0; i < 50; i++) hash = createHash("md5").update(hash.subarray(0, length)).digest();
  const key = hash.subarray(0, length);
  // The empty user password is right when it gives back U (Algorithms 4 and 5).
  let check: Buffer;
  if (r === 2) check = rc4(key, PAD);
  else {
    check = rc4(key, createHash("md5").update(PAD).update(firstId).digest());
    for (let i = 1; i <= 19; i++) check = rc4(Buffer.from(key.map((byte) => byte ^ i)), check);
  }
  if (!check.subarray(0, r === 2 ? 32 : 16).equals(u.subarray(0, r === 2 ? 32 : 16))) throw new CannotDecrypt(true, "it needs a password to open");
  return { key, aes256: false, streams: method("StmF"), strings: method("StrF"), metadata };
}

/** Algorithm 2.B (ISO 32000-2, 7.6.4.3.4): revision 6's hash of a password. */
function hash2B(password: Buffer, salt: Buffer, userData: Buffer): Buffer {
  let k = createHash("sha256").update(password).update(salt).update(userData).digest();
  for (let round = 0; ; round++) {
    const block = Buffer.concat([password, k, userData]);
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => block));
    const cipher = createCipheriv("aes-128-cbc", k.subarray(0, 16), k.subarray(16, 32)).setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    k = createHash(["sha256", "sha384", "sha512"][sum % 3]!)
      .update(e)
      .digest();
    if (round >= 63 && e.at(-1)! <= round - 31) return k.subarray(0, 32);
  }
}

/** RC4, which OpenSSL 3 no longer offers (it is only as strong as these files need: read, not protect). */
function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/** The key of object `ref` (Algorithm 1): the file key, its number and generation, and AES's salt. */
function objectKey(security: Security, ref: PDFRef, aes: boolean): Buffer {
  if (security.aes256) return security.key;
  const suffix = Buffer.from([ref.objectNumber & 0xff, (ref.objectNumber >> 8) & 0xff, (ref.objectNumber >> 16) & 0xff, ref.generationNumber & 0xff, (ref.generationNumber >> 8) & 0xff]);
  const hash = createHash("md5")
    .update(security.key)
    .update(suffix)
    .update(aes ? Buffer.from("sAlT", "latin1") : Buffer.alloc(0))
    .digest();
  return hash.subarray(0, Math.min(security.key.length + 5, 16));
}

/** `data` decrypted by `cipher` with the object's key; AES data starts with its IV. Undefined when damaged. */
function decrypted(security: Security, ref: PDFRef, cipher: Cipher, data: Uint8Array): Buffer | undefined {
  if (cipher === "none") return Buffer.from(data);
  const key = objectKey(security, ref, cipher === "aes");
  if (cipher === "rc4") return rc4(key, data);
  if (data.length < 16 || data.length % 16 !== 0) return data.length === 0 ? Buffer.alloc(0) : undefined;
  try {
    const decipher = createDecipheriv(key.length === 32 ? "aes-256-cbc" : "aes-128-cbc", key, data.subarray(0, 16));
    return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
  } catch {
    return undefined;
  }
}

function bytesOf(pdfLib: typeof PdfLib, value: PDFObject | undefined): Buffer {
  return value instanceof pdfLib.PDFString || value instanceof pdfLib.PDFHexString ? Buffer.from(value.asBytes()) : Buffer.alloc(0);
}

/** An object with its strings, and its stream's data, decrypted (a damaged one as it was). */
function decryptObject(pdfLib: typeof PdfLib, security: Security, ref: PDFRef, object: PDFObject): PDFObject {
  const strings = (value: PDFObject): PDFObject => {
    if (value instanceof pdfLib.PDFString || value instanceof pdfLib.PDFHexString) {
      const plain = decrypted(security, ref, security.strings, value.asBytes());
      return plain ? pdfLib.PDFHexString.of(plain.toString("hex")) : value;
    }
    if (value instanceof pdfLib.PDFDict) for (const [key, entry] of value.entries()) value.set(key, strings(entry));
    else if (value instanceof pdfLib.PDFArray) for (let i = 0; i < value.size(); i++) value.set(i, strings(value.get(i)));
    return value;
  };
  if (object instanceof pdfLib.PDFRawStream) {
    // A cross-reference stream is never encrypted; nor is the metadata stream when EncryptMetadata is false.
    const type = object.dict.lookup(pdfLib.PDFName.of("Type"));
    if (type === pdfLib.PDFName.of("XRef")) return object;
    strings(object.dict);
    if (type === pdfLib.PDFName.of("Metadata") && !security.metadata) return object;
    const plain = decrypted(security, ref, security.streams, object.contents);
    return plain ? pdfLib.PDFRawStream.of(object.dict, plain) : object;
  }
  return strings(object);
}

const ENDOBJ = [..."endobj"].map((c) => c.charCodeAt(0));
/** pdf-lib's default parse speed (ParseSpeeds.Slow). */
const OBJECTS_PER_TICK = 100;

/**
 * The file parsed by pdf-lib's parser, each indirect object decrypted as it is read (by `decrypting`, but
 * the encryption dictionary), object streams measured before pdf-lib inflates them. Without `decrypting`,
 * object streams are left out (they can't be read yet): enough to find the trailer and /Encrypt.
 */
async function parseWith(pdfLib: typeof PdfLib, bytes: Uint8Array, decrypting: { security: Security; skip: PDFRef | undefined } | undefined, measure: MeasureObjectStream): Promise<PDFContext> {
  // The parser's own method, with decryption between reading an object and filing it.
  type Parser = {
    parseIndirectObject(): Promise<PDFRef>;
    parseIndirectObjectHeader(): PDFRef;
    skipWhitespaceAndComments(): void;
    parseObject(): PDFObject;
    matchKeyword(keyword: number[]): boolean;
    shouldWaitForTick: () => boolean;
    context: PDFContext;
    parseDocument(): Promise<PDFContext>;
  };
  // 100 objects between turns of the event loop, as PDFDocument.load parses (other calls and cancellation go on).
  const parser = pdfLib.PDFParser.forBytesWithOptions(bytes, OBJECTS_PER_TICK, false) as unknown as Parser;
  parser.parseIndirectObject = async function (this: Parser) {
    const ref = this.parseIndirectObjectHeader();
    this.skipWhitespaceAndComments();
    let object = this.parseObject();
    this.skipWhitespaceAndComments();
    this.matchKeyword(ENDOBJ);
    if (decrypting && ref !== decrypting.skip) object = decryptObject(pdfLib, decrypting.security, ref, object);
    const type = object instanceof pdfLib.PDFRawStream ? object.dict.lookup(pdfLib.PDFName.of("Type")) : undefined;
    if (object instanceof pdfLib.PDFRawStream && type === pdfLib.PDFName.of("ObjStm")) {
      if (decrypting) {
        await measure(object);
        await pdfLib.PDFObjectStreamParser.forStream(object, this.shouldWaitForTick).parseIntoContext();
      }
    } else if (object instanceof pdfLib.PDFRawStream && type === pdfLib.PDFName.of("XRef")) {
      pdfLib.PDFXRefStreamParser.forStream(object).parseIntoContext();
    } else this.context.assign(ref, object);
    return ref;
  };
  return parser.parseDocument();
}
