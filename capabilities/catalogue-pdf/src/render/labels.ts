import { traditionalChinese } from "../text/fallback-fonts.js";

/** Words the renderer adds itself, in the document's language (English when it has none of these). */
export interface Labels {
  contents: string;
  page(n: number, of: number): string;
}

const LABELS: Record<string, Labels> = {
  en: { contents: "Contents", page: (n, of) => `Page ${n} of ${of}` },
  de: { contents: "Inhalt", page: (n, of) => `Seite ${n} von ${of}` },
  fr: { contents: "Table des matières", page: (n, of) => `Page ${n} sur ${of}` },
  es: { contents: "Índice", page: (n, of) => `Página ${n} de ${of}` },
  it: { contents: "Indice", page: (n, of) => `Pagina ${n} di ${of}` },
  nl: { contents: "Inhoud", page: (n, of) => `Pagina ${n} van ${of}` },
  pt: { contents: "Índice", page: (n, of) => `Página ${n} de ${of}` },
  pl: { contents: "Spis treści", page: (n, of) => `Strona ${n} z ${of}` },
  el: { contents: "Περιεχόμενα", page: (n, of) => `Σελίδα ${n} από ${of}` },
  ru: { contents: "Содержание", page: (n, of) => `Страница ${n} из ${of}` },
  uk: { contents: "Зміст", page: (n, of) => `Сторінка ${n} з ${of}` },
  cs: { contents: "Obsah", page: (n, of) => `Strana ${n} z ${of}` },
  ro: { contents: "Cuprins", page: (n, of) => `Pagina ${n} din ${of}` },
  sv: { contents: "Innehåll", page: (n, of) => `Sida ${n} av ${of}` },
  da: { contents: "Indhold", page: (n, of) => `Side ${n} af ${of}` },
  nb: { contents: "Innhold", page: (n, of) => `Side ${n} av ${of}` },
  no: { contents: "Innhold", page: (n, of) => `Side ${n} av ${of}` },
  fi: { contents: "Sisällys", page: (n, of) => `Sivu ${n} / ${of}` },
  tr: { contents: "İçindekiler", page: (n, of) => `Sayfa ${n} / ${of}` },
  id: { contents: "Daftar isi", page: (n, of) => `Halaman ${n} dari ${of}` },
  vi: { contents: "Mục lục", page: (n, of) => `Trang ${n} / ${of}` },
  ar: { contents: "المحتويات", page: (n, of) => `صفحة ${n} من ${of}` },
  fa: { contents: "فهرست مطالب", page: (n, of) => `صفحه ${n} از ${of}` },
  ur: { contents: "فہرست", page: (n, of) => `صفحہ ${n} از ${of}` },
  he: { contents: "תוכן העניינים", page: (n, of) => `עמוד ${n} מתוך ${of}` },
  hi: { contents: "विषय-सूची", page: (n, of) => `पृष्ठ ${n} / ${of}` },
  bn: { contents: "সূচিপত্র", page: (n, of) => `পৃষ্ঠা ${n} / ${of}` },
  th: { contents: "สารบัญ", page: (n, of) => `หน้า ${n} จาก ${of}` },
  zh: { contents: "目录", page: (n, of) => `第 ${n} 页，共 ${of} 页` },
  ja: { contents: "目次", page: (n, of) => `${n} / ${of} ページ` },
  ko: { contents: "목차", page: (n, of) => `${n} / ${of} 페이지` },
};

/** Labels for a BCP 47 tag, by its primary language. */
export function labelsFor(language: string | undefined): Labels {
  // Traditional Chinese writes 目錄 and 頁.
  if (traditionalChinese(language)) return ZH_HANT;
  return LABELS[(language ?? "en").toLowerCase().split("-")[0]!] ?? LABELS.en!;
}

const ZH_HANT: Labels = { contents: "目錄", page: (n, of) => `第 ${n} 頁，共 ${of} 頁` };
